import NMEA
import NTRIP
import RTCM
import System
import TestSupport
import Testing
import Threading

/// RTCM 3 frames for the tests: a 1005 (station 2003 at a known ECEF position) and MSM4-like frames of any length.
enum TestFrames {
    /// A 1005 of station 2003 at X 4,075,580.3140, Y 931,853.9683, Z 4,801,568.2435 m (49.1442° N, 12.8789° E, 666 m).
    static let station: [UInt8] = {
        var bits = BitWriter()
        bits.put(1005, 12)
        bits.put(2003, 12)
        bits.put(0, 6)
        bits.put(0b1010, 4)  // GPS, no GLONASS, Galileo, reference station
        bits.put(40_755_803_140, 38)
        bits.put(0, 2)
        bits.put(9_318_539_683, 38)
        bits.put(0, 2)
        bits.put(48_015_682_435, 38)
        return CRC24Q.rtcm3Frame(bits.bytes)
    }()

    /// A frame of message `number` from station 2003, `length` bytes of payload.
    static func message(_ number: Int, length: Int, seed: UInt8) -> [UInt8] {
        var bits = BitWriter()
        bits.put(UInt64(number), 12)
        bits.put(2003, 12)
        var payload = bits.bytes
        while payload.count < length { payload.append(seed &+ UInt8(truncatingIfNeeded: payload.count)) }
        return CRC24Q.rtcm3Frame(payload)
    }

    /// A stream as a base sends it: the station, then observations.
    static let stream: [[UInt8]] =
        [station] + (0..<40).map { message(1077 + $0 % 3 * 10, length: 60 + $0 * 7, seed: UInt8($0)) }
}

struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func put(_ value: UInt64, _ width: Int) {
        for bit in stride(from: width - 1, through: 0, by: -1) {
            if used % 8 == 0 { bytes.append(0) }
            if value >> UInt64(bit) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used % 8) }
            used += 1
        }
    }
}

@Suite struct NTRIPAddressTests {
    @Test func parsesUserHostPortMount() throws {
        let address = try NTRIPAddress(parsing: "ntrip://me@caster.example.com:2102/BASE1")
        #expect(address == NTRIPAddress(host: "caster.example.com", port: 2102, user: "me", mount: "BASE1"))
        #expect(address.description == "ntrip://me@caster.example.com:2102/BASE1")
        let plain = try NTRIPAddress(parsing: "ntrip://[::1]/M")
        #expect(plain == NTRIPAddress(host: "::1", port: 2101, user: nil, mount: "M"))
        #expect(plain.description == "ntrip://[::1]:2101/M")
        #expect(try NTRIPAddress(parsing: "ntrip://caster").mount == nil)
    }

    @Test func refusesAPasswordInTheURLWithoutRepeatingIt() {
        #expect {
            try NTRIPAddress(parsing: "ntrip://me:hunter2@caster/BASE")
        } throws: { error in
            let text = "\(error)"
            return !text.contains("hunter2") && text.contains("--ntrip-password-file")
        }
        #expect(throws: NTRIPError.self) { try NTRIPAddress(parsing: "http://caster/BASE") }
        #expect(throws: NTRIPError.self) { try NTRIPAddress(parsing: "ntrip://caster:0/BASE") }
        #expect(throws: NTRIPError.self) { try NTRIPAddress(parsing: "ntrip://caster/A B") }
    }
}

@Suite struct NTRIPResponseTests {
    static func parse(_ text: String) throws -> (NTRIPResponse, headLength: Int)? {
        try NTRIPResponse.parse(Array(text.utf8))
    }

    @Test func bothVersionsAndRefusals() throws {
        #expect(try Self.parse("ICY 200 OK\r\n\u{D3}")! == (.data(chunked: false), 12))
        #expect(try Self.parse("ICY 200 OK\r") == nil)
        let version2 =
            "HTTP/1.1 200 OK\r\nNtrip-Version: Ntrip/2.0\r\nContent-Type: gnss/data\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
        #expect(try Self.parse(version2)! == (.data(chunked: true), version2.utf8.count))
        #expect(try Self.parse(String(version2.dropLast(2))) == nil)
        #expect(
            try Self.parse("SOURCETABLE 200 OK\r\nContent-Type: text/plain\r\n\r\nSTR;A;")?.0
                == .sourcetable(chunked: false))
        #expect(
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Type: gnss/sourcetable\r\n\r\n")?.0
                == .sourcetable(chunked: false))
        #expect(try Self.parse("HTTP/1.0 401 Unauthorized\r\n\r\n")?.0 == .refused(code: 401, reason: "Unauthorized"))
        // A caster's words reach a terminal: no escape sequence gets through.
        #expect(try Self.parse("HTTP/1.1 403 \u{1B}[2JGone\r\n\r\n")?.0 == .refused(code: 403, reason: "?[2JGone"))
    }

    @Test func somethingElseIsNotNTRIP() {
        #expect(throws: NTRIPError.self) { try NTRIPResponse.parse([0xD3, 0x00, 0x13, 0x3E]) }
        #expect(throws: NTRIPError.self) { try Self.parse("SSH-2.0-OpenSSH_9.2\r\n\r\n") }
        #expect(throws: NTRIPError.self) { try NTRIPResponse.parse([UInt8](repeating: 0x41, count: 9000)) }
    }

    @Test("chunked transfer: the same data however the bytes are cut")
    func chunkedDecoding() throws {
        let data = (0..<300).map { UInt8($0 % 251) }
        var wire: [UInt8] = []
        for (start, size) in [(0, 17), (17, 255), (272, 28)] {
            wire +=
                Array(Hex.string(UInt64(size), uppercase: start == 0).utf8) + (start == 17 ? Array(";x=1".utf8) : [])
            wire += [0x0D, 0x0A] + data[start..<(start + size)] + [0x0D, 0x0A]
        }
        wire += Array("0\r\nTrailer: a\r\n\r\n".utf8)
        for cut in [1, 2, 3, 7, 64, wire.count] {
            var decoder = ChunkedDecoder()
            var out: [UInt8] = []
            for start in stride(from: 0, to: wire.count, by: cut) {
                try wire[start..<min(wire.count, start + cut)].withUnsafeBytes { piece in
                    try decoder.feed(piece) { out += $0 }
                }
            }
            #expect(out == data, "cut every \(cut)")
            #expect(decoder.isEnded)
        }
        var broken = ChunkedDecoder()
        #expect(throws: NTRIPError.self) { try Array("zz\r\n".utf8).withUnsafeBytes { try broken.feed($0) { _ in } } }
        var long = ChunkedDecoder()
        #expect(throws: NTRIPError.self) {
            try Array("2\r\nabc\r\n".utf8).withUnsafeBytes { try long.feed($0) { _ in } }
        }
    }
}

@Suite struct SourcetableTests {
    @Test func mountsWithTheirFormatsAndDistances() {
        let table = Sourcetable(
            parsing: """
                CAS;caster.example;2101;Example;Op;0;DEU;48.1;11.6;0.0.0.0;0;http://example
                NET;EX;Op;B;N;http://example;none;ops@example;none
                STR;MUC1;Munich;RTCM 3.3;1005(10),1077(1),1087(1);2;GPS+GLO;EX;DEU;48.15;11.57;0;0;sNTRIP;none;B;N;5600;
                STR;VRS;Network;RTCM 3.2;1004(1);2;GPS;EX;DEU;0.00;0.00;1;1;sNTRIP;none;B;Y;2400;
                garbage
                ENDSOURCETABLE

                """)
        #expect(table.isComplete)
        #expect(table.unreadLines == 1)
        #expect(table.streams.map(\.mount) == ["MUC1", "VRS"])
        let munich = table.streams[0]
        #expect(munich.format == "RTCM 3.3")
        #expect(munich.formatDetails == "1005(10),1077(1),1087(1)")
        #expect(munich.carrier == 2)
        #expect(munich.navigationSystems == "GPS+GLO")
        #expect(munich.authentication == "B")
        #expect(munich.bitRate == 5600)
        #expect(!munich.needsPosition && !munich.isNetwork && !munich.fee)
        let distance = munich.distanceMeters(fromLatitude: 48.1374, longitude: 11.5755)
        #expect(distance.map { abs($0 - 1459.3) < 0.5 } == true, "\(distance ?? -1)")
        #expect(table.streams[1].needsPosition && table.streams[1].isNetwork && table.streams[1].fee)
        #expect(table.streams[1].distanceMeters(fromLatitude: 48, longitude: 11) == nil)
        #expect(Sourcetable(parsing: "STR;TEST;\r\nENDSOURCETABLE\r\n").streams.map(\.mount) == ["TEST"])
    }
}

@Suite struct PositionReportTests {
    @Test("the GGA sent to the caster reads back as the fix, checksum and all")
    func ggaOfAFix() throws {
        var fix = Fix()
        fix.date = UTCDate(year: 2026, month: 12, day: 6)
        fix.time = UTCTime(hour: 9, minute: 5, second: 7, nanoseconds: 250_000_000, fractionDigits: 2)
        fix.latitude = -33.856_784
        fix.longitude = 151.215_297
        fix.altitudeMeters = 25.04
        fix.geoidSeparationMeters = 22.1
        fix.hdop = 0.87
        fix.satellitesUsed = 14
        fix.quality = .rtkFloat
        fix.mode = .threeD
        let sentence = try #require(PositionReport.gga(fix))
        let text = String(decoding: sentence, as: UTF8.self)
        #expect(text == "$GPGGA,090507.25,3351.40704,S,15112.91782,E,5,14,0.9,25.0,M,22.1,M,,*43\r\n")
        let gga = try GGA(parsing: String(text.dropLast()))  // "\r\n" is one Character
        #expect(gga.latitude.map { abs($0.doubleValue + 33.856_784) < 1e-7 } == true)
        #expect(gga.longitude.map { abs($0.doubleValue - 151.215_297) < 1e-7 } == true)
        #expect(gga.quality?.rawValue == 5)
        var none = fix
        none.latitude = nil
        #expect(PositionReport.gga(none) == nil)
    }

    @Test func base64BothWays() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encoded(Array(plain.utf8)) == encoded)
            #expect(Base64.decoded(Substring(encoded)) == Array(plain.utf8))
        }
        #expect(HTTPRequest.basicAuthorization(user: "base", password: "secret") == "Basic YmFzZTpzZWNyZXQ=")
    }
}
