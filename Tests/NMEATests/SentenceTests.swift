import Testing

@testable import NMEA

/// The `Sentence` view: address, talker, type, fields.
@Suite struct SentenceTests {
    @Test(arguments: [
        ("GP", Talker.gps, GNSSSystem.gps), ("GL", .glonass, .glonass), ("GA", .galileo, .galileo),
        ("GB", .beidou, .beidou), ("BD", .beidouLegacy, .beidou), ("GQ", .qzss, .qzss),
        ("QZ", .qzssLegacy, .qzss), ("GI", .navic, .navic),
    ])
    func singleSystemTalkers(letters: String, talker: Talker, system: GNSSSystem) throws {
        let found = try withSentence(withChecksum("$\(letters)GSV,1,1,00")) { $0.talker }
        #expect(found == talker)
        #expect(found == Talker(letters))
        #expect(found.description == letters)
        #expect(found.system == system)
    }

    @Test func combinedTalkerNamesNoSystem() throws {
        let talker = try withSentence(withChecksum("$GNGSA,A,1,,,,,,,,,,,,,,,")) { $0.talker }
        #expect(talker == .gnss)
        #expect(talker.system == nil)
    }

    /// NMEA 2000 gateways use numeric talkers.
    @Test func unknownNumericTalkerIsKept() throws {
        let (talker, type) = try withSentence(withChecksum("$02GGA,123519,,,,,0")) { ($0.talker, $0.type) }
        #expect(talker == Talker("02"))
        #expect(talker.rawValue == UInt16(UInt8(ascii: "0")) | UInt16(UInt8(ascii: "2")) << 8)
        #expect(talker.description == "02")
        #expect(talker.system == nil)
        #expect(type == .gga)
    }

    @Test func talkerPacking() {
        #expect(Talker("GP").rawValue == 0x5047)
        #expect(Talker("GPS") == .gps)
        #expect(Talker.proprietary.description == "P")
        #expect(Talker("").rawValue == 0)
    }

    @Test func sentenceTypePacking() {
        #expect(SentenceType("RMC") == .rmc)
        #expect(SentenceType("RMC").rawValue == 0x434D52)
        #expect(SentenceType("PUBX") == .pubx)
        #expect(SentenceType.pgrme.description == "PGRME")
        #expect(SentenceType("ABCDEFGHIJ").description == "ABCDEFGH")
        let all: [SentenceType] = [
            .rmc, .gga, .gsa, .gsv, .gll, .vtg, .zda, .gst, .gns, .gbs, .grs, .txt, .dtm, .hdt, .ths, .pubx, .pgrme,
            .pgrmz, .pgrmm,
        ]
        #expect(
            all.map(\.description) == [
                "RMC", "GGA", "GSA", "GSV", "GLL", "VTG", "ZDA", "GST", "GNS", "GBS", "GRS", "TXT", "DTM", "HDT", "THS",
                "PUBX", "PGRME", "PGRMZ", "PGRMM",
            ])
    }

    @Test func systemNames() {
        #expect(GNSSSystem.allCases.map(\.name) == ["GPS", "GLONASS", "Galileo", "BeiDou", "QZSS", "NavIC"])
        #expect(GNSSSystem.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
    }

    @Test func viewOfAStandardSentence() throws {
        try withSentence(RMCTests.textbook) { sentence in
            #expect(sentence.address.string == "GPRMC")
            #expect(sentence.talker == .gps)
            #expect(sentence.type == .rmc)
            #expect(sentence.checksum == 0x6A)
            #expect(!sentence.isEncapsulated)
            #expect(sentence.fieldCount == 11)
            #expect(
                sentence.fields.map(\.string) == [
                    "123519", "A", "4807.038", "N", "01131.000", "E", "022.4", "084.4", "230394", "003.1", "W",
                ])
            #expect(sentence.field(1)?.string == "123519")
            #expect(sentence.field(11)?.string == "W")
            #expect(sentence.field(12) == nil)
            #expect(sentence.field(0) == nil)
            #expect(
                String(decoding: sentence.bytes, as: UTF8.self)
                    == "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
        }
    }

    @Test func emptyFieldsAreCounted() throws {
        let line = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
        let fields = try fieldStrings(line)
        #expect(fields.count == 14)
        #expect(fields[12] == "" && fields[13] == "")
        #expect(try withSentence(line) { $0.field(13)?.isEmpty } == true)
    }

    @Test func addressAlone() throws {
        try withSentence(withChecksum("$GPRMC")) { sentence in
            #expect(sentence.address.string == "GPRMC")
            #expect(sentence.fieldCount == 0)
            #expect(sentence.fields.isEmpty)
            #expect(sentence.field(1) == nil)
        }
    }

    @Test func trailingCommaIsOneEmptyField() throws {
        try withSentence(withChecksum("$GPXXX,")) { sentence in
            #expect(sentence.fieldCount == 1)
            #expect(sentence.fields.map(\.string) == [""])
            #expect(sentence.field(1)?.isEmpty == true)
        }
    }

    @Test func encapsulatedAIS() throws {
        let line = "!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0*5C"
        try withSentence(line) { sentence in
            #expect(sentence.isEncapsulated)
            #expect(sentence.talker == Talker("AI"))
            #expect(sentence.type == SentenceType("VDM"))
            #expect(sentence.fields.map(\.string) == ["1", "1", "", "B", "15M67FC000G?ufbE`FepT@3n00Sa", "0"])
        }
        #expect(try parsedKind(line) == nil)
    }

    @Test func proprietarySentence() throws {
        try withSentence("$PMTK001,604,3*32") { sentence in
            #expect(sentence.talker == .proprietary)
            #expect(sentence.type == SentenceType("PMTK001"))
            #expect(sentence.type.description == "PMTK001")
            #expect(sentence.address.string == "PMTK001")
            #expect(sentence.fields.map(\.string) == ["604", "3"])
        }
    }

    @Test func longProprietaryAddressKeepsEightLetters() throws {
        let type = try withSentence(withChecksum("$PABCDEFGHIJ,1")) { $0.type }
        #expect(type.description == "PABCDEFG")
    }

    /// Quectel sends QZSS satellites as `$PQGSA`/`$PQGSV`: standard sentences from the talker `PQ`.
    @Test func quectelPQTalker() throws {
        for line in ["$PQGSA,A,3,193,194,195,,,,,,,,,,1.9,1.1,1.5,5*0B", "$PQGSV,1,1,01,193,60,120,40,1*79"] {
            let (talker, type) = try withSentence(line) { ($0.talker, $0.type) }
            #expect(talker == Talker("PQ"))
            #expect(type == (line.hasPrefix("$PQGSA") ? .gsa : .gsv))
        }
    }

    /// Garmin's `$PGRMC` (sensor configuration) is proprietary, although its last three letters spell RMC.
    @Test func garminPGRMCIsProprietaryNotRMC() throws {
        let line = "$PGRMC,A,218.8,100,6378137.000,298.257223563,0.0,0.0,0.0,A,3,1,1,4,30*72"
        let (talker, type) = try withSentence(line) { ($0.talker, $0.type) }
        #expect(talker == .proprietary)
        #expect(type == SentenceType("PGRMC"))
        #expect(try parsedKind(line) == nil)
        #expect(throws: NMEAError.wrongType(expected: .rmc, found: SentenceType("PGRMC"))) { try RMC(parsing: line) }
    }

    @Test func emptyAddressIsRejected() {
        #expect(throws: NMEAError.badAddress) { try withSentence(withChecksum("$,1,2")) { $0.fieldCount } }
        #expect(throws: NMEAError.badAddress) { try withSentence("$*00") { $0.fieldCount } }
        for text in ["$,1", "$"] {
            _ = Array(text.utf8).withUnsafeBytes { buffer in
                #expect(throws: NMEAError.badAddress) { try Sentence(unchecked: buffer, checksum: nil) }
            }
        }
    }

    @Test func uncheckedSentenceFromBytes() throws {
        let bytes = Array("$GPHDT,274.07,T".utf8)
        try bytes.withUnsafeBytes { buffer in
            let sentence = try Sentence(unchecked: buffer, checksum: nil, line: 7)
            #expect(sentence.line == 7)
            #expect(sentence.checksum == nil)
            #expect(try HDT(sentence) == HDT(talker: .gps, headingDegrees: fp(27407, 2)))
        }
    }

    @Test func missingChecksumUnderOptionalPolicy() throws {
        let checksum = try withSentence("$GPHDT,274.07,T", checksumPolicy: .optional) { $0.checksum }
        #expect(checksum == nil)
        #expect(throws: NMEAError.missingChecksum) { try withSentence("$GPHDT,274.07,T") { $0.checksum } }
    }

    @Test func lowerCaseChecksumDigits() throws {
        #expect(try withSentence("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6f") { $0.checksum } == 0x6F)
        #expect(try withSentence("$GPGSV,1,1,00*79") { $0.checksum } == 0x79)
    }

    @Test func errorDescriptions() {
        #expect(
            NMEAError.checksumMismatch(calculated: 0x6A, found: 0x0B).description
                == "checksum mismatch: calculated 6A, found 0B")
        #expect(NMEAError.missingChecksum.description == "missing checksum")
        #expect(NMEAError.overlong(limit: 82).description == "line longer than 82 characters")
        #expect(NMEAError.wrongType(expected: .rmc, found: .gga).description == "expected a RMC sentence, found GGA")
        #expect(
            NMEAError.tooFewFields(expected: 9, found: 4).description
                == "too few fields: expected 9, found 4")
        #expect(NMEAError.badField(index: 3, reason: .outOfRange).description == "field 3: out of range")
        #expect(FieldError.badLength.description == "wrong number of digits")
    }
}
