import Testing

@testable import NMEA

@Suite struct HDTTests {
    static let example = "$GPHDT,274.07,T*03"

    @Test func heading() throws {
        #expect(try HDT(parsing: Self.example) == HDT(talker: .gps, headingDegrees: fp(27407, 2)))
    }

    @Test func gyrocompassTalker() throws {
        let hdt = try HDT(parsing: "$HEHDT,359.99,T*10")
        #expect(hdt == HDT(talker: Talker("HE"), headingDegrees: fp(35999, 2)))
        #expect(hdt.talker.description == "HE")
    }

    @Test func emptyHeadingIsNil() throws {
        #expect(try HDT(parsing: "$GNHDT,,T*05") == HDT(talker: .gnss, headingDegrees: nil))
    }

    @Test func unitLetterMayBeLeftOff() throws {
        #expect(try HDT(parsing: "$GPHDT,90.0*74") == HDT(talker: .gps, headingDegrees: fp(900, 1)))
    }

    @Test func malformedHeading() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try HDT(parsing: replacingField(1, of: Self.example, with: "27a.07"))
        }
    }

    @Test func tooFewFields() {
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try HDT(parsing: withChecksum("$GPHDT")) }
    }

    @Test func framingAndTypeErrors() {
        #expect(throws: NMEAError.checksumMismatch(calculated: 0x03, found: 0x30)) {
            try HDT(parsing: "$GPHDT,274.07,T*30")
        }
        #expect(throws: NMEAError.wrongType(expected: .hdt, found: .ths)) { try HDT(parsing: THSTests.example) }
    }
}
