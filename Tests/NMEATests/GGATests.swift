import Testing

@testable import NMEA

@Suite struct GGATests {
    static let textbook = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    static let rtk = "$GNGGA,092725.00,4717.11399833,N,00833.91590024,E,4,12,0.62,499.6732,M,48.0,M,1.0,0000*58"

    @Test func textbookExample() throws {
        #expect(
            try GGA(parsing: Self.textbook)
                == GGA(
                    talker: .gps, time: .at(12, 35, 19), latitude: fp(4_811_730_000, 8),
                    longitude: fp(1_151_666_667, 8),
                    quality: .gps, satellitesUsed: 8, hdop: fp(9, 1), altitudeMeters: fp(5454, 1),
                    geoidSeparationMeters: fp(469, 1), differentialAgeSeconds: nil, differentialStationID: nil))
    }

    /// 8-decimal RTK minutes become 10-decimal degrees with nothing lost.
    @Test func rtkFixedKeepsEveryDigit() throws {
        let gga = try GGA(parsing: Self.rtk)
        #expect(
            gga
                == GGA(
                    talker: .gnss, time: .at(9, 27, 25, digits: 2), latitude: fp(472_852_333_055, 10),
                    longitude: fp(85_652_650_040, 10), quality: .rtkFixed, satellitesUsed: 12, hdop: fp(62, 2),
                    altitudeMeters: fp(4_996_732, 4), geoidSeparationMeters: fp(480, 1),
                    differentialAgeSeconds: fp(10, 1),
                    differentialStationID: 0))
        #expect(gga.latitude?.description == "47.2852333055000")
        #expect(gga.longitude?.description == "8.5652650040000")
    }

    @Test func differentialFixInTheWest() throws {
        let gga = try GGA(
            parsing: "$GPGGA,172814.0,3723.46587704,N,12202.26957864,W,2,6,1.2,18.893,M,-25.669,M,2.0,0031*4F")
        #expect(
            gga
                == GGA(
                    talker: .gps, time: .at(17, 28, 14, digits: 1), latitude: fp(373_910_979_506_667, 13),
                    longitude: fp(-1_220_378_263_106_667, 13), quality: .differential, satellitesUsed: 6,
                    hdop: fp(12, 1),
                    altitudeMeters: fp(18_893, 3), geoidSeparationMeters: fp(-25_669, 3),
                    differentialAgeSeconds: fp(20, 1),
                    differentialStationID: 31))
    }

    @Test func southernHemisphereAndNegativeAltitude() throws {
        let gga = try GGA(parsing: "$GPGGA,015540.000,3150.68378,S,11551.99098,E,1,05,3.0,-12.3,M,-30.2,M,,*76")
        #expect(gga.latitude == fp(-318_447_296_667, 10))
        #expect(gga.longitude == fp(1_158_665_163_333, 10))
        #expect(gga.altitudeMeters == fp(-123, 1))
        #expect(gga.geoidSeparationMeters == fp(-302, 1))
        #expect(gga.time == .at(1, 55, 40, digits: 3))
    }

    @Test func noFixHasAbsentValuesNotZeros() throws {
        #expect(
            try GGA(parsing: "$GPGGA,,,,,,0,00,99.99,,,,,,*48")
                == GGA(
                    talker: .gps, time: nil, latitude: nil, longitude: nil, quality: .invalid, satellitesUsed: 0,
                    hdop: fp(9999, 2), altitudeMeters: nil, geoidSeparationMeters: nil, differentialAgeSeconds: nil,
                    differentialStationID: nil))
    }

    @Test func emptyQualityIsNil() throws {
        let gga = try GGA(parsing: "$GNGGA,001043.00,,,,,,,,,,,,,*60")
        #expect(gga == GGA(talker: .gnss, time: .at(0, 10, 43, digits: 2), latitude: nil, longitude: nil, quality: nil))
        #expect(gga.quality?.hasFix == nil)
    }

    @Test(arguments: [
        ("0", GGAQuality.invalid, false), ("1", .gps, true), ("2", .differential, true), ("3", .pps, true),
        ("4", .rtkFixed, true), ("5", .rtkFloat, true), ("6", .estimated, true), ("7", .manual, true),
        ("8", .simulator, true), ("9", GGAQuality(rawValue: 9), true),
    ])
    func qualities(text: String, quality: GGAQuality, hasFix: Bool) throws {
        let gga = try GGA(parsing: replacingField(6, of: Self.textbook, with: text))
        #expect(gga.quality == quality)
        #expect(gga.quality?.hasFix == hasFix)
    }

    @Test func shortestAcceptedSentence() throws {
        // Six fields: up to the fix quality.
        #expect(
            try GGA(parsing: keepingFields(6, of: Self.textbook))
                == GGA(
                    talker: .gps, time: .at(12, 35, 19), latitude: fp(4_811_730_000, 8),
                    longitude: fp(1_151_666_667, 8),
                    quality: .gps))
    }

    @Test func numericTalker() throws {
        let gga = try GGA(parsing: withChecksum("$02GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(gga.talker == Talker("02"))
        #expect(gga.talker.system == nil)
        #expect(gga.latitude == fp(4_811_730, 5))
    }

    @Test(arguments: [
        (1, "2400", NMEAError.badField(index: 1, reason: .badLength)),
        (1, "240000", .badField(index: 1, reason: .outOfRange)),
        (2, "4807.038x", .badField(index: 2, reason: .notANumber)),
        (3, "X", .badField(index: 3, reason: .unexpectedCharacter)),
        (4, "18100.000", .badField(index: 4, reason: .outOfRange)),
        (5, "N", .badField(index: 5, reason: .unexpectedCharacter)),
        (6, "A", .badField(index: 6, reason: .notANumber)),
        (6, "10", .badField(index: 6, reason: .outOfRange)),
        (6, "-1", .badField(index: 6, reason: .outOfRange)),
        (6, "1x5", .badField(index: 6, reason: .notANumber)),
        (7, "100", .badField(index: 7, reason: .outOfRange)),
        (7, "8x5", .badField(index: 7, reason: .notANumber)),
        (8, "0.9x", .badField(index: 8, reason: .notANumber)),
        (9, "545.4.1", .badField(index: 9, reason: .notANumber)),
        (11, "--46.9", .badField(index: 11, reason: .notANumber)),
        (13, "x", .badField(index: 13, reason: .notANumber)),
        (14, "00A1", .badField(index: 14, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GGA(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    @Test func wholeNumberCountsWithATrailingPointAreAccepted() throws {
        #expect(try GGA(parsing: replacingField(7, of: Self.textbook, with: "08.")).satellitesUsed == 8)
        #expect(try GGA(parsing: replacingField(7, of: Self.textbook, with: "8.0")).satellitesUsed == 8)
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GGA.self, Self.textbook, keeping: 5)
        try expectCutShort(GGA.self, Self.textbook, keeping: 1)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try GGA(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gga, found: .rmc)) { try GGA(parsing: RMCTests.textbook) }
        #expect(throws: NMEAError.missingChecksum) {
            try GGA(parsing: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        }
    }
}
