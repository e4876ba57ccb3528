import Testing

@testable import NMEA

/// DPT, DBT, DBS and DBK. Field layouts from "NMEA Revealed" (gpsd.gitlab.io/gpsd/NMEA.html: DPT with the NMEA 3.0
/// range field, DBT, DBS, DBK) and gpsd's NMEA driver documentation; `$INDPT,2.3,0.0*46` and
/// `$SDDBT,7.8,f,2.4,M,1.3,F*0D` are that page's samples, the others real-looking sentences made for these tests.
@Suite struct DPTTests {
    static let example = "$SDDPT,2.4,-1.0,100*60"

    @Test func depthOffsetToTheKeelAndRange() throws {
        #expect(
            try DPT(parsing: Self.example)
                == DPT(talker: .depthSounder, depthMeters: fp(24, 1), offsetMeters: fp(-10, 1), maximumRangeMeters: 100)
        )
    }

    /// Before NMEA 3.0 there is no range field.
    @Test func withoutRange() throws {
        #expect(
            try DPT(parsing: "$INDPT,2.3,0.0*46")
                == DPT(talker: Talker("IN"), depthMeters: fp(23, 1), offsetMeters: fp(0, 1)))
        #expect(try DPT(parsing: withChecksum("$SDDPT,,,")).depthMeters == nil)
    }

    @Test func malformedFields() {
        for index in 1...3 {
            #expect(throws: NMEAError.badField(index: index, reason: .notANumber)) {
                try DPT(parsing: replacingField(index, of: Self.example, with: "1.2.3"))
            }
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try DPT(parsing: withChecksum("$SDDPT")) }
        #expect(throws: NMEAError.wrongType(expected: .dpt, found: .dbt)) { try DPT(parsing: DBTTests.example) }
    }
}

@Suite struct DBTTests {
    static let example = "$SDDBT,7.8,f,2.4,M,1.3,F*0D"

    @Test func allThreeUnits() throws {
        let dbt = try DBT(parsing: Self.example)
        #expect(
            dbt == DBT(talker: .depthSounder, depth: WaterDepth(feet: fp(78, 1), meters: fp(24, 1), fathoms: fp(13, 1)))
        )
        #expect(dbt.depth.bestMeters == 2.4)
    }

    /// Sounders that fill only one unit: the others absent, the metres derived from what is there.
    @Test func oneUnitOnly() throws {
        let feet = try DBT(parsing: withChecksum("$SDDBT,10.0,f,,M,,F"))
        #expect(feet.depth == WaterDepth(feet: fp(100, 1)))
        #expect(abs(feet.depth.bestMeters! - 3.048) < 1e-9)
        let fathoms = try DBT(parsing: withChecksum("$SDDBT,,f,,M,2.0,F"))
        #expect(abs(fathoms.depth.bestMeters! - 3.6576) < 1e-9)
        #expect(try DBT(parsing: withChecksum("$SDDBT,,,,,,")).depth.bestMeters == nil)
        // Cut short after the feet.
        #expect(try DBT(parsing: withChecksum("$SDDBT,7.8,f")).depth == WaterDepth(feet: fp(78, 1)))
    }

    @Test func malformedFields() {
        for index in [1, 3, 5] {
            #expect(throws: NMEAError.badField(index: index, reason: .notANumber)) {
                try DBT(parsing: replacingField(index, of: Self.example, with: "x"))
            }
        }
        for (index, wrong) in [(2, "F"), (4, "m"), (6, "f")] {
            #expect(throws: NMEAError.badField(index: index, reason: .unexpectedCharacter)) {
                try DBT(parsing: replacingField(index, of: Self.example, with: wrong))
            }
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try DBT(parsing: withChecksum("$SDDBT")) }
    }
}

@Suite struct DBSAndDBKTests {
    static let dbs = "$SDDBS,11.1,f,3.4,M,1.8,F*3E"
    static let dbk = "$SDDBK,4.5,f,1.4,M,0.7,F*1A"

    @Test func belowSurfaceAndBelowKeel() throws {
        #expect(try DBS(parsing: Self.dbs).depth == WaterDepth(feet: fp(111, 1), meters: fp(34, 1), fathoms: fp(18, 1)))
        #expect(try DBK(parsing: Self.dbk).depth == WaterDepth(feet: fp(45, 1), meters: fp(14, 1), fathoms: fp(7, 1)))
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 3, reason: .notANumber)) {
            try DBS(parsing: replacingField(3, of: Self.dbs, with: "3..4"))
        }
        #expect(throws: NMEAError.badField(index: 4, reason: .unexpectedCharacter)) {
            try DBK(parsing: replacingField(4, of: Self.dbk, with: "K"))
        }
        #expect(throws: NMEAError.wrongType(expected: .dbk, found: .dbs)) { try DBK(parsing: Self.dbs) }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try DBK(parsing: withChecksum("$SDDBK")) }
    }
}
