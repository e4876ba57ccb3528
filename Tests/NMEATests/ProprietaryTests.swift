import Testing

@testable import NMEA

/// Garmin's `$PGRMT`, `$PGRMO` and `$PGRMW`. Layouts from Garmin's GPS 16/17 and GPS 15H/15L technical specifications
/// (PGRMT, PGRMO; the PGRMT example is made in their form) and the APRS wiki's `$PGRMW` page; the corpus `$PGRMT` is
/// gpsd's `garmin15x.log`.
@Suite struct GarminTests {
    static let pgrmt = "$PGRMT,GPS 16-HVS VER 3.20,P,P,R,R,P,,31,R*2D"
    static let pgrmo = "$PGRMO,GPGSV,0*22"
    static let pgrmw = "$PGRMW,N1CTF-3,45.7,0016,Home QTH*32"

    @Test func sensorStatus() throws {
        #expect(
            try PGRMT(parsing: Self.pgrmt)
                == PGRMT(
                    product: "GPS 16-HVS VER 3.20", romChecksumPassed: true, receiverPassed: true,
                    storedDataRetained: true, clockRetained: true, oscillatorPassed: true, isCollectingData: nil,
                    temperatureCelsius: fp(31, 0), configurationRetained: true))
        // Newer sensors send the version alone (the corpus's GPS 15x-W).
        #expect(
            try PGRMT(parsing: "$PGRMT,GPS 15x-W software ver. 4.20,,,,,,,,*6A")
                == PGRMT(product: "GPS 15x-W software ver. 4.20"))
        let failing = try PGRMT(parsing: withChecksum("$PGRMT,GPS 25LP VER 1.10,F,F,L,L,F,C,-5,L"))
        #expect(
            failing
                == PGRMT(
                    product: "GPS 25LP VER 1.10", romChecksumPassed: false, receiverPassed: false,
                    storedDataRetained: false, clockRetained: false, oscillatorPassed: false, isCollectingData: true,
                    temperatureCelsius: fp(-5, 0), configurationRetained: false))
    }

    @Test func outputSentenceEnable() throws {
        #expect(try PGRMO(parsing: Self.pgrmo) == PGRMO(targetSentence: "GPGSV", mode: ascii("0")))
        #expect(try PGRMO(parsing: withChecksum("$PGRMO,,3")) == PGRMO(targetSentence: "", mode: ascii("3")))
        #expect(try PGRMO(parsing: withChecksum("$PGRMO,,G")).mode == ascii("G"))
    }

    @Test func waypointInformation() throws {
        #expect(
            try PGRMW(parsing: Self.pgrmw)
                == PGRMW(waypoint: "N1CTF-3", altitudeMeters: fp(457, 1), symbol: 0x16, comment: "Home QTH"))
        #expect(
            try PGRMW(parsing: withChecksum("$PGRMW,003,,FFFF,"))
                == PGRMW(waypoint: "003", altitudeMeters: nil, symbol: 0xFFFF, comment: ""))
    }

    @Test(arguments: [
        (pgrmt, 2, "X", NMEAError.badField(index: 2, reason: .unexpectedCharacter)),
        (pgrmt, 4, "P", .badField(index: 4, reason: .unexpectedCharacter)),
        (pgrmt, 7, "Y", .badField(index: 7, reason: .unexpectedCharacter)),
        (pgrmt, 8, "3l", .badField(index: 8, reason: .notANumber)),
        (pgrmo, 2, "5", .badField(index: 2, reason: .unexpectedCharacter)),
        (pgrmo, 2, "01", .badField(index: 2, reason: .badLength)),
        (pgrmw, 2, "45.7m", .badField(index: 2, reason: .notANumber)),
        (pgrmw, 3, "10000", .badField(index: 3, reason: .outOfRange)),
        (pgrmw, 3, "00G6", .badField(index: 3, reason: .notANumber)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }

    @Test func dispatch() throws {
        #expect(try parsedKind(Self.pgrmt) == .pgrmt)
        #expect(try parsedKind(Self.pgrmo) == .pgrmo)
        #expect(try parsedKind(Self.pgrmw) == .pgrmw)
        #expect(try parsedKind(withChecksum("$PGRMV,0.0,0.0,0.0")) == nil)
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try PGRMW(parsing: withChecksum("$PGRMW")) }
    }
}

/// Kenwood's FleetSync and NXDN/DMR position reports and APRS waypoint. Layouts from go-nmea (`pklds.go`,
/// `pknds.go`, `pklsh.go`, `pknsh.go`, `pkwdwpl.go`: field ranges), pynmeagps (`nmeatypes_get_prop.py`) and Dire Wolf's
/// `waypoint.c` (`$PKWDWPL`); the examples are pynmeagps's `kenwood_nmea.log`, and go-nmea's for `$PKWDWPL`.
@Suite struct KenwoodTests {
    static let pklds = "$PKLDS,001235,A,3544.6650,N,13940.1900,E,015.0,038.8,110498,10.80,W00,100,2000,15,00,*7E"
    static let pknds = "$PKNDS,124640,A,4954.1458,N,11923.5992,W,000.0,000.0,120223,19.20,W00,U00002,207,00,*29"
    static let pklsh = "$PKLSH,4000.0000,N,13500.0000,E,021720,A,100,2000,*2C"
    static let pknsh = "$PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,*55"
    static let pkwdwpl = "$PKWDWPL,150803,A,4237.14,N,07120.83,W,173.8,231.8,190316,1120,test,/'*39"

    @Test func fleetSyncReport() throws {
        #expect(
            try PKLDS(parsing: Self.pklds)
                == PKLDS(
                    fix: KenwoodFix(
                        time: .at(0, 12, 35), isValid: true, latitude: fp(35_744_416_667, 9),
                        longitude: fp(139_669_833_333, 9), speedKnots: fp(150, 1), courseDegrees: fp(388, 1),
                        date: UTCDate(year: 1998, month: 4, day: 11)),
                    magneticVariationDegrees: fp(-1080, 2), sentenceVersion: 0, fleet: 100, unitID: 2000,
                    unitStatus: 15, reserved: 0))
        // go-nmea's example (its checksum corrected): no trailing empty field.
        let goNMEA = try PKLDS(
            parsing: "$PKLDS,220516,A,5133.82,N,00042.24,W,173.8,231.8,130694,004.2,W00,100,2000,25,00*4F")
        #expect(goNMEA.fix.longitude == fp(-7_040_000, 7) && goNMEA.magneticVariationDegrees == fp(-42, 1))
        #expect(goNMEA.unitStatus == 25)
        // East variation, a later sentence version.
        let east = try PKLDS(parsing: replacingField(11, of: Self.pklds, with: "E12"))
        #expect(east.magneticVariationDegrees == fp(1080, 2) && east.sentenceVersion == 12)
    }

    @Test func digitalRadioReport() throws {
        #expect(
            try PKNDS(parsing: Self.pknds)
                == PKNDS(
                    fix: KenwoodFix(
                        time: .at(12, 46, 40), isValid: true, latitude: fp(49_902_430_000, 9),
                        longitude: fp(-119_393_320_000, 9), speedKnots: fp(0, 1), courseDegrees: fp(0, 1),
                        date: UTCDate(year: 2023, month: 2, day: 12)),
                    magneticVariationDegrees: fp(-1920, 2), sentenceVersion: 0, unitID: 2, unitStatus: 207,
                    reserved: 0))
        // A DMR radio's eight-digit ID.
        #expect(try PKNDS(parsing: replacingField(12, of: Self.pknds, with: "U16776415")).unitID == 16_776_415)
    }

    @Test func shortReports() throws {
        #expect(
            try PKLSH(parsing: Self.pklsh)
                == PKLSH(fix: Self.shortFix, fleet: 100, unitID: 2000))
        #expect(
            try PKNSH(parsing: Self.pknsh)
                == PKNSH(fix: Self.shortFix, unitID: 1))
    }

    static let shortFix = KenwoodShortFix(
        latitude: fp(40_000_000_000, 9), longitude: fp(135_000_000_000, 9), time: .at(2, 17, 20), isValid: true)

    @Test func aprsWaypoint() throws {
        #expect(
            try PKWDWPL(parsing: Self.pkwdwpl)
                == PKWDWPL(
                    fix: KenwoodFix(
                        time: .at(15, 8, 3), isValid: true, latitude: fp(426_190_000, 7),
                        longitude: fp(-713_471_667, 7), speedKnots: fp(1738, 1), courseDegrees: fp(2318, 1),
                        date: UTCDate(year: 2016, month: 3, day: 19)),
                    altitudeMeters: fp(1120, 0), name: "test", symbol: "/'"))
        // pynmeagps's sample: no speed, course or altitude, and one field more than radios send (`test,5`): the
        // symbol field holds `5`, the extra one is not read.
        let pynmeagps = try PKWDWPL(
            parsing: "$PKWDWPL,150803,V,4237.14,N,07120.83,W,,,190316,,test,5,/'*30")
        #expect(pynmeagps.fix.isValid == false && pynmeagps.fix.speedKnots == nil && pynmeagps.altitudeMeters == nil)
        #expect(pynmeagps.name == "test" && pynmeagps.symbol == "5")
    }

    @Test(arguments: [
        (pklds, 2, "X", NMEAError.badField(index: 2, reason: .unexpectedCharacter)),
        (pklds, 10, "1o.80", .badField(index: 10, reason: .notANumber)),
        (pklds, 11, "X00", .badField(index: 11, reason: .unexpectedCharacter)),
        (pklds, 11, "W0a", .badField(index: 11, reason: .unexpectedCharacter)),
        (pklds, 12, "1000", .badField(index: 12, reason: .outOfRange)),
        (pknds, 12, "00002", .badField(index: 12, reason: .notANumber)),
        (pknds, 12, "U0000x", .badField(index: 12, reason: .notANumber)),
        (pknds, 13, "256", .badField(index: 13, reason: .outOfRange)),
        (pklsh, 6, "B", .badField(index: 6, reason: .unexpectedCharacter)),
        (pknsh, 7, "U", .badField(index: 7, reason: .notANumber)),
        (pkwdwpl, 9, "190d16", .badField(index: 9, reason: .notANumber)),
        (pkwdwpl, 10, "11k0", .badField(index: 10, reason: .notANumber)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }

    /// A bad direction-and-version field costs itself and the variation (whose sign it holds), nothing else.
    @Test func keepsTheFieldsThatRead() throws {
        var errors = FieldErrors()
        let pklds = try withSentence(replacingField(11, of: Self.pklds, with: "X00")) {
            (sentence) throws(NMEAError) -> PKLDS in try PKLDS(sentence, fieldErrors: &errors)
        }
        #expect(pklds.sentenceVersion == nil && pklds.magneticVariationDegrees == nil)
        #expect(pklds.fleet == 100 && pklds.fix.date == UTCDate(year: 1998, month: 4, day: 11))
        #expect(Array(errors) == [.badField(index: 11, reason: .unexpectedCharacter)])
    }

    @Test func emptyAndCutShort() throws {
        let empty = try PKNSH(parsing: withChecksum("$PKNSH,,,,,,,,"))
        #expect(
            empty == PKNSH(fix: KenwoodShortFix(latitude: nil, longitude: nil, time: nil, isValid: nil), unitID: nil))
        let short = try PKLDS(parsing: keepingFields(9, of: Self.pklds))
        #expect(short.fix.date == UTCDate(year: 1998, month: 4, day: 11) && short.magneticVariationDegrees == nil)
        #expect(short.fleet == nil && short.sentenceVersion == nil)
        for line in [Self.pklds, Self.pknds, Self.pklsh, Self.pknsh, Self.pkwdwpl] {
            let address = String(line.prefix { $0 != "," })
            #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try decodeStrictly(withChecksum(address)) }
        }
    }
}

/// MediaTek's `$PMTK001` and `$PMTK010`. Layouts from GlobalTop's PMTK command packet manual (PMTK_ACK, whose example
/// is `ack`) and a MediaTek-based module's NMEA manual (PMTK010); the corpus sentences are gpsd's `mtk-3301.log`,
/// `mtk-3329.log` and `quectel-L70.log`.
@Suite struct MediaTekTests {
    static let ack = "$PMTK001,604,3*32"
    static let system = "$PMTK010,001*2E"

    @Test func acknowledgement() throws {
        let ack = try PMTK001(parsing: Self.ack)
        #expect(ack == PMTK001(command: 604, flag: 3) && ack.succeeded)
        let unsupported = try PMTK001(parsing: "$PMTK001,604,1*30")
        #expect(unsupported == PMTK001(command: 604, flag: 1) && !unsupported.succeeded)
        #expect(try PMTK001(parsing: "$PMTK001,320,2*30") == PMTK001(command: 320, flag: 2))
        // Fields after the flag are not read.
        #expect(try PMTK001(parsing: withChecksum("$PMTK001,869,3,1")) == PMTK001(command: 869, flag: 3))
    }

    @Test func systemMessage() throws {
        let startup = try PMTK010(parsing: Self.system)
        #expect(startup == PMTK010(message: 1) && startup.isStartup)
        #expect(try PMTK010(parsing: withChecksum("$PMTK010,002")) == PMTK010(message: 2))
        #expect(try PMTK010(parsing: withChecksum("$PMTK010,")) == PMTK010(message: nil))
    }

    @Test func malformedAndOtherMessages() throws {
        #expect(throws: NMEAError.badField(index: 2, reason: .outOfRange)) {
            try PMTK001(parsing: replacingField(2, of: Self.ack, with: "4"))
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try PMTK001(parsing: replacingField(1, of: Self.ack, with: "PMTK604"))
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try PMTK010(parsing: replacingField(1, of: Self.system, with: "0x1"))
        }
        #expect(try parsedKind(Self.ack) == .pmtk001)
        #expect(try parsedKind(Self.system) == .pmtk010)
        for line in [
            "$PMTK011,MTKGPS*08", withChecksum("$PMTK705,AXN_1.30,29BF,MC-1513,"), withChecksum("$PMTK0010,1"),
        ] {
            #expect(try parsedKind(line) == nil, "\(line)")
        }
    }
}

/// Ashtech's `$PASHR,LTN` (issue 25). Layout from the Ashtech G12 and DG14/DG16 reference manuals (whose example is
/// `example`) and the ProFlex 800 and HDS800 reference manuals (whose example's checksum is corrected here).
@Suite struct AshtechLatencyTests {
    static let example = "$PASHR,LTN,29*05"

    @Test func latency() throws {
        #expect(try PASHRLTN(parsing: Self.example) == PASHRLTN(latencyMilliseconds: fp(29, 0)))
        // The ProFlex 800 manual prints this one with `*2C`.
        #expect(try PASHRLTN(parsing: "$PASHR,LTN,60*08") == PASHRLTN(latencyMilliseconds: fp(60, 0)))
        // pynmea2's, time-tagged RTK's long latency, and a fraction, kept as sent.
        #expect(try PASHRLTN(parsing: "$PASHR,LTN,3*3D") == PASHRLTN(latencyMilliseconds: fp(3, 0)))
        #expect(try PASHRLTN(parsing: withChecksum("$PASHR,LTN,10000")).latencyMilliseconds == fp(10000, 0))
        #expect(try PASHRLTN(parsing: withChecksum("$PASHR,LTN,27.5")) == PASHRLTN(latencyMilliseconds: fp(275, 1)))
        #expect(try PASHRLTN(parsing: withChecksum("$PASHR,LTN,")) == PASHRLTN(latencyMilliseconds: nil))
        #expect(try PASHRLTN(parsing: withChecksum("$PASHR,LTN")) == PASHRLTN(latencyMilliseconds: nil))
        #expect(try PASHRLTN(parsing: withChecksum("$PASHR,LTN,29,")) == PASHRLTN(latencyMilliseconds: fp(29, 0)))
    }

    /// One of Ashtech's worded `$PASHR` messages, beside the numbered attitude one: each to its own decoder, the
    /// others (and a `$PASHR,RLTN`, which pynmea2's and pynmeagps's name for this message, `ASHRLTN`, might suggest)
    /// unknown.
    @Test func toldApartFromTheOtherPASHRMessages() throws {
        #expect(try parsedKind(Self.example) == .pashrLTN)
        #expect(try parsedKind(PASHRTests.example) == .pashr)
        #expect(SentenceKind.pashrLTN.name == "PASHR,LTN")
        for line in [withChecksum("$PASHR,RLTN,29"), withChecksum("$PASHR,LTNX,29"), withChecksum("$PASHR,LT,29")] {
            #expect(try parsedKind(line) == nil, "\(line)")
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PASHRLTN(parsing: PASHRTests.example)
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PASHR(parsing: Self.example)
        }
    }

    @Test(arguments: [
        ("-5", NMEAError.badField(index: 2, reason: .outOfRange)),
        ("29ms", .badField(index: 2, reason: .notANumber)),
        ("2.9.1", .badField(index: 2, reason: .notANumber)),
    ])
    func malformedLatency(value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(2, of: Self.example, with: value)) }
        var errors = FieldErrors()
        let kept = try withSentence(replacingField(2, of: Self.example, with: value)) {
            (sentence) throws(NMEAError) -> PASHRLTN in try PASHRLTN(sentence, fieldErrors: &errors)
        }
        #expect(kept == PASHRLTN(latencyMilliseconds: nil) && Array(errors) == [error])
    }

    @Test func cutShortAndCorrupted() throws {
        try expectDecodesCutAfterEveryField(Self.example)
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PASHRLTN(parsing: bad) }
    }
}
