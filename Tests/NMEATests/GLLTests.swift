import Testing

@testable import NMEA

@Suite struct GLLTests {
    static let textbook = "$GPGLL,4916.45,N,12311.12,W,225444,A,*1D"

    @Test func textbookExample() throws {
        #expect(
            try GLL(parsing: Self.textbook)
                == GLL(
                    talker: .gps, latitude: fp(492_741_667, 7), longitude: fp(-1_231_853_333, 7), time: .at(22, 54, 44),
                    isValid: true, mode: nil))
    }

    @Test func nmea23ModeIndicator() throws {
        #expect(
            try GLL(parsing: "$GNGLL,4717.11437,N,00833.91522,E,083559.00,A,D*70")
                == GLL(
                    talker: .gnss, latitude: fp(472_852_395_000, 10), longitude: fp(85_652_536_667, 10),
                    time: .at(8, 35, 59, digits: 2), isValid: true, mode: .differential))
    }

    @Test func notValidHasAbsentValues() throws {
        #expect(
            try GLL(parsing: "$GPGLL,,,,,,V,N*64")
                == GLL(
                    talker: .gps, latitude: nil, longitude: nil, time: nil, isValid: false, mode: .notValid))
    }

    @Test func timeWithoutPosition() throws {
        let gll = try GLL(parsing: "$GNGLL,,,,,001043.00,V,N*52")
        #expect(
            gll
                == GLL(
                    talker: .gnss, latitude: nil, longitude: nil, time: .at(0, 10, 43, digits: 2), isValid: false,
                    mode: .notValid))
    }

    /// NMEA 1.5 sends only the position, which counts as valid.
    @Test func nmea15PositionOnly() throws {
        #expect(
            try GLL(parsing: "$GPGLL,3751.65,S,14507.36,E*77")
                == GLL(
                    talker: .gps, latitude: fp(-378_608_333, 7), longitude: fp(1_451_226_667, 7), time: nil,
                    isValid: true))
    }

    @Test func nmea15WithoutPositionIsNotValid() throws {
        #expect(try GLL(parsing: "$GPGLL,,,,*50").isValid == false)
    }

    @Test func statusVOverridesAPosition() throws {
        let gll = try GLL(parsing: replacingField(6, of: Self.textbook, with: "V"))
        #expect(!gll.isValid)
        #expect(gll.latitude == fp(492_741_667, 7))
    }

    @Test(arguments: [
        (1, "4916.4S", NMEAError.badField(index: 1, reason: .notANumber)),
        (1, "4960.00", .badField(index: 1, reason: .outOfRange)),
        (2, "E", .badField(index: 2, reason: .unexpectedCharacter)),
        (3, "12311.12.", .badField(index: 3, reason: .notANumber)),
        (4, "N", .badField(index: 4, reason: .unexpectedCharacter)),
        (5, "22544", .badField(index: 5, reason: .badLength)),
        (5, "225494", .badField(index: 5, reason: .outOfRange)),
        (6, "Q", .badField(index: 6, reason: .unexpectedCharacter)),
        (6, "AV", .badField(index: 6, reason: .badLength)),
        (7, "DA", .badField(index: 7, reason: .badLength)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GLL(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        // Without its status field (NMEA 2.0 has none) a GLL is valid; the longitude's hemisphere is left off too.
        let gll = try expectCutShort(GLL.self, Self.textbook, keeping: 3, sameAsEmptied: false)
        #expect(
            gll
                == GLL(
                    talker: .gps, latitude: fp(492_741_667, 7), longitude: fp(1_231_853_333, 7), time: nil,
                    isValid: true, mode: nil))
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try GLL(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gll, found: .gga)) { try GLL(parsing: GGATests.textbook) }
    }
}
