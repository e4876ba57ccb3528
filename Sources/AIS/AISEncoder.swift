import NMEA

/// Writes AIS messages: fields put bit by bit, then armoured into `!AIVDM` sentences (split into parts of at most
/// 60 payload characters, checksummed). What the simulator and the benchmarks send; the decoder reads it back.
public struct AISEncoder: Sendable {
    /// The message's bits so far.
    public private(set) var bits: [Bool] = []

    public init() {}

    /// Appends the low `width` bits of `value` (two's complement for negative values), most significant first.
    public mutating func put(_ value: Int, _ width: Int) {
        for index in stride(from: width - 1, through: 0, by: -1) { bits.append((value >> index) & 1 == 1) }
    }

    /// Appends `text` as six-bit ASCII in `characters` characters, `@`-padded (lower case is sent as upper case).
    public mutating func put(text: String, _ characters: Int) {
        let bytes = Array(text.uppercased().utf8)
        for index in 0..<characters {
            let byte = index < bytes.count && (32...95).contains(bytes[index]) ? bytes[index] : UInt8(ascii: "@")
            put(Int(byte >= 64 ? byte - 64 : byte), 6)
        }
    }

    /// The sentences that carry the message, each ending in CR LF: one when the payload fits 60 characters, else
    /// parts with the sequential message ID `sequence` (0…9).
    public func sentences(talker: String = "AIVDM", channel: UInt8 = UInt8(ascii: "A"), sequence: Int = 0) -> [UInt8] {
        let fill = (6 - bits.count % 6) % 6
        let padded = bits + Array(repeating: false, count: fill)
        var payload: [UInt8] = []
        for start in stride(from: 0, to: padded.count, by: 6) {
            let value = padded[start..<start + 6].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
            payload.append(UInt8(value < 40 ? value + 48 : value + 56))
        }
        let parts = max(1, (payload.count + 59) / 60)
        var out: [UInt8] = []
        for part in 0..<parts {
            var body = Array(talker.utf8)
            body += Array(",\(parts),\(part + 1),\(parts > 1 ? String(sequence) : ""),".utf8)
            body.append(channel)
            body.append(UInt8(ascii: ","))
            body += payload[(part * 60)..<min(payload.count, (part + 1) * 60)]
            body += Array(",\(part == parts - 1 ? fill : 0)".utf8)
            out.append(UInt8(ascii: "!"))
            out += body
            NMEAChecksum.write(NMEAChecksum.of(body)) { out.append($0) }
            out += [13, 10]
        }
        return out
    }
}
