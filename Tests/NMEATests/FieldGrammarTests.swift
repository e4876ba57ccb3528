import Testing

@testable import NMEA

/// Issue 12, item 10: the field grammar, one class of input per test, each with members across the decoders.
/// "Decode what is there; reject only what is wrong; never lose a good field because of a bad neighbour."
@Suite struct FieldGrammarTests {
    /// `line` decoded as ``FixReader`` decodes it: the value, and the fields that did not read.
    static func keeping<S: DecodableSentence>(_ type: S.Type, _ line: String) throws -> (S, [NMEAError]) {
        try withSentence(line) { (sentence) throws(NMEAError) in
            var errors = FieldErrors()
            let value = try S(sentence, fieldErrors: &errors)
            return (value, Array(errors))
        }
    }

    // MARK: A decimal where a whole number is expected

    /// An SNR of `24.5` reads as 24.5 (issue 25: with its decimals; issue 12 had it truncated to 24, as gpsd's `atoi`
    /// reads it); the sentence keeps its four satellites. It was "not a number", which lost them all.
    @Test func decimalSNRKeepsTheSatellites() throws {
        let line = withChecksum("$GPGSV,3,1,11,03,03,111,24.5,04,15,270,00,06,01,010,00,13,06,292,29.0")
        let gsv = try GSV(parsing: line)
        #expect(
            gsv.satellites == [
                GSV.Satellite(prn: 3, elevationDegrees: 3, azimuthDegrees: 111, snr: SignalToNoise(hundredths: 2450)),
                GSV.Satellite(prn: 4, elevationDegrees: 15, azimuthDegrees: 270, snr: 0),
                GSV.Satellite(prn: 6, elevationDegrees: 1, azimuthDegrees: 10, snr: 0),
                GSV.Satellite(prn: 13, elevationDegrees: 6, azimuthDegrees: 292, snr: 29),
            ])
    }

    @Test func decimalsInOtherWholeNumberFields() throws {
        #expect(try GGA(parsing: replacingField(7, of: GGATests.textbook, with: "08.7")).satellitesUsed == 8)
        #expect(try GGA(parsing: replacingField(6, of: GGATests.textbook, with: "1.9")).quality == .gps)
        #expect(try GSA(parsing: replacingField(4, of: GSATests.textbook, with: "04.5")).satellites.first == 4)
        #expect(try GNS(parsing: replacingField(7, of: GNSTests.example, with: "14.2")).satellitesUsed == 14)
        #expect(try ZDA(parsing: replacingField(2, of: ZDATests.textbook, with: "04.0")).date?.day == 4)
        #expect(try TXT(parsing: replacingField(1, of: TXTTests.example, with: "1.0")).totalMessages == 1)
        // Still a number first: `1x` is not one.
        #expect(throws: NMEAError.badField(index: 7, reason: .notANumber)) {
            try GGA(parsing: replacingField(7, of: GGATests.textbook, with: "8x"))
        }
    }

    // MARK: A sentence cut short

    /// The VTG: speed 0 knots, its km/h (and mode) left off. It was "too few fields".
    @Test func vtgCutShortAfterItsKnots() throws {
        #expect(
            try VTG(parsing: "$GPVTG,,T,,M,0.00,N*1B")
                == VTG(
                    talker: .gps, courseTrueDegrees: nil, courseMagneticDegrees: nil, speedKnots: fp(0, 2),
                    speedKilometersPerHour: nil, mode: nil))
    }

    // MARK: A field holding spaces

    /// The GGA: its unused differential fields hold a space each. It was "not a number", losing the fix.
    @Test func unusedFieldsHoldingASpace() throws {
        let line = withChecksum("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M, , ")
        #expect(try GGA(parsing: line) == (try GGA(parsing: GGATests.textbook)))
    }

    /// Every kind of field — time, coordinate and hemisphere, letter, number, date, signed value, hexadecimal —
    /// reads a field of spaces as empty, and a value padded with spaces as that value.
    @Test func spacesInEveryKindOfField() throws {
        let spaces = withChecksum("$GNRMC, ,  , , , , , ,   , , , , , ")
        #expect(try RMC(parsing: spaces) == (try RMC(parsing: withChecksum("$GNRMC,,,,,,,,,,,,,"))))
        let padded = withChecksum(
            "$GNRMC, 083559.00,A ,4717.11437 , N,00833.91522,E , 0.004,77.52 , 091202,003.1 , W,A, V")
        let expected = replacingField(11, of: replacingField(10, of: RMCTests.nmea410, with: "003.1"), with: "W")
        #expect(try RMC(parsing: padded) == (try RMC(parsing: expected)))
        let gsa = withChecksum("$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47, 2 ")
        #expect(try GSA(parsing: gsa).systemID == 2)
    }

    // MARK: Indicator letters that are not among those defined

    /// Each is a typed field error — the field left out, the sentence's other fields kept — never passed on as if
    /// it meant something.
    static let badLetters: [(line: String, index: Int)] = [
        (withChecksum("$GPTHS,77.52,B"), 2),  // THS mode
        (replacingField(1, of: GSATests.textbook, with: "F"), 1),  // GSA selection
        (replacingField(6, of: GNSTests.example, with: "DAXA"), 6),  // GNS mode per system
        (replacingField(13, of: GNSTests.example, with: "X"), 13),  // GNS navigational status
        (withChecksum("$GPHDT,274.07,X"), 2),  // HDT's `T`
        (replacingField(2, of: PGRMETests.example, with: "F"), 2),  // PGRME units
        (replacingField(6, of: PGRMETests.example, with: "K"), 6),
        (replacingField(2, of: RMCTests.textbook, with: "X"), 2),  // RMC status
        (replacingField(11, of: RMCTests.textbook, with: "N"), 11),  // RMC variation direction
        (replacingField(12, of: RMCTests.nmea410, with: "X"), 12),  // RMC mode
        (replacingField(13, of: RMCTests.nmea410, with: "X"), 13),  // RMC navigational status
        (replacingField(6, of: GLLTests.textbook, with: "N"), 6),  // GLL status
        (replacingField(7, of: GLLTests.textbook, with: "X"), 7),  // GLL mode
        (replacingField(2, of: VTGTests.textbook, with: "X"), 2),  // VTG's `T`
        (replacingField(8, of: VTGTests.textbook, with: "M"), 8),  // VTG's `K`
        (replacingField(10, of: GGATests.textbook, with: "F"), 10),  // GGA altitude unit
        (replacingField(3, of: GGATests.textbook, with: "E"), 3),  // GGA hemisphere
        (replacingField(2, of: PGRMZTests.example, with: "x"), 2),  // PGRMZ unit
        (replacingField(8, of: PUBXPositionTests.example, with: "G9"), 8),  // PUBX,00 navigation status
        (replacingField(4, of: PUBXSatellitesTests.example, with: "X"), 4),  // PUBX,03 satellite status
    ]

    @Test(arguments: FieldGrammarTests.badLetters)
    func invalidIndicatorLetter(line: String, index: Int) throws {
        let error = NMEAError.badField(index: index, reason: .unexpectedCharacter)
        #expect(throws: error) { try parsedKind(line) }
        let (parsed, errors) = try withSentence(line) { (sentence) throws(NMEAError) in
            var errors = FieldErrors()
            let parsed = try ParsedSentence(sentence, fieldErrors: &errors)
            return ("\(parsed)", Array(errors))
        }
        #expect(errors == [error])
        #expect(!parsed.isEmpty)
    }

    /// The good neighbours of a bad letter are all there.
    @Test func goodFieldsBesideABadLetter() throws {
        let (ths, thsErrors) = try Self.keeping(THS.self, withChecksum("$GPTHS,77.52,B"))
        #expect(ths == THS(talker: .gps, headingDegrees: fp(7752, 2), mode: nil))
        #expect(thsErrors == [.badField(index: 2, reason: .unexpectedCharacter)])
        let (gsa, _) = try Self.keeping(GSA.self, replacingField(1, of: GSATests.textbook, with: "F"))
        var expectedGSA = try GSA(parsing: GSATests.textbook)
        expectedGSA.selectionMode = nil
        #expect(gsa == expectedGSA)
        let (hdt, _) = try Self.keeping(HDT.self, withChecksum("$GPHDT,274.07,X"))
        #expect(hdt.headingDegrees == fp(27407, 2))
        let (pgrme, _) = try Self.keeping(PGRME.self, replacingField(2, of: PGRMETests.example, with: "F"))
        #expect(pgrme == (try PGRME(parsing: PGRMETests.example)))
        let (gns, _) = try Self.keeping(GNS.self, replacingField(6, of: GNSTests.example, with: "DAXA"))
        var expectedGNS = try GNS(parsing: GNSTests.example)
        expectedGNS.modes = FixedList()
        #expect(gns == expectedGNS)
        // A hemisphere that is no hemisphere costs its coordinate only.
        let (gga, _) = try Self.keeping(GGA.self, replacingField(3, of: GGATests.textbook, with: "E"))
        var expectedGGA = try GGA(parsing: GGATests.textbook)
        expectedGGA.latitude = nil
        #expect(gga == expectedGGA)
    }

    /// Two bad fields are both listed, each with its number; the fields between them read.
    @Test func everyBadFieldIsListed() throws {
        let line = withChecksum("$GPRMC,123519,X,4807.038,N,01131.000,E,02x.4,084.4,230394,003.1,W")
        let (rmc, errors) = try Self.keeping(RMC.self, line)
        #expect(
            errors == [.badField(index: 2, reason: .unexpectedCharacter), .badField(index: 7, reason: .notANumber)])
        #expect(rmc.latitude == fp(4_811_730_000, 8) && rmc.courseDegrees == fp(844, 1) && rmc.speedKnots == nil)
    }

    // MARK: A proprietary address longer than eight letters

    /// `$PINVMSLOPE` keeps its whole address: it was cut to `PINVMSLO`. ``SentenceType`` packs eight letters (for
    /// dispatch); ``Sentence/typeName`` is a view of the whole address, without allocating.
    @Test func longProprietaryAddressIsKeptWhole() throws {
        let line = withChecksum("$PINVMSLOPE,1.2,3.4")
        let (name, type, kind) = try withSentence(line) { (sentence) throws(NMEAError) in
            (sentence.typeName.string, sentence.type, SentenceKind(sentence))
        }
        #expect(name == "PINVMSLOPE")
        #expect(type == SentenceType("PINVMSLO"))
        #expect(kind == nil)
        let standard = try withSentence(GGATests.textbook) { (sentence) throws(NMEAError) in sentence.typeName.string }
        #expect(standard == "GGA")
        let pubx = try withSentence(PUBXPositionTests.example) { (sentence) throws(NMEAError) in
            sentence.typeName.string
        }
        #expect(pubx == "PUBX")
    }
}
