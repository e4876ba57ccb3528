import Testing

@testable import NMEA

@Suite struct THSTests {
    static let example = "$GPTHS,77.52,E*34"

    @Test func estimatedHeading() throws {
        let ths = try THS(parsing: Self.example)
        #expect(ths == THS(talker: .gps, headingDegrees: fp(7752, 2), mode: .estimated))
        #expect(ths.isValid)
    }

    @Test func autonomousHeading() throws {
        let ths = try THS(parsing: "$GNTHS,341.3344,A*1F")
        #expect(ths == THS(talker: .gnss, headingDegrees: fp(3_413_344, 4), mode: .autonomous))
        #expect(ths.isValid)
    }

    @Test func notValid() throws {
        let ths = try THS(parsing: "$GNTHS,,V*10")
        #expect(ths == THS(talker: .gnss, headingDegrees: nil, mode: FAAMode(rawValue: UInt8(ascii: "V"))))
        #expect(!ths.isValid)
    }

    @Test func emptyMode() throws {
        let ths = try THS(parsing: "$GPTHS,12.5,*40")
        #expect(ths == THS(talker: .gps, headingDegrees: fp(125, 1), mode: nil))
        #expect(ths.isValid)
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try THS(parsing: replacingField(1, of: Self.example, with: "77.52E"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .badLength)) {
            try THS(parsing: replacingField(2, of: Self.example, with: "AE"))
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(THS.self, Self.example, keeping: 1)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try THS(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .ths, found: .hdt)) { try THS(parsing: HDTTests.example) }
    }
}
