import Testing

@testable import NMEA

@Suite struct GSVTests {
    typealias Satellite = GSV.Satellite
    static let textbook = "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74"

    @Test func textbookExample() throws {
        #expect(
            try GSV(parsing: Self.textbook)
                == GSV(
                    talker: .gps, totalMessages: 3, messageNumber: 1, satellitesInView: 11,
                    satellites: [
                        Satellite(prn: 3, elevationDegrees: 3, azimuthDegrees: 111, snr: 0),
                        Satellite(prn: 4, elevationDegrees: 15, azimuthDegrees: 270, snr: 0),
                        Satellite(prn: 6, elevationDegrees: 1, azimuthDegrees: 10, snr: 0),
                        Satellite(prn: 13, elevationDegrees: 6, azimuthDegrees: 292, snr: 0),
                    ],
                    signalID: nil))
    }

    @Test func noSatellitesInView() throws {
        let gsv = try GSV(parsing: "$GPGSV,1,1,00*79")
        #expect(gsv == GSV(talker: .gps, totalMessages: 1, messageNumber: 1, satellitesInView: 0, satellites: []))
        #expect(gsv.satellites.isEmpty)
    }

    @Test func noSatellitesWithSignalID() throws {
        let gsv = try GSV(parsing: "$GPGSV,1,1,00,1*64")
        #expect(
            gsv
                == GSV(
                    talker: .gps, totalMessages: 1, messageNumber: 1, satellitesInView: 0, satellites: [], signalID: 1))
    }

    @Test func lastPartWithThreeSatellites() throws {
        #expect(
            try GSV(parsing: "$GPGSV,3,3,11,22,42,067,42,24,14,311,43,27,05,244,00*4D")
                == GSV(
                    talker: .gps, totalMessages: 3, messageNumber: 3, satellitesInView: 11,
                    satellites: [
                        Satellite(prn: 22, elevationDegrees: 42, azimuthDegrees: 67, snr: 42),
                        Satellite(prn: 24, elevationDegrees: 14, azimuthDegrees: 311, snr: 43),
                        Satellite(prn: 27, elevationDegrees: 5, azimuthDegrees: 244, snr: 0),
                    ]))
    }

    @Test func lastPartWithOneSatelliteAndSignalID() throws {
        #expect(
            try GSV(parsing: "$GLGSV,3,3,09,88,,,28,1*7B")
                == GSV(
                    talker: .glonass, totalMessages: 3, messageNumber: 3, satellitesInView: 9,
                    satellites: [Satellite(prn: 88, elevationDegrees: nil, azimuthDegrees: nil, snr: 28)], signalID: 1))
    }

    /// NMEA 4.10: the signal ID follows the last satellite; untracked satellites have an empty SNR (nil, not 0).
    @Test func nmea410SignalID() throws {
        #expect(
            try GSV(parsing: "$GAGSV,1,1,03,02,22,096,,08,17,037,,30,38,311,,7*4C")
                == GSV(
                    talker: .galileo, totalMessages: 1, messageNumber: 1, satellitesInView: 3,
                    satellites: [
                        Satellite(prn: 2, elevationDegrees: 22, azimuthDegrees: 96, snr: nil),
                        Satellite(prn: 8, elevationDegrees: 17, azimuthDegrees: 37, snr: nil),
                        Satellite(prn: 30, elevationDegrees: 38, azimuthDegrees: 311, snr: nil),
                    ],
                    signalID: 7))
    }

    @Test func fourSatellitesAndSignalID() throws {
        let gsv = try GSV(parsing: "$GPGSV,3,1,10,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45,1*60")
        #expect(
            Array(gsv.satellites) == [
                Satellite(prn: 1, elevationDegrees: 40, azimuthDegrees: 83, snr: 46),
                Satellite(prn: 2, elevationDegrees: 17, azimuthDegrees: 308, snr: 41),
                Satellite(prn: 12, elevationDegrees: 7, azimuthDegrees: 344, snr: 39),
                Satellite(prn: 14, elevationDegrees: 22, azimuthDegrees: 228, snr: 45),
            ])
        #expect(gsv.signalID == 1)
    }

    @Test func hexadecimalSignalID() throws {
        let gsv = try GSV(parsing: "$GBGSV,1,1,01,19,45,120,38,B*35")
        #expect(gsv.talker == .beidou)
        #expect(gsv.signalID == 11)
        #expect(Array(gsv.satellites) == [Satellite(prn: 19, elevationDegrees: 45, azimuthDegrees: 120, snr: 38)])
    }

    @Test func emptyTrailingSignalFieldIsNil() throws {
        let gsv = try GSV(parsing: "$GPGSV,1,1,01,05,40,083,46,*6C")
        #expect(gsv.signalID == nil)
        #expect(Array(gsv.satellites) == [Satellite(prn: 5, elevationDegrees: 40, azimuthDegrees: 83, snr: 46)])
    }

    @Test func blankPaddingSlotIsSkipped() throws {
        let gsv = try GSV(parsing: "$GPGSV,2,2,05,25,60,120,45,,,,*4F")
        #expect(Array(gsv.satellites) == [Satellite(prn: 25, elevationDegrees: 60, azimuthDegrees: 120, snr: 45)])
        #expect(gsv.signalID == nil)
    }

    @Test func extremesOfTheRanges() throws {
        let gsv = try GSV(parsing: "$GPGSV,1,1,03,05,-3,360,99,193,90,000,,210,-90,359,00*7E")
        #expect(
            Array(gsv.satellites) == [
                Satellite(prn: 5, elevationDegrees: -3, azimuthDegrees: 360, snr: 99),
                Satellite(prn: 193, elevationDegrees: 90, azimuthDegrees: 0, snr: nil),
                Satellite(prn: 210, elevationDegrees: -90, azimuthDegrees: 359, snr: 0),
            ])
    }

    /// Issue 25: an SNR keeps the decimals the receiver sent, beside whole ones and absent ones; a point alone after
    /// the digits is a whole number, more than two decimals round to two.
    @Test func decimalSNRs() throws {
        let gsv = try GSV(parsing: withChecksum("$GPGSV,1,1,04,05,40,083,24.5,12,07,344,39.25,14,22,228,,24,14,311,7."))
        #expect(
            gsv
                == GSV(
                    totalMessages: 1, messageNumber: 1, satellitesInView: 4,
                    satellites: [
                        Satellite(
                            prn: 5, elevationDegrees: 40, azimuthDegrees: 83, snr: SignalToNoise(hundredths: 2450)),
                        Satellite(
                            prn: 12, elevationDegrees: 7, azimuthDegrees: 344, snr: SignalToNoise(hundredths: 3925)),
                        Satellite(prn: 14, elevationDegrees: 22, azimuthDegrees: 228, snr: nil),
                        Satellite(prn: 24, elevationDegrees: 14, azimuthDegrees: 311, snr: 7),
                    ]))
        #expect(gsv.satellites.map { $0.snr?.description } == ["24.5", "39.25", nil, "7"])
        let rounded = try GSV(parsing: withChecksum("$GPGSV,1,1,01,05,40,083,24.125"))
        #expect(rounded.satellites.first?.snr == SignalToNoise(hundredths: 2413))
        let signal = try GSV(parsing: withChecksum("$GAGSV,1,1,01,02,22,096,33.5,7"))
        #expect(signal.satellites.first?.snr?.value == fp(335, 1) && signal.signalID == 7)
        // Out of range with decimals too; the other satellites are kept.
        var errors = FieldErrors()
        let high = try withSentence(withChecksum("$GPGSV,1,1,02,05,40,083,99.99,12,07,344,100.0")) {
            (sentence) throws(NMEAError) -> GSV in try GSV(sentence, fieldErrors: &errors)
        }
        #expect(high.satellites.map(\.snr) == [SignalToNoise(hundredths: 9999), nil])
        #expect(Array(errors) == [.badField(index: 11, reason: .outOfRange)])
    }

    @Test func signalToNoiseValue() {
        let snr = SignalToNoise(hundredths: 2450)
        #expect(
            snr.value == fp(245, 1) && snr.doubleValue == 24.5 && snr.wholeDecibels == 24 && snr.description == "24.5")
        #expect(SignalToNoise(38).value == fp(38, 0) && SignalToNoise(fp(3800, 2)) == 38 && SignalToNoise(0) < snr)
        #expect(SignalToNoise(fp(-1, 0)) == nil && SignalToNoise(fp(65536, 2)) == nil)
        #expect(SignalToNoise(fp(65535, 2))?.hundredths == 65535 && SignalToNoise(fp(24_555, 3))?.hundredths == 2456)
        #expect(SignalToNoise(24.5)?.hundredths == 2450 && SignalToNoise(33.3)?.hundredths == 3330)
        #expect(SignalToNoise(-0.5) == nil && SignalToNoise(Double.nan) == nil && SignalToNoise(655.36) == nil)
        #expect(MemoryLayout<SignalToNoise?>.size == 3 && MemoryLayout<SatelliteInView>.stride == 14)
    }

    @Test func moreThanFourSatellitesKeepsTheFirstFour() throws {
        let groups = (1...5).map { "\($0),10,100,30" }.joined(separator: ",")
        let gsv = try GSV(parsing: withChecksum("$GPGSV,1,1,05," + groups))
        #expect(gsv.satellites.map(\.prn) == [1, 2, 3, 4])
        #expect(gsv.signalID == nil)
    }

    @Test func everyTalker() throws {
        for (letters, talker) in [
            ("GP", Talker.gps), ("GL", .glonass), ("GA", .galileo), ("GB", .beidou), ("BD", .beidouLegacy),
            ("GQ", .qzss), ("QZ", .qzssLegacy), ("GI", .navic), ("GN", .gnss),
        ] {
            let gsv = try GSV(parsing: withChecksum("$\(letters)GSV,1,1,00"))
            #expect(gsv.talker == talker)
        }
    }

    @Test(arguments: [
        (1, "x", NMEAError.badField(index: 1, reason: .notANumber)),
        (1, "100", .badField(index: 1, reason: .outOfRange)),
        (2, "-1", .badField(index: 2, reason: .outOfRange)),
        (3, "1000", .badField(index: 3, reason: .outOfRange)),
        (4, "x3", .badField(index: 4, reason: .notANumber)),
        (4, "-1", .badField(index: 4, reason: .outOfRange)),
        (5, "91", .badField(index: 5, reason: .outOfRange)),
        (5, "-91", .badField(index: 5, reason: .outOfRange)),
        (6, "361", .badField(index: 6, reason: .outOfRange)),
        (7, "100", .badField(index: 7, reason: .outOfRange)),
        (7, "100.5", .badField(index: 7, reason: .outOfRange)),
        (7, "-0.5", .badField(index: 7, reason: .outOfRange)),
        (7, "4a", .badField(index: 7, reason: .notANumber)),
        (7, "24.5.1", .badField(index: 7, reason: .notANumber)),
        (18, "29x5", .badField(index: 18, reason: .notANumber)),
        (19, "x", .badField(index: 19, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GSV(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    @Test func malformedSignalID() {
        #expect(throws: NMEAError.badField(index: 16, reason: .notANumber)) {
            try GSV(parsing: withChecksum("$GAGSV,1,1,03,02,22,096,,08,17,037,,30,38,311,,G"))
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GSV.self, Self.textbook, keeping: 2)
    }

    @Test func framingAndTypeErrors() {
        #expect(throws: NMEAError.checksumMismatch(calculated: 0x79, found: 0x78)) {
            try GSV(parsing: "$GPGSV,1,1,00*78")
        }
        #expect(throws: NMEAError.wrongType(expected: .gsv, found: .gsa)) { try GSV(parsing: GSATests.textbook) }
    }
}
