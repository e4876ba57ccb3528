import CAllocationCounter
import JSON
import NMEA
import RTCM
import Testing

/// Bits written most significant first, for building RTCM payloads with known fields.
struct BitWriter {
    var bytes: [UInt8] = []
    var bitCount = 0

    mutating func put(_ value: Int64, _ width: Int) {
        for index in stride(from: width - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if (value >> Int64(index)) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount % 8) }
            bitCount += 1
        }
    }
}

@Suite struct RTCMDecodingTests {
    /// A 1006 with known values: station 2003, GPS and GLONASS, X/Y/Z and an antenna height.
    static let station: [UInt8] = {
        var bits = BitWriter()
        bits.put(1006, 12)
        bits.put(2003, 12)
        bits.put(0, 6)
        bits.put(1, 1)  // GPS
        bits.put(1, 1)  // GLONASS
        bits.put(0, 1)
        bits.put(1, 1)  // reference station
        bits.put(11_141_045_999, 38)
        bits.put(0, 1)
        bits.put(0, 1)
        bits.put(-48_507_297_108, 38)
        bits.put(0, 2)
        bits.put(39_755_214_643, 38)
        bits.put(15_000, 16)  // 1.5 m
        return bits.bytes
    }()

    @Test("signed and unsigned fields across byte boundaries")
    func bits() {
        let bytes: [UInt8] = [0b1011_0011, 0b1100_0000, 0xFF, 0x80]
        bytes.withUnsafeBytes { raw in
            let bits = RTCMBits(raw)
            #expect(bits.unsigned(0, 4) == 0b1011)
            #expect(bits.unsigned(4, 6) == 0b0011_11)
            #expect(bits.signed(16, 8) == -1)
            #expect(bits.signed(24, 2) == -2)
            #expect(bits.unsigned(30, 8) == 0)  // past the end: zeros
        }
    }

    @Test("1006 as gpsd writes it")
    func stationJSON() {
        var json = JSONWriter()
        Self.station.withUnsafeBytes { json.writeRTCM3(RTCMFrame(payload: $0)) }
        #expect(
            json.string
                == #"{"class":"RTCM3","type":1006,"length":21,"station_id":2003,"system":["GPS","GLONASS"],"#
                + #""refstation":true,"sro":false,"x":1114104.5999,"y":-4850729.7108,"z":3975521.4643,"h":1.5000}"#)
    }

    @Test("a message cut short is written as undecoded, with its bytes")
    func truncated() {
        var json = JSONWriter()
        Array(Self.station.prefix(10)).withUnsafeBytes { json.writeRTCM3(RTCMFrame(payload: $0)) }
        #expect(json.string.hasPrefix(#"{"class":"RTCM3","type":1006,"length":10,"malformed":true,"data":["0x3e","#))
    }

    @Test("decoding allocates nothing")
    func allocationFree() {
        struct Sum: RTCMMessageVisitor {
            var total = 0
            mutating func visit<Message: RTCMMessageBody>(_ message: Message) { total &+= message.stationID }
            mutating func visitUndecoded(_ frame: RTCMFrame, malformed: Bool) { total &+= 1 }
        }
        var sum = Sum()
        Self.station.withUnsafeBytes { raw in
            RTCMFrame(payload: raw).decode(into: &sum)  // warm-up
            nmea_allocation_window_open()
            for _ in 0..<1000 { RTCMFrame(payload: raw).decode(into: &sum) }
            let allocations = nmea_allocation_window_close()
            #expect(allocations == 0)
        }
        #expect(sum.total == 1001 * 2003)
    }
}
