import Testing

@testable import NMEA

@Suite struct DTMTests {
    static let wgs84 = "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F"

    @Test func wgs84() throws {
        #expect(
            try DTM(parsing: Self.wgs84)
                == DTM(
                    talker: .gps, localDatum: "W84", subdivision: "", latitudeOffsetMinutes: fp(0, 1),
                    longitudeOffsetMinutes: fp(0, 1), altitudeOffsetMeters: fp(0, 1), referenceDatum: "W84"))
    }

    @Test func userDatumWithOffsets() throws {
        #expect(
            try DTM(parsing: "$GPDTM,999,CH,0.08,N,0.07,E,-47.7,W84*10")
                == DTM(
                    talker: .gps, localDatum: "999", subdivision: "CH", latitudeOffsetMinutes: fp(8, 2),
                    longitudeOffsetMinutes: fp(7, 2), altitudeOffsetMeters: fp(-477, 1), referenceDatum: "W84"))
    }

    @Test func southAndWestOffsetsAreNegative() throws {
        #expect(
            try DTM(parsing: "$GNDTM,W72,,00.0019,S,00.0060,W,0.4,W84*7D")
                == DTM(
                    talker: .gnss, localDatum: "W72", subdivision: "", latitudeOffsetMinutes: fp(-19, 4),
                    longitudeOffsetMinutes: fp(-60, 4), altitudeOffsetMeters: fp(4, 1), referenceDatum: "W84"))
    }

    @Test func emptyOffsetsAreNil() throws {
        #expect(
            try DTM(parsing: "$GPDTM,P90,,,,,,,W84*48")
                == DTM(
                    talker: .gps, localDatum: "P90", latitudeOffsetMinutes: nil, longitudeOffsetMinutes: nil,
                    altitudeOffsetMeters: nil, referenceDatum: "W84"))
    }

    @Test(arguments: [
        (3, "0.0a", NMEAError.badField(index: 3, reason: .notANumber)),
        (4, "NN", .badField(index: 4, reason: .badLength)),
        (5, "1..0", .badField(index: 5, reason: .notANumber)),
        (6, "EW", .badField(index: 6, reason: .badLength)),
        (7, "0.0m", .badField(index: 7, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try DTM(parsing: replacingField(index, of: Self.wgs84, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(DTM.self, Self.wgs84, keeping: 7)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.wgs84)
        #expect(throws: mismatch) { try DTM(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .dtm, found: .gga)) { try DTM(parsing: GGATests.textbook) }
    }
}
