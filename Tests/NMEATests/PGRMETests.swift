import Testing

@testable import NMEA

@Suite struct PGRMETests {
    static let example = "$PGRME,15.0,M,45.0,M,25.0,M*1C"

    @Test func estimatedErrors() throws {
        #expect(
            try PGRME(parsing: Self.example)
                == PGRME(
                    horizontalErrorMeters: fp(150, 1), verticalErrorMeters: fp(450, 1), sphericalErrorMeters: fp(250, 1)
                ))
    }

    @Test func isProprietary() throws {
        let (talker, type) = try withSentence(Self.example) { ($0.talker, $0.type) }
        #expect(talker == .proprietary)
        #expect(type == .pgrme)
        #expect(type.description == "PGRME")
    }

    @Test func emptyValuesAreNil() throws {
        #expect(
            try PGRME(parsing: "$PGRME,,M,,M,,M*00")
                == PGRME(
                    horizontalErrorMeters: nil, verticalErrorMeters: nil, sphericalErrorMeters: nil))
    }

    @Test func lastUnitMayBeLeftOff() throws {
        #expect(
            try PGRME(parsing: "$PGRME,3.2,M,5.1,M,6.0*4C")
                == PGRME(
                    horizontalErrorMeters: fp(32, 1), verticalErrorMeters: fp(51, 1), sphericalErrorMeters: fp(60, 1)))
    }

    @Test(arguments: [
        (1, "15.0M", NMEAError.badField(index: 1, reason: .notANumber)),
        (3, "4 5", .badField(index: 3, reason: .notANumber)),
        (5, "25..0", .badField(index: 5, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try PGRME(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(PGRME.self, Self.example, keeping: 4)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PGRME(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .pgrme, found: .pgrmz)) { try PGRME(parsing: PGRMZTests.example) }
    }
}
