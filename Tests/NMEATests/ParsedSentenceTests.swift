import Testing

@testable import NMEA

/// `ParsedSentence`: the dispatch from a sentence's type to its decoder.
@Suite struct ParsedSentenceTests {
    static let examples: [(String, SentenceKind, String)] = [
        (RMCTests.textbook, .rmc, "RMC"),
        (GGATests.textbook, .gga, "GGA"),
        (GSATests.textbook, .gsa, "GSA"),
        (GSVTests.textbook, .gsv, "GSV"),
        (GLLTests.textbook, .gll, "GLL"),
        (VTGTests.textbook, .vtg, "VTG"),
        (ZDATests.textbook, .zda, "ZDA"),
        (GSTTests.textbook, .gst, "GST"),
        (GNSTests.example, .gns, "GNS"),
        (GBSTests.example, .gbs, "GBS"),
        (GRSTests.example, .grs, "GRS"),
        (TXTTests.example, .txt, "TXT"),
        (DTMTests.wgs84, .dtm, "DTM"),
        (HDTTests.example, .hdt, "HDT"),
        (THSTests.example, .ths, "THS"),
        (PUBXPositionTests.example, .pubxPosition, "PUBX,00"),
        (PUBXSatellitesTests.example, .pubxSatellites, "PUBX,03"),
        (PUBXTimeTests.example, .pubxTime, "PUBX,04"),
        (PGRMETests.example, .pgrme, "PGRME"),
        (PGRMZTests.example, .pgrmz, "PGRMZ"),
        (PGRMMTests.example, .pgrmm, "PGRMM"),
        (HDGTests.example, .hdg, "HDG"),
        (HDMTests.example, .hdm, "HDM"),
        (ROTTests.example, .rot, "ROT"),
        (DPTTests.example, .dpt, "DPT"),
        (DBTTests.example, .dbt, "DBT"),
        (DBSAndDBKTests.dbs, .dbs, "DBS"),
        (DBSAndDBKTests.dbk, .dbk, "DBK"),
        (NavigationTests.wpl, .wpl, "WPL"),
        (NavigationTests.rte, .rte, "RTE"),
        (NavigationTests.rmb, .rmb, "RMB"),
        (NavigationTests.bwc, .bwc, "BWC"),
        (NavigationTests.bwr, .bwr, "BWR"),
        (NavigationTests.bww, .bww, "BWW"),
        (NavigationTests.bod, .bod, "BOD"),
        (NavigationTests.apb, .apb, "APB"),
        (NavigationTests.xte, .xte, "XTE"),
        (NavigationTests.aam, .aam, "AAM"),
        (MarineInstrumentTests.mwv, .mwv, "MWV"),
        (MarineInstrumentTests.mwd, .mwd, "MWD"),
        (MarineInstrumentTests.vwr, .vwr, "VWR"),
        (MarineInstrumentTests.vwt, .vwt, "VWT"),
        (MarineInstrumentTests.vhw, .vhw, "VHW"),
        (MarineInstrumentTests.vbw, .vbw, "VBW"),
        (MarineInstrumentTests.vlw, .vlw, "VLW"),
        (MarineInstrumentTests.vpw, .vpw, "VPW"),
        (MarineInstrumentTests.mtw, .mtw, "MTW"),
        (MarineInstrumentTests.mta, .mta, "MTA"),
        (MarineInstrumentTests.mda, .mda, "MDA"),
        (MarineInstrumentTests.xdr, .xdr, "XDR"),
        (MarineInstrumentTests.rpm, .rpm, "RPM"),
        (MarineInstrumentTests.rsa, .rsa, "RSA"),
        (AlarmTests.alr, .alr, "ALR"),
        (AlarmTests.alf, .alf, "ALF"),
        (AlarmTests.hbt, .hbt, "HBT"),
        (AlarmTests.ttm, .ttm, "TTM"),
        (AlarmTests.tll, .tll, "TLL"),
        (TrimbleTests.ggk, .ptnlGGK, "PTNL,GGK"),
        (TrimbleTests.avr, .ptnlAVR, "PTNL,AVR"),
        (TrimbleTests.pjk, .ptnlPJK, "PTNL,PJK"),
        (TrimbleTests.vgk, .ptnlVGK, "PTNL,VGK"),
        (TrimbleTests.vhd, .ptnlVHD, "PTNL,VHD"),
        (PASHRTests.example, .pashr, "PASHR"),
        (PFECTests.attitude, .pfecAttitude, "PFEC,GPatt"),
        (PFECTests.heave, .pfecHeave, "PFEC,GPhve"),
        (PRDIDTests.example, .prdid, "PRDID"),
        (GarminTests.pgrmt, .pgrmt, "PGRMT"),
        (GarminTests.pgrmo, .pgrmo, "PGRMO"),
        (GarminTests.pgrmw, .pgrmw, "PGRMW"),
        (KenwoodTests.pklds, .pklds, "PKLDS"),
        (KenwoodTests.pklsh, .pklsh, "PKLSH"),
        (KenwoodTests.pknds, .pknds, "PKNDS"),
        (KenwoodTests.pknsh, .pknsh, "PKNSH"),
        (KenwoodTests.pkwdwpl, .pkwdwpl, "PKWDWPL"),
        (MediaTekTests.ack, .pmtk001, "PMTK001"),
        (MediaTekTests.system, .pmtk010, "PMTK010"),
        (SecondaryAntennaTests.ggah, .ggah, "GGAH"),
        ("$GNGLLH,4004.73814597,N,11614.19908275,E,054501.00,A,D*37", .gllh, "GLLH"),
        ("$GNGNSH,074444.00,4004.73864213,N,11614.19082153,E,ANAAA,28,0.7,64.6536,8.4925,,,S*25", .gnsh, "GNSH"),
        ("$GNGSTH,055543.00,0.45,0.01,0.01,127.6430,0.010,0.010,0.019*0F", .gsth, "GSTH"),
        ("$GNGSAH,M,3,01,04,09,19,21,31,,,,,,,1.1,0.6,0.9,3*7D", .gsah, "GSAH"),
        ("$GPGSVH,2,1,08,16,28,217,38,32,39,140,45,03,29,290,32,31,66,033,50,1*2F", .gsvh, "GSVH"),
        (SecondaryAntennaTests.rmch, .rmch, "RMCH"),
        ("$GNVTGH,113.125,T,120.041,M,0.01474,N,0.02730,K,D*73", .vtgh, "VTGH"),
        ("$GNGRSH,055209.00,0,0.0,0.8,0.1,,0.1,2.2,0.2,,,,,,1,1*18", .grsh, "GRSH"),
        // Issue 25 (after the others: `ExpectedDecodings.samples` is in this order).
        (TrimbleTests.bpq, .ptnlBPQ, "PTNL,BPQ"),
        (TrimbleTests.pjt, .ptnlPJT, "PTNL,PJT"),
        (TrimbleTests.dgBeacon, .ptnlDG, "PTNLDG"),
        (AshtechLatencyTests.example, .pashrLTN, "PASHR,LTN"),
    ]

    /// A `ParsedSentence` is as large as its largest case, XDR's (its measurements inline; 281 bytes, the tag in its
    /// spare bits): the proprietary types of issue 25 (`$PTNL,PJT`'s two texts the largest) and the GSV with decimal
    /// SNRs are smaller, so they did not grow it.
    @Test func sizeIsTheLargestCase() {
        #expect(MemoryLayout<ParsedSentence>.size == MemoryLayout<XDR>.size)
        #expect(MemoryLayout<PTNLPJT>.size < MemoryLayout<XDR>.size && MemoryLayout<GSV>.size < MemoryLayout<XDR>.size)
    }

    @Test func everyKindHasAnExample() {
        #expect(Set(Self.examples.map(\.1)) == Set(SentenceKind.allCases))
    }

    @Test(arguments: examples)
    func dispatch(line: String, kind: SentenceKind, name: String) throws {
        #expect(try parsedKind(line) == kind)
        #expect(kind.name == name)
        #expect(try withSentence(line) { SentenceKind($0) } == kind)
    }

    @Test func decodedValueIsTheDecoders() throws {
        let parsed = try withSentence(RMCTests.textbook) { (sentence) throws(NMEAError) -> RMC? in
            guard case .rmc(let rmc) = try ParsedSentence(sentence) else { return nil }
            return rmc
        }
        #expect(parsed == RMCTests.textbookRMC)
    }

    /// A type no decoder reads comes back with its address and fields kept, which can still be read.
    @Test func unknownStandardTypeKeepsItsFields() throws {
        let fields = try withSentence("$GPZFO,A,A,0.67,L,N*75") { (sentence) throws(NMEAError) -> [String]? in
            guard case .unknown(let unknown) = try ParsedSentence(sentence) else { return nil }
            #expect(unknown.talker == .gps)
            #expect(unknown.type == SentenceType("ZFO"))
            try unknown.withSentence { (sentence) throws(NMEAError) in
                var reader = sentence.fieldReader
                #expect(reader.character() == UInt8(ascii: "A"))
                #expect(reader.character() == UInt8(ascii: "A"))
                #expect(reader.fixedPoint() == fp(67, 2))
            }
            return unknown.fields
        }
        #expect(fields == ["A", "A", "0.67", "L", "N"])
    }

    @Test func unknownProprietaryType() throws {
        let result = try withSentence("$PMTK011,MTKGPS*08") {
            (sentence) throws(NMEAError) -> (Talker, String, [String])? in
            guard case .unknown(let unknown) = try ParsedSentence(sentence) else { return nil }
            return (unknown.talker, unknown.type.description, unknown.fields)
        }
        let (talker, type, fields) = try #require(result)
        #expect(talker == .proprietary)
        #expect(type == "PMTK011")
        #expect(fields == ["MTKGPS"])
    }

    @Test(arguments: [
        "$PUBX,40,GLL,0,0,0,0,0,0*5C",  // a u-blox rate command
        "$PUBX,41,1,0007,0003,19200,0*25",
        "$PUBX,0*03",
        "$PUBX*1F",
        "$PUBX,*33",
        "$PUBX,05*36",
        "$PGRMV,0.0,0.0,0.0*5C",
        "$PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+000.0,2.2,2.2,0.0,1.0,BQ00*20",
        "$PUBX,001,1*1F",
        "$GPZFO,A,A,0.67,L,N*75",
        "$IIVDR,10.1,T,12.6,M,0.5,N*39",
    ])
    func unknownSentences(line: String) throws {
        #expect(try parsedKind(line) == nil)
    }

    @Test func quectelPQGSADecodesAsGSA() throws {
        #expect(try parsedKind("$PQGSA,A,3,193,194,195,,,,,,,,,,1.9,1.1,1.5,5*0B") == .gsa)
    }

    @Test func decoderErrorsPropagate() {
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try parsedKind(replacingField(2, of: RMCTests.textbook, with: "X"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) {
            try parsedKind(keepingFields(0, of: GGATests.textbook))
        }
        #expect(throws: NMEAError.badField(index: 8, reason: .unexpectedCharacter)) {
            try parsedKind(replacingField(8, of: PUBXPositionTests.example, with: "G4"))
        }
    }

    @Test func decoderStatistics() throws {
        var statistics = DecoderStatistics()
        for (line, _, _) in Self.examples + [(RMCTests.textbook, .rmc, "RMC")] {
            try withSentence(line) { (sentence) throws(NMEAError) in statistics.record(try ParsedSentence(sentence)) }
        }
        try withSentence("$PMTK011,MTKGPS*08") { (sentence) throws(NMEAError) in
            statistics.record(try ParsedSentence(sentence))
        }
        statistics.recordFailure()
        #expect(statistics[.rmc] == 2)
        #expect(statistics[.gga] == 1)
        #expect(statistics[.pgrmm] == 1)
        #expect(statistics.totalDecoded == Self.examples.count + 1)
        #expect(statistics.unknown == 1)
        #expect(statistics.failed == 1)
        let doubled = statistics + statistics
        #expect(doubled[.rmc] == 4)
        #expect(doubled.totalDecoded == 2 * (Self.examples.count + 1))
        #expect(doubled.unknown == 2)
        #expect(doubled.failed == 2)
        #expect(DecoderStatistics().totalDecoded == 0)
    }
}
