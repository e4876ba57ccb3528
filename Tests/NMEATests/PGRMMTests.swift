import Testing

@testable import NMEA

@Suite struct PGRMMTests {
    static let example = "$PGRMM,WGS 84*06"

    @Test func datumName() throws {
        let pgrmm = try PGRMM(parsing: Self.example)
        #expect(pgrmm == PGRMM(datum: "WGS 84"))
        #expect(pgrmm.datum.string == "WGS 84")
    }

    @Test func otherDatum() throws {
        #expect(try PGRMM(parsing: "$PGRMM,NAD27 Canada*2F") == PGRMM(datum: "NAD27 Canada"))
    }

    @Test func emptyDatum() throws {
        let pgrmm = try PGRMM(parsing: "$PGRMM,*69")
        #expect(pgrmm.datum.isEmpty)
    }

    @Test func tooFewFields() {
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try PGRMM(parsing: withChecksum("$PGRMM")) }
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PGRMM(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .pgrmm, found: .pgrme)) { try PGRMM(parsing: PGRMETests.example) }
    }
}
