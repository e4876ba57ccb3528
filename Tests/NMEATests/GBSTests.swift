import Testing

@testable import NMEA

@Suite struct GBSTests {
    static let example = "$GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0*5A"

    @Test func nmea410Example() throws {
        #expect(
            try GBS(parsing: Self.example)
                == GBS(
                    talker: .gps, time: .at(23, 54, 58, digits: 2), latitudeErrorMeters: fp(14, 1),
                    longitudeErrorMeters: fp(13, 1), altitudeErrorMeters: fp(31, 1), failedSatellite: 3,
                    missedDetectionProbability: nil, biasMeters: fp(-214, 1), biasStandardDeviationMeters: fp(38, 1),
                    systemID: 1, signalID: 0))
    }

    /// NMEA 4.0 (u-blox M8 default): eight fields, no failed satellite.
    @Test func nmea40WithoutFaultySatellite() throws {
        #expect(
            try GBS(parsing: "$GNGBS,170556.00,3.0,2.9,8.3,,,,*5C")
                == GBS(
                    talker: .gnss, time: .at(17, 5, 56, digits: 2), latitudeErrorMeters: fp(30, 1),
                    longitudeErrorMeters: fp(29, 1), altitudeErrorMeters: fp(83, 1)))
    }

    @Test func hexadecimalSystemAndSignalIDs() throws {
        let gbs = try GBS(parsing: replacingField(10, of: replacingField(9, of: Self.example, with: "F"), with: "B"))
        #expect(gbs.systemID == 15)
        #expect(gbs.signalID == 11)
    }

    @Test(arguments: [
        (1, "23545", NMEAError.badField(index: 1, reason: .badLength)),
        (2, "1.4m", .badField(index: 2, reason: .notANumber)),
        (5, "O3", .badField(index: 5, reason: .notANumber)),
        (6, "0.0.1", .badField(index: 6, reason: .notANumber)),
        (7, "-21.4-", .badField(index: 7, reason: .notANumber)),
        (9, "G", .badField(index: 9, reason: .notANumber)),
        (10, "-1", .badField(index: 10, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GBS(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GBS.self, Self.example, keeping: 3)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try GBS(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gbs, found: .gst)) { try GBS(parsing: GSTTests.textbook) }
    }
}
