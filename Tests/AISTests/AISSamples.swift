import AIS
import CAllocationCounter
import NMEA

/// AIS sentences of our own making: fields written bit by bit, armoured, split into parts, checksummed. The tests
/// know every value because they chose it.
struct AISBits {
    private(set) var bits: [Bool] = []

    mutating func put(_ value: Int, _ width: Int) {
        for index in stride(from: width - 1, through: 0, by: -1) { bits.append((value >> index) & 1 == 1) }
    }

    /// Six-bit text, `@`-padded to `characters`.
    mutating func put(text: String, _ characters: Int) {
        let bytes = Array(text.utf8)
        for index in 0..<characters {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "@")
            put(Int(byte >= 64 ? byte - 64 : byte), 6)
        }
    }

    /// The armoured payload and its fill bits.
    var armored: (payload: String, fillBits: Int) {
        let fill = (6 - bits.count % 6) % 6
        let padded = bits + Array(repeating: false, count: fill)
        var payload: [UInt8] = []
        for start in stride(from: 0, to: padded.count, by: 6) {
            let value = padded[start..<start + 6].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
            payload.append(UInt8(value < 40 ? value + 48 : value + 56))
        }
        return (String(decoding: payload, as: UTF8.self), fill)
    }

    /// The sentences carrying the message: `parts` of them (the payload split evenly), on `channel` with
    /// sequential message ID `sequence` when there is more than one.
    func sentences(parts: Int = 1, sequence: Int = 3, channel: String = "A", talker: String = "AIVDM") -> [String] {
        let (payload, fill) = armored
        let bytes = Array(payload.utf8)
        let size = (bytes.count + parts - 1) / parts
        return (0..<parts).map { part in
            let slice = bytes[(part * size)..<min(bytes.count, (part + 1) * size)]
            let id = parts > 1 ? String(sequence) : ""
            let body =
                "\(talker),\(parts),\(part + 1),\(id),\(channel),\(String(decoding: slice, as: UTF8.self)),"
                + "\(part == parts - 1 ? fill : 0)"
            let checksum = NMEAChecksum.of(Array(body.utf8))
            return "!" + body + "*" + Hex.string(UInt64(checksum), minimumDigits: 2)
        }
    }

    /// A type 1 position report with the values the tests check.
    static func positionReport(mmsi: Int = 244_660_274, latitude: Double = 52.855395, longitude: Double = 5.678283)
        -> AISBits
    {
        var bits = AISBits()
        bits.put(1, 6)  // type
        bits.put(0, 2)  // repeat
        bits.put(mmsi, 30)
        bits.put(0, 4)  // status: under way using engine
        bits.put(-128 & 0xFF, 8)  // turn: not available
        bits.put(123, 10)  // speed: 12.3 knots
        bits.put(1, 1)  // accuracy
        bits.put(Int((longitude * 600_000).rounded()) & 0xFFF_FFFF, 28)
        bits.put(Int((latitude * 600_000).rounded()) & 0x7FF_FFFF, 27)
        bits.put(2_345, 12)  // course 234.5°
        bits.put(511, 9)  // heading: not available
        bits.put(47, 6)  // second
        bits.put(0, 2)  // maneuver
        bits.put(0, 3)  // spare
        bits.put(1, 1)  // raim
        bits.put(49_252, 19)  // radio
        return bits
    }

    /// A type 5 static and voyage report (424 bits: two sentences as receivers send it).
    static func staticAndVoyage(mmsi: Int = 371_255_000) -> AISBits {
        var bits = AISBits()
        bits.put(5, 6)
        bits.put(0, 2)
        bits.put(mmsi, 30)
        bits.put(2, 2)  // AIS version
        bits.put(9_266_633, 30)  // IMO
        bits.put(text: "HP6683", 7)
        bits.put(text: "SEA ENTERPRISE", 20)
        bits.put(90, 8)  // ship type
        bits.put(13, 9)
        bits.put(15, 9)
        bits.put(1, 6)
        bits.put(6, 6)  // dimensions
        bits.put(1, 4)  // EPFD: GPS
        bits.put(3, 4)
        bits.put(29, 5)
        bits.put(11, 5)
        bits.put(0, 6)  // ETA 03-29T11:00Z
        bits.put(14, 8)  // draught 1.4 m
        bits.put(text: "LEMMER", 20)
        bits.put(0, 1)  // DTE
        bits.put(0, 1)  // spare
        return bits
    }
}

extension AISDecoder {
    /// Adds each line (framed as the tool frames it); the messages completed, in order.
    mutating func add(lines: [String]) -> [AISMessage] {
        var messages: [AISMessage] = []
        for line in lines {
            var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
            var text = line + "\r\n"
            text.withUTF8 { buffer in
                framer.feed(UnsafeRawBufferPointer(buffer)) { event in
                    guard case .sentence(let sentence) = event else { return }
                    if let message = try? add(sentence) { messages.append(message) }
                }
            }
        }
        return messages
    }
}

/// The allocations `body` makes, counted after one warm-up call (which may fill caches once).
func allocationsAfterWarmUp(_ body: () -> Void) -> Int {
    body()
    nmea_allocation_window_open()
    body()
    let allocations = nmea_allocation_window_close()
    return allocations
}
