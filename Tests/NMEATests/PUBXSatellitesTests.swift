import Testing

@testable import NMEA

@Suite struct PUBXSatellitesTests {
    typealias Satellite = PUBXSatellites.Satellite
    /// The example of the u-blox protocol description.
    static let example = withChecksum(
        "$PUBX,03,11,23,-,,,45,010,29,-,,,46,013,07,-,,,42,015,08,U,067,31,42,025,10,U,195,33,46,026,"
            + "18,U,326,08,39,026,17,-,,,32,015,26,U,306,66,48,025,27,U,073,10,36,026,28,U,089,61,46,024,15,-,,,39,014")

    /// Decodes a `$PUBX,03` line and copies its lazily read satellites out of the callback.
    func decode(_ line: String) throws(NMEAError) -> (count: Int, satellites: [Satellite]) {
        try withSentence(line) { (sentence) throws(NMEAError) in
            let pubx = try PUBXSatellites(sentence)
            return (pubx.count, Array(pubx.satellites))
        }
    }

    static func notUsed(_ id: Int, cno: SignalToNoise, lock: Int) -> Satellite {
        Satellite(
            id: id, status: UInt8(ascii: "-"), azimuthDegrees: nil, elevationDegrees: nil, carrierToNoise: cno,
            lockTimeSeconds: lock)
    }

    static func used(_ id: Int, azimuth: Int, elevation: Int, cno: SignalToNoise, lock: Int) -> Satellite {
        Satellite(
            id: id, status: UInt8(ascii: "U"), azimuthDegrees: azimuth, elevationDegrees: elevation,
            carrierToNoise: cno, lockTimeSeconds: lock)
    }

    @Test func elevenSatellites() throws {
        let (count, satellites) = try decode(Self.example)
        #expect(count == 11)
        #expect(
            satellites == [
                Self.notUsed(23, cno: 45, lock: 10),
                Self.notUsed(29, cno: 46, lock: 13),
                Self.notUsed(7, cno: 42, lock: 15),
                Self.used(8, azimuth: 67, elevation: 31, cno: 42, lock: 25),
                Self.used(10, azimuth: 195, elevation: 33, cno: 46, lock: 26),
                Self.used(18, azimuth: 326, elevation: 8, cno: 39, lock: 26),
                Self.notUsed(17, cno: 32, lock: 15),
                Self.used(26, azimuth: 306, elevation: 66, cno: 48, lock: 25),
                Self.used(27, azimuth: 73, elevation: 10, cno: 36, lock: 26),
                Self.used(28, azimuth: 89, elevation: 61, cno: 46, lock: 24),
                Self.notUsed(15, cno: 39, lock: 14),
            ])
        #expect(satellites.filter(\.isUsed).map(\.id) == [8, 10, 18, 26, 27, 28])
    }

    @Test func satellitesCanBeIteratedTwice() throws {
        let (first, second) = try withSentence(Self.example) { (sentence) throws(NMEAError) in
            let pubx = try PUBXSatellites(sentence)
            return (Array(pubx.satellites), Array(pubx.satellites))
        }
        #expect(first == second)
        #expect(first.count == 11)
    }

    @Test func ephemerisOnlyAndUntracked() throws {
        let (count, satellites) = try decode("$PUBX,03,02,65,e,,,,00,120,-,200,05,,*51")
        #expect(count == 2)
        #expect(
            satellites == [
                Satellite(
                    id: 65, status: UInt8(ascii: "e"), azimuthDegrees: nil, elevationDegrees: nil,
                    carrierToNoise: nil, lockTimeSeconds: 0),
                Satellite(
                    id: 120, status: UInt8(ascii: "-"), azimuthDegrees: 200, elevationDegrees: 5,
                    carrierToNoise: nil, lockTimeSeconds: nil),
            ])
        #expect(!satellites[0].isUsed)
    }

    @Test func noSatellites() throws {
        let (count, satellites) = try decode("$PUBX,03,00*1C")
        #expect(count == 0)
        #expect(satellites.isEmpty)
    }

    @Test func extraGroupsBeyondTheCountAreIgnored() throws {
        let (count, satellites) = try decode("$PUBX,03,01,08,U,067,31,42,025,10,U,195,33,46,026*1D")
        #expect(count == 1)
        #expect(satellites == [Self.used(8, azimuth: 67, elevation: 31, cno: 42, lock: 25)])
    }

    @Test(arguments: [
        (2, "x", NMEAError.badField(index: 2, reason: .notANumber)),
        (2, "256", .badField(index: 2, reason: .outOfRange)),
        (3, "1000", .badField(index: 3, reason: .outOfRange)),
        (22, "UU", .badField(index: 22, reason: .badLength)),
        (23, "361", .badField(index: 23, reason: .outOfRange)),
        (24, "-91", .badField(index: 24, reason: .outOfRange)),
        (25, "100", .badField(index: 25, reason: .outOfRange)),
        (26, "2x5", .badField(index: 26, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try decode(replacingField(index, of: Self.example, with: value)) }
    }

    /// Decoded as `FixReader` decodes: the bad fields left out and listed.
    func decodeKeeping(_ line: String) throws(NMEAError) -> (count: Int, satellites: [Satellite], errors: [NMEAError]) {
        try withSentence(line) { (sentence) throws(NMEAError) in
            var errors = FieldErrors()
            let pubx = try PUBXSatellites(sentence, fieldErrors: &errors)
            return (pubx.count, Array(pubx.satellites), Array(errors))
        }
    }

    /// Issue 12, item 10: a list shorter than announced gives the satellites it holds (it was "too few fields").
    @Test func fewerSatellitesThanAnnounced() throws {
        let decoded = try decode(withChecksum("$PUBX,03,03,08,U,067,31,42,025,10,U,195,33,46,026"))
        #expect(decoded.count == 3)
        #expect(
            decoded.satellites == [
                Self.used(8, azimuth: 67, elevation: 31, cno: 42, lock: 25),
                Self.used(10, azimuth: 195, elevation: 33, cno: 46, lock: 26),
            ])
    }

    /// Issue 12, item 10: a satellite cut short keeps the fields it has.
    @Test func lastSatelliteCutShort() throws {
        let first = Self.notUsed(23, cno: 45, lock: 10)
        #expect(
            try decode(withChecksum("$PUBX,03,02,23,-,,,45,010,29")).satellites
                == [
                    first,
                    Satellite(
                        id: 29, status: nil, azimuthDegrees: nil, elevationDegrees: nil, carrierToNoise: nil,
                        lockTimeSeconds: nil),
                ])
        #expect(
            try decode(withChecksum("$PUBX,03,02,23,-,,,45,010,29,-,,,46")).satellites
                == [
                    first,
                    Satellite(
                        id: 29, status: UInt8(ascii: "-"), azimuthDegrees: nil, elevationDegrees: nil,
                        carrierToNoise: 46, lockTimeSeconds: nil),
                ])
    }

    /// Issue 12, item 10: without a count (empty, or out of range) the satellites that follow are still read; a
    /// satellite without an ID is skipped.
    @Test func missingOrBadCountField() throws {
        #expect(try decode(withChecksum("$PUBX,03")).satellites.isEmpty)
        let empty = try decodeKeeping(replacingField(2, of: Self.example, with: ""))
        #expect(empty.count == 0 && empty.satellites.count == 11 && empty.errors.isEmpty)
        let bad = try decodeKeeping(replacingField(2, of: Self.example, with: "256"))
        #expect(bad.satellites == empty.satellites && bad.errors == [.badField(index: 2, reason: .outOfRange)])
        let withoutID = try decodeKeeping(replacingField(3, of: Self.example, with: ""))
        #expect(withoutID.satellites == Array(empty.satellites.dropFirst()) && withoutID.errors.isEmpty)
        let badCNo = try decodeKeeping(replacingField(7, of: Self.example, with: "4x"))
        var expected = empty.satellites
        expected[0].carrierToNoise = nil
        #expect(badCNo.satellites == expected && badCNo.errors == [.badField(index: 7, reason: .notANumber)])
        // A decimal carrier-to-noise keeps its decimals (issue 25; it read as its whole part before).
        #expect(
            try decode(replacingField(7, of: Self.example, with: "45.9")).satellites.first?.carrierToNoise
                == SignalToNoise(hundredths: 4590))
    }

    @Test func otherPUBXMessagesAreRejected() {
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try decode(PUBXPositionTests.example)
        }
    }

    @Test func checksumMismatch() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try decode(bad) }
    }
}
