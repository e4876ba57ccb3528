import Testing

@testable import NMEA

/// `ParsedSentence(parsing:)`: one line of any type, from text, a literal or bytes, into a value that owns everything.
@Suite struct OneCallParsingTests {
    @Test func fromStringStaticStringAndBytes() throws {
        let fromString = try ParsedSentence(parsing: String(RMCTests.textbook))
        guard case .rmc(let rmc) = fromString else {
            Issue.record("\(fromString)")
            return
        }
        #expect(rmc == RMCTests.textbookRMC)

        let fromLiteral = try ParsedSentence(
            parsing: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        guard case .gga(let gga) = fromLiteral else {
            Issue.record("\(fromLiteral)")
            return
        }
        #expect(gga.latitude == fp(48_117_300, 6))
        #expect(gga.satellitesUsed == 8)

        let bytes = Array("$GPHDT,274.07,T*03\r\n".utf8)
        guard case .hdt(let hdt) = try ParsedSentence(parsing: bytes) else {
            Issue.record("HDT")
            return
        }
        #expect(hdt.headingDegrees == fp(27407, 2))
        let fromBuffer = try bytes.withUnsafeBytes { (raw) throws(NMEAError) in try ParsedSentence(parsing: raw) }
        guard case .hdt(let same) = fromBuffer else {
            Issue.record("HDT")
            return
        }
        #expect(same == hdt)
    }

    /// An unknown type keeps its address and fields: the value outlives the line it came from.
    @Test func unknownTypeIsOwned() throws {
        var line = "$PINV,17,ON"
        line = checksummed(line)
        let parsed = try ParsedSentence(parsing: line)
        line = "$GPXXX,overwritten*00"
        guard case .unknown(let unknown) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(unknown.address == "PINV")
        #expect(unknown.talker == .proprietary)
        #expect(unknown.type == SentenceType("PINV"))
        #expect(unknown.fieldCount == 2)
        #expect(unknown.fields == ["17", "ON"])
        #expect(!unknown.isTruncated)
        let first = try unknown.withSentence { (sentence) throws(NMEAError) in
            var fields = sentence.fieldReader
            return fields.integer(in: 0...99)
        }
        #expect(first == 17)
        #expect(MemoryLayout<UnknownSentence>.size <= 128)
    }

    /// `$PUBX,03` reads its satellites from the line as they are iterated: from a line parsed in one call, which is
    /// gone once the call returns, it comes back as an unknown sentence, decoded inside `withSentence`, and cut at
    /// ``UnknownSentence/capacity`` bytes: a long list loses its last satellites (issue 27's note).
    @Test func pubxSatellitesFromOneLineIsKeptWhole() throws {
        let parsed = try ParsedSentence(parsing: PUBXSatellites.sample)
        guard case .unknown(let kept) = parsed else {
            Issue.record("\(parsed)")
            return
        }
        #expect(kept.address == "PUBX")
        let ids = try kept.withSentence { (sentence) throws(NMEAError) in
            try PUBXSatellites(sentence).satellites.map(\.id)
        }
        // The sample is 206 bytes: the first 96 are kept (the limit of an unknown sentence), six satellites.
        #expect(kept.isTruncated && kept.count == UnknownSentence.capacity)
        #expect(ids == [23, 29, 7, 8, 10, 18])
    }

    @Test func typedErrors() {
        #expect(throws: NMEAError.checksumMismatch(calculated: 0x6A, found: 0x6B)) {
            try ParsedSentence(parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B")
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try ParsedSentence(
                parsing: checksummed("$GPRMC,123519,X,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
        }
        // Typed: the error is an NMEAError, caught without a cast.
        do {
            _ = try ParsedSentence(parsing: "no sentence here")
            Issue.record("parsed")
        } catch {
            #expect(error == .truncated)
        }
    }
}
