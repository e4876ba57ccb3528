import Testing

@testable import NMEA

@Suite struct RMCTests {
    static let textbook = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    static let textbookRMC = RMC(
        talker: .gps, time: .at(12, 35, 19), isValid: true, latitude: fp(4_811_730_000, 8),
        longitude: fp(1_151_666_667, 8), speedKnots: fp(224, 1), courseDegrees: fp(844, 1),
        date: UTCDate(year: 1994, month: 3, day: 23), magneticVariationDegrees: fp(-31, 1), mode: nil,
        navigationalStatus: nil)
    /// u-blox M8 with NMEA 4.10: FAA mode and navigational status.
    static let nmea410 = "$GNRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A,V*33"

    @Test func textbookExample() throws {
        #expect(try RMC(parsing: Self.textbook) == Self.textbookRMC)
    }

    @Test func nmea410ModeAndNavigationalStatus() throws {
        let rmc = try RMC(parsing: Self.nmea410)
        #expect(
            rmc
                == RMC(
                    talker: .gnss, time: .at(8, 35, 59, digits: 2), isValid: true, latitude: fp(472_852_395_000, 10),
                    longitude: fp(85_652_536_667, 10), speedKnots: fp(4, 3), courseDegrees: fp(7752, 2),
                    date: UTCDate(year: 2002, month: 12, day: 9), magneticVariationDegrees: nil, mode: .autonomous,
                    navigationalStatus: .notValid))
        #expect(rmc.mode?.isValid == true)
    }

    @Test func southernAndWesternHemispheresAreNegative() throws {
        let rmc = try RMC(parsing: "$GPRMC,225446.33,A,3436.5000,S,05822.5000,W,000.5,054.7,191124,020.3,E,D*3F")
        #expect(
            rmc
                == RMC(
                    talker: .gps, time: .at(22, 54, 46, nanoseconds: 330_000_000, digits: 2), isValid: true,
                    latitude: fp(-34_608_333_333, 9), longitude: fp(-58_375_000_000, 9), speedKnots: fp(5, 1),
                    courseDegrees: fp(547, 1), date: UTCDate(year: 2024, month: 11, day: 19),
                    magneticVariationDegrees: fp(203, 1), mode: .differential, navigationalStatus: nil))
    }

    @Test func noFixLeavesEveryValueAbsentNotZero() throws {
        let rmc = try RMC(parsing: "$GPRMC,,V,,,,,,,,,,N*53")
        #expect(
            rmc
                == RMC(
                    talker: .gps, time: nil, isValid: false, latitude: nil, longitude: nil, speedKnots: nil,
                    courseDegrees: nil, date: nil, magneticVariationDegrees: nil, mode: .notValid,
                    navigationalStatus: nil))
        #expect(rmc.mode?.isValid == false)
    }

    @Test func timeAndDateWithoutAFix() throws {
        let rmc = try RMC(parsing: "$GNRMC,235959.00,V,,,,,,,311225,,,N,V*1E")
        #expect(rmc.time == .at(23, 59, 59, digits: 2))
        #expect(rmc.date == UTCDate(year: 2025, month: 12, day: 31))
        #expect(!rmc.isValid)
        #expect(rmc.latitude == nil)
        #expect(rmc.longitude == nil)
        #expect(rmc.speedKnots == nil)
    }

    @Test func rtkCoordinatesKeepEveryDigit() throws {
        let rmc = try RMC(parsing: "$GNRMC,092725.00,A,4717.11399833,N,00833.91590024,E,0.012,,281125,,,R,S*03")
        #expect(rmc.latitude == fp(472_852_333_055, 10))
        #expect(rmc.longitude == fp(85_652_650_040, 10))
        #expect(rmc.courseDegrees == nil)
        #expect(rmc.mode == .rtkFixed)
        #expect(rmc.navigationalStatus == .safe)
    }

    /// Unicore UM981 writes west longitudes with both a minus sign and `W`: still west, negative once.
    @Test func negativeLongitudeWrittenWithWestStaysNegative() throws {
        let rmc = try RMC(parsing: "$GNRMC,101010.00,A,4043.1234567,N,-07400.1234567,W,0.05,12.3,010125,,,A,V*06")
        #expect(rmc.latitude == fp(40_718_724_278_333, 12))
        #expect(rmc.longitude == fp(-74_002_057_611_667, 12))
    }

    @Test func lowerCaseChecksum() throws {
        let line = withChecksum(
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", lowercase: true)
        #expect(line.hasSuffix("*6a"))
        #expect(try RMC(parsing: line) == Self.textbookRMC)
    }

    @Test func lineEndingIsAccepted() throws {
        #expect(try RMC(parsing: Self.textbook + "\r\n") == Self.textbookRMC)
    }

    @Test(arguments: [
        ("A", FAAMode.autonomous), ("D", .differential), ("E", .estimated), ("F", .rtkFloat), ("M", .manual),
        ("N", .notValid), ("P", .precise), ("R", .rtkFixed), ("S", .simulator),
    ])
    func faaModes(letter: String, mode: FAAMode) throws {
        let rmc = try RMC(parsing: replacingField(12, of: Self.nmea410, with: letter))
        #expect(rmc.mode == mode)
        #expect(rmc.mode?.isValid == (letter != "N"))
    }

    @Test(arguments: [("S", NavigationalStatus.safe), ("C", .caution), ("U", .unsafe), ("V", .notValid)])
    func navigationalStatuses(letter: String, status: NavigationalStatus) throws {
        let rmc = try RMC(parsing: replacingField(13, of: Self.nmea410, with: letter))
        #expect(rmc.navigationalStatus == status)
    }

    /// Issue 12, item 10: a mode letter NMEA does not define is a typed field error (it was passed on as a mode).
    @Test func unknownModeLetterIsAFieldError() throws {
        let line = replacingField(12, of: Self.nmea410, with: "X")
        #expect(throws: NMEAError.badField(index: 12, reason: .unexpectedCharacter)) { try RMC(parsing: line) }
        var errors = FieldErrors()
        let rmc = try withSentence(line) { (sentence) throws(NMEAError) in try RMC(sentence, fieldErrors: &errors) }
        #expect(rmc.mode == nil && rmc.navigationalStatus == .notValid && rmc.speedKnots == fp(4, 3))
        #expect(Array(errors) == [.badField(index: 12, reason: .unexpectedCharacter)])
    }

    @Test func missingStatusMeansNotValid() throws {
        let rmc = try RMC(parsing: replacingField(2, of: Self.textbook, with: ""))
        #expect(!rmc.isValid)
        #expect(rmc.latitude == fp(4_811_730, 5))
    }

    @Test func leapSecond() throws {
        let rmc = try RMC(parsing: replacingField(1, of: Self.textbook, with: "235960"))
        #expect(rmc.time == .at(23, 59, 60))
    }

    @Test func twoDigitYearsAroundTheGPSEpoch() throws {
        #expect(
            try RMC(parsing: replacingField(9, of: Self.textbook, with: "060180")).date
                == UTCDate(year: 1980, month: 1, day: 6))
        #expect(
            try RMC(parsing: replacingField(9, of: Self.textbook, with: "311279")).date
                == UTCDate(year: 2079, month: 12, day: 31))
        #expect(
            try RMC(parsing: replacingField(9, of: Self.textbook, with: "290200")).date
                == UTCDate(year: 2000, month: 2, day: 29))
    }

    @Test func olderSentenceWithoutModeFields() throws {
        // NMEA 2.0: 11 fields, no mode. Only nine are required (the magnetic variation may be left off too).
        #expect(
            try RMC(parsing: keepingFields(9, of: Self.textbook))
                == RMC(
                    talker: .gps, time: .at(12, 35, 19), isValid: true, latitude: fp(4_811_730_000, 8),
                    longitude: fp(1_151_666_667, 8), speedKnots: fp(224, 1), courseDegrees: fp(844, 1),
                    date: UTCDate(year: 1994, month: 3, day: 23)))
    }

    @Test(arguments: [
        (1, "1235", NMEAError.badField(index: 1, reason: .badLength)),
        (1, "12351", .badField(index: 1, reason: .badLength)),
        (1, "243519", .badField(index: 1, reason: .outOfRange)),
        (1, "126019", .badField(index: 1, reason: .outOfRange)),
        (1, "123561", .badField(index: 1, reason: .outOfRange)),
        (1, "12a519", .badField(index: 1, reason: .notANumber)),
        (1, "123519.5x", .badField(index: 1, reason: .notANumber)),
        (2, "X", .badField(index: 2, reason: .unexpectedCharacter)),
        (2, "AV", .badField(index: 2, reason: .badLength)),
        (3, "4807.03.8", .badField(index: 3, reason: .notANumber)),
        (3, "48O7.038", .badField(index: 3, reason: .notANumber)),
        (3, "4860.000", .badField(index: 3, reason: .outOfRange)),
        (3, "9100.000", .badField(index: 3, reason: .outOfRange)),
        (3, "9000.001", .badField(index: 3, reason: .outOfRange)),
        (4, "E", .badField(index: 4, reason: .unexpectedCharacter)),
        (4, "n", .badField(index: 4, reason: .unexpectedCharacter)),
        (4, "NN", .badField(index: 4, reason: .badLength)),
        (5, "18000.001", .badField(index: 5, reason: .outOfRange)),
        (5, "01160.000", .badField(index: 5, reason: .outOfRange)),
        (6, "S", .badField(index: 6, reason: .unexpectedCharacter)),
        (7, "fast", .badField(index: 7, reason: .notANumber)),
        (7, ".", .badField(index: 7, reason: .notANumber)),
        (7, "1234567890123456789", .badField(index: 7, reason: .overflow)),
        (8, "84.4T", .badField(index: 8, reason: .notANumber)),
        (9, "23039", .badField(index: 9, reason: .badLength)),
        (9, "2303944", .badField(index: 9, reason: .badLength)),
        (9, "231394", .badField(index: 9, reason: .outOfRange)),
        (9, "000394", .badField(index: 9, reason: .outOfRange)),
        (9, "320394", .badField(index: 9, reason: .outOfRange)),
        (9, "23a394", .badField(index: 9, reason: .notANumber)),
        (10, "3.1.1", .badField(index: 10, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try RMC(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    @Test func malformedModeAndStatus() {
        #expect(throws: NMEAError.badField(index: 12, reason: .badLength)) {
            try RMC(parsing: replacingField(12, of: Self.nmea410, with: "AD"))
        }
        #expect(throws: NMEAError.badField(index: 13, reason: .badLength)) {
            try RMC(parsing: replacingField(13, of: Self.nmea410, with: "VV"))
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(RMC.self, Self.textbook, keeping: 8)
        try expectCutShort(RMC.self, Self.textbook, keeping: 4)
    }

    @Test func framingErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try RMC(parsing: bad) }
        #expect(mismatch == .checksumMismatch(calculated: 0x6A, found: 0x6B))
        #expect(throws: NMEAError.malformedChecksum) {
            try RMC(parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6G")
        }
        #expect(throws: NMEAError.missingChecksum) {
            try RMC(parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
        }
        #expect(throws: NMEAError.truncated) { try RMC(parsing: "") }
    }

    @Test func missingChecksumAcceptedWhenOptional() throws {
        let rmc = try RMC(
            parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", checksumPolicy: .optional)
        #expect(rmc == Self.textbookRMC)
    }

    @Test func wrongType() {
        #expect(throws: NMEAError.wrongType(expected: .rmc, found: .gga)) {
            try RMC(parsing: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        }
    }

    @Test func everyTalkerDecodes() throws {
        for talker in ["GP", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI", "GN", "02"] {
            let rmc = try RMC(
                parsing: withChecksum(
                    "$\(talker)RMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
            var expected = Self.textbookRMC
            expected.talker = Talker(talker)
            #expect(rmc == expected)
        }
    }
}
