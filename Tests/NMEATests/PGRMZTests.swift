import Testing

@testable import NMEA

@Suite struct PGRMZTests {
    static let example = "$PGRMZ,246,f,3*1B"

    @Test func altitudeInFeet() throws {
        let pgrmz = try PGRMZ(parsing: Self.example)
        #expect(pgrmz == PGRMZ(altitude: fp(246, 0), unit: ascii("f"), fixDimension: 3))
        let meters = try #require(pgrmz.altitudeMeters)
        #expect(abs(meters - 74.9808) < 1e-9)
    }

    @Test func altitudeInMeters() throws {
        let pgrmz = try PGRMZ(parsing: "$PGRMZ,93.5,m,2*30")
        #expect(pgrmz == PGRMZ(altitude: fp(935, 1), unit: ascii("m"), fixDimension: 2))
        #expect(pgrmz.altitudeMeters == 93.5)
    }

    @Test func upperCaseFeetAndNegativeAltitude() throws {
        let pgrmz = try PGRMZ(parsing: "$PGRMZ,-10,F*38")
        #expect(pgrmz == PGRMZ(altitude: fp(-10, 0), unit: ascii("F"), fixDimension: nil))
        let meters = try #require(pgrmz.altitudeMeters)
        #expect(abs(meters - -3.048) < 1e-12)
    }

    @Test func emptyAltitudeIsNil() throws {
        let pgrmz = try PGRMZ(parsing: "$PGRMZ,,f,*18")
        #expect(pgrmz == PGRMZ(altitude: nil, unit: ascii("f"), fixDimension: nil))
        #expect(pgrmz.altitudeMeters == nil)
    }

    @Test(arguments: [
        (1, "246ft", NMEAError.badField(index: 1, reason: .notANumber)),
        (2, "ft", .badField(index: 2, reason: .badLength)),
        (3, "4", .badField(index: 3, reason: .outOfRange)),
        (3, "3D", .badField(index: 3, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try PGRMZ(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(PGRMZ.self, Self.example, keeping: 1)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PGRMZ(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .pgrmz, found: .pgrme)) { try PGRMZ(parsing: PGRMETests.example) }
    }
}
