import Testing

@testable import NMEA

/// Attitude sentences: `$PASHR`, Furuno's `$PFEC,GPatt` and `$PFEC,GPhve`, `$PRDID`, and what they give the fix.
/// Layouts: `$PASHR` from NovAtel's OEM7 log reference (PASHR, whose example is `example`) and Trimble's receiver
/// help ("PASHR – proprietary roll and pitch sentence"), with gpsd's `driver_nmea0183.c` for telling it from
/// Ashtech's `$PASHR,POS`; `$PFEC` from Furuno's SC-120 manual (PFECatt) and Kongsberg's third-party datagram
/// pages (GPatt, GPhve); `$PRDID` from Applanix's POS MV guide ("$PRDID: attitude data") and QPS's PRDID driver
/// notes. Corpus sentences: gpsd's `rst39.log`, pynmeagps's `trimble_nmea.log` and `furuno_nmea.log`.
@Suite struct PASHRTests {
    static let example = "$PASHR,163029.000,158.09,T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1*3B"

    @Test func headingRollPitchHeave() throws {
        let pashr = try PASHR(parsing: Self.example)
        #expect(
            pashr
                == PASHR(
                    time: .at(16, 30, 29, digits: 3), headingDegrees: fp(15809, 2), isTrueHeading: true,
                    rollDegrees: fp(-30, 2), pitchDegrees: fp(31, 2), heaveMeters: fp(1, 2),
                    rollAccuracyDegrees: fp(29, 3), pitchAccuracyDegrees: fp(29, 3), headingAccuracyDegrees: fp(59, 3),
                    gnssQuality: 1, insStatus: 1))
        #expect(pashr.trueHeadingDegrees == fp(15809, 2))
    }

    /// Trimble leaves the heave empty (reserved); an inertial system in the gpsd corpus sends it, 25 times a second.
    @Test func fromTheCorpus() throws {
        let trimble = try PASHR(parsing: "$PASHR,142509.000,179.885,T,-0.624,0.245,,0.029,0.029,0.502,2,3*17")
        #expect(trimble.heaveMeters == nil && trimble.headingDegrees == fp(179_885, 3) && trimble.insStatus == 3)
        let rst39 = try PASHR(parsing: "$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,0*03")
        #expect(rst39.rollDegrees == fp(39, 2) && rst39.pitchDegrees == fp(-79, 2) && rst39.heaveMeters == fp(-84, 2))
        #expect(rst39.gnssQuality == 1 && rst39.insStatus == 0)
    }

    /// Older NovAtel firmware ends before the INS status; without `T` the heading is not a true one.
    @Test func shorterAndNotTrue() throws {
        let old = try PASHR(parsing: keepingFields(10, of: Self.example))
        #expect(old.gnssQuality == 1 && old.insStatus == nil)
        let notTrue = try PASHR(parsing: replacingField(3, of: Self.example, with: ""))
        #expect(!notTrue.isTrueHeading && notTrue.trueHeadingDegrees == nil && notTrue.headingDegrees == fp(15809, 2))
        let empty = try PASHR(parsing: withChecksum("$PASHR,,,,,,,,,,,"))
        #expect(
            empty == PASHR(time: nil, headingDegrees: nil, isTrueHeading: false, rollDegrees: nil, pitchDegrees: nil))
    }

    /// The attitude message is the `$PASHR` whose first field is a number (or empty); Ashtech's own `$PASHR`
    /// messages begin with a word and stay unknown (as gpsd tells them apart).
    @Test func toldApartFromAshtechMessages() throws {
        #expect(try parsedKind(Self.example) == .pashr)
        #expect(try parsedKind(withChecksum("$PASHR,,158.09,T,-0.30,+0.31,,,,,1,1")) == .pashr)
        for line in [
            "$PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+000.0,2.2,2.2,0.0,1.0,BQ00*20",
            "$PASHR,SAT,03,28,139,38,46,U,10,193,17,50,U,02,274,55,50,U*53", "$PASHR,XMG,12,Solution valid*4A",
            withChecksum("$PASHR,ATT,162134.00,158.09,+0.31,-0.30,0.0023,0.0149,0"), withChecksum("$PASHR"),
        ] {
            #expect(try parsedKind(line) == nil, "\(line)")
        }
        #expect(SentenceKind.pashr.name == "PASHR" && SentenceKind.pashr.address.messageIDText == nil)
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PASHR(parsing: "$PASHR,XMG,12,Solution valid*4A")
        }
    }

    @Test(arguments: [
        (1, "250000.000", NMEAError.badField(index: 1, reason: .outOfRange)),
        (2, "15x.09", .badField(index: 2, reason: .notANumber)),
        (3, "M", .badField(index: 3, reason: .unexpectedCharacter)),
        (4, "-0.3-", .badField(index: 4, reason: .notANumber)),
        (6, "+0..01", .badField(index: 6, reason: .notANumber)),
        (10, "A", .badField(index: 10, reason: .notANumber)),
        (11, "100", .badField(index: 11, reason: .outOfRange)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: Self.example, with: value)) }
    }

    @Test func keepsTheFieldsThatRead() throws {
        var errors = FieldErrors()
        let pashr = try withSentence(replacingField(4, of: Self.example, with: "x")) {
            (sentence) throws(NMEAError) -> PASHR in try PASHR(sentence, fieldErrors: &errors)
        }
        #expect(pashr.rollDegrees == nil && pashr.pitchDegrees == fp(31, 2) && pashr.trueHeadingDegrees != nil)
        #expect(Array(errors) == [.badField(index: 4, reason: .notANumber)])
    }
}

@Suite struct PFECTests {
    static let attitude = "$PFEC,GPatt,262.5,+1.2,-0.6*48"
    static let heave = "$PFEC,GPhve,-0.125,A*14"

    @Test func attitudeAndHeave() throws {
        #expect(
            try PFECAttitude(parsing: Self.attitude)
                == PFECAttitude(headingDegrees: fp(2625, 1), pitchDegrees: fp(12, 1), rollDegrees: fp(-6, 1)))
        #expect(try PFECHeave(parsing: Self.heave) == PFECHeave(heaveMeters: fp(-125, 3), isValid: true))
        // pynmeagps's samples: one more, empty, field after the roll.
        #expect(
            try PFECAttitude(parsing: "$PFEC,GPatt,12.345,23.456,34.567,*50")
                == PFECAttitude(headingDegrees: fp(12345, 3), pitchDegrees: fp(23456, 3), rollDegrees: fp(34567, 3)))
        #expect(try PFECHeave(parsing: "$PFEC,GPhve,12.345,A*0E").heaveMeters == fp(12345, 3))
        #expect(try PFECHeave(parsing: withChecksum("$PFEC,GPhve,,V")) == PFECHeave(heaveMeters: nil, isValid: false))
    }

    /// Furuno's other messages at the same address (the Saab R4's `AIcmd` in the gpsd corpus) stay unknown.
    @Test func dispatchByMessageID() throws {
        #expect(try parsedKind(Self.attitude) == .pfecAttitude)
        #expect(try parsedKind(Self.heave) == .pfecHeave)
        #expect(SentenceKind.pfecAttitude.name == "PFEC,GPatt" && SentenceKind.pfecHeave.name == "PFEC,GPhve")
        for line in [
            "$PFEC,AIcmd,0,35,A,01062011,130711*05", withChecksum("$PFEC,GPATT,262.5,+1.2,-0.6"),
            withChecksum("$PFEC,GPattitude,262.5"), withChecksum("$PFEC,GPwpl,4807.038,N,01131.000,E,1,1,,,"),
        ] {
            #expect(try parsedKind(line) == nil, "\(line)")
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PFECAttitude(parsing: Self.heave)
        }
    }

    @Test(arguments: [
        (attitude, 2, "26x.5", NMEAError.badField(index: 2, reason: .notANumber)),
        (attitude, 4, "--0.6", .badField(index: 4, reason: .notANumber)),
        (heave, 2, "0.1.2", .badField(index: 2, reason: .notANumber)),
        (heave, 3, "X", .badField(index: 3, reason: .unexpectedCharacter)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }
}

@Suite struct PRDIDTests {
    static let example = "$PRDID,-1.35,+0.82,187.45*7D"

    @Test func pitchRollHeading() throws {
        #expect(
            try PRDID(parsing: Self.example)
                == PRDID(pitchDegrees: fp(-135, 2), rollDegrees: fp(82, 2), headingDegrees: fp(18745, 2)))
        #expect(
            try PRDID(parsing: withChecksum("$PRDID,,,359.99"))
                == PRDID(pitchDegrees: nil, rollDegrees: nil, headingDegrees: fp(35999, 2)))
        #expect(try PRDID(parsing: keepingFields(2, of: Self.example)).headingDegrees == nil)
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try PRDID(parsing: replacingField(1, of: Self.example, with: "-1.3x5"))
        }
        #expect(throws: NMEAError.badField(index: 3, reason: .notANumber)) {
            try PRDID(parsing: replacingField(3, of: Self.example, with: "T"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try PRDID(parsing: withChecksum("$PRDID")) }
    }
}

/// What the attitude sentences give the fix: a true heading (as HDT's), pitch and roll, merged into the epoch in
/// progress without opening or closing epochs of their own.
@Suite struct AttitudeFixTests {

    static func gga(_ time: String) -> String {
        withChecksum("$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    }

    @Test func pashrGivesHeadingPitchAndRoll() {
        // An inertial system 25 times a second beside a 1 Hz receiver: two fixes, each with its epoch's last attitude.
        let attitude = { (time: String, heading: String) in
            withChecksum("$PASHR,\(time),\(heading),T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1")
        }
        let fixes = assembledFixes([
            Self.gga("120000.00"), attitude("120000.000", "158.09"), attitude("120000.040", "158.11"),
            Self.gga("120001.00"), attitude("120001.000", "158.20"),
        ])
        #expect(fixes.count == 2)
        #expect(fixes.map(\.headingDegrees) == [158.11, 158.20])
        #expect(fixes.allSatisfy { $0.pitchDegrees == 0.31 && $0.rollDegrees == -0.30 && $0.hasPosition })
    }

    @Test func headingOnlyWhenTrue() {
        let fix = assembledFixes([Self.gga("120000"), withChecksum("$PASHR,120000.000,158.09,,-0.30,+0.31,,,,,1,1")])
        #expect(fix.count == 1 && fix[0].headingDegrees == nil && fix[0].pitchDegrees == 0.31)
    }

    @Test func avrPrdidAndGPattToo() {
        let avr = assembledFixes([
            Self.gga("120000"), "$PTNL,AVR,212604.30,+52.1800,Yaw,,,-0.0807,Roll,12.579,3,1.4,16*21",
        ])
        #expect(avr[0].headingDegrees == 52.18 && avr[0].pitchDegrees == nil && avr[0].rollDegrees == -0.0807)
        // A yaw without a fix (quality 0) is not taken.
        let noFix = assembledFixes([Self.gga("120000"), replacingField(10, of: TrimbleTests.avr, with: "0")])
        #expect(noFix[0].headingDegrees == nil && noFix[0].pitchDegrees == nil)
        let prdid = assembledFixes([Self.gga("120000"), PRDIDTests.example])
        #expect(prdid[0].headingDegrees == 187.45 && prdid[0].pitchDegrees == -1.35 && prdid[0].rollDegrees == 0.82)
        let furuno = assembledFixes([Self.gga("120000"), PFECTests.attitude, PFECTests.heave])
        #expect(furuno[0].headingDegrees == 262.5 && furuno[0].pitchDegrees == 1.2 && furuno[0].rollDegrees == -0.6)
    }

    /// As with HDT and THS, the epoch's last true heading wins, whichever sentence sent it.
    @Test func lastTrueHeadingWins() {
        let fix = assembledFixes([Self.gga("120000"), PRDIDTests.example, withChecksum("$GPHDT,274.07,T")])
        #expect(fix[0].headingDegrees == 274.07 && fix[0].pitchDegrees == -1.35)
    }
}
