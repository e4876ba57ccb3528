import Testing

@testable import NMEA

/// HDG, HDM and ROT. Field layouts from "NMEA Revealed" (gpsd.gitlab.io/gpsd/NMEA.html: HDG, HDM, ROT) and the
/// NMEA 0183 4.11 sentence list as summarised there; the HDG sample is that page's, the others are real-looking
/// sentences made for these tests (checksums computed).
@Suite struct HDGTests {
    static let example = "$HCHDG,98.3,0.0,E,12.6,W*57"

    @Test func sensorHeadingDeviationAndVariation() throws {
        let hdg = try HDG(parsing: Self.example)
        #expect(
            hdg
                == HDG(
                    talker: .magneticCompass, sensorHeadingDegrees: fp(983, 1), deviationDegrees: fp(0, 1),
                    variationDegrees: fp(-126, 1)))
        #expect(hdg.magneticHeadingDegrees == 98.3)
        #expect(abs(hdg.trueHeadingDegrees! - 85.7) < 1e-9)
    }

    @Test func eastDeviationAndWrapAround() throws {
        let hdg = try HDG(parsing: withChecksum("$HCHDG,359.0,2.5,E,1.5,E"))
        #expect(hdg.deviationDegrees == fp(25, 1) && hdg.variationDegrees == fp(15, 1))
        #expect(abs(hdg.magneticHeadingDegrees! - 1.5) < 1e-9)
        #expect(abs(hdg.trueHeadingDegrees! - 3.0) < 1e-9)
    }

    /// Many compasses send the heading alone: no deviation, no variation, so no true heading.
    @Test func headingAlone() throws {
        let hdg = try HDG(parsing: withChecksum("$HCHDG,271.1,,,,"))
        #expect(hdg == HDG(talker: .magneticCompass, sensorHeadingDegrees: fp(2711, 1)))
        #expect(hdg.magneticHeadingDegrees == 271.1 && hdg.trueHeadingDegrees == nil)
        #expect(try HDG(parsing: withChecksum("$HCHDG,271.1")) == hdg)
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try HDG(parsing: replacingField(1, of: Self.example, with: "9x.3"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .notANumber)) {
            try HDG(parsing: replacingField(2, of: Self.example, with: "E"))
        }
        #expect(throws: NMEAError.badField(index: 3, reason: .unexpectedCharacter)) {
            try HDG(parsing: replacingField(3, of: Self.example, with: "N"))
        }
        #expect(throws: NMEAError.badField(index: 5, reason: .unexpectedCharacter)) {
            try HDG(parsing: replacingField(5, of: Self.example, with: "S"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try HDG(parsing: withChecksum("$HCHDG")) }
    }

    @Test func keepsTheFieldsThatRead() throws {
        var errors = FieldErrors()
        let hdg = try withSentence(replacingField(4, of: Self.example, with: "1x.6")) {
            (sentence) throws(NMEAError) -> HDG in try HDG(sentence, fieldErrors: &errors)
        }
        #expect(hdg.sensorHeadingDegrees == fp(983, 1) && hdg.variationDegrees == nil)
        #expect(Array(errors) == [.badField(index: 4, reason: .notANumber)])
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try HDG(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .hdg, found: .hdm)) { try HDG(parsing: HDMTests.example) }
    }
}

@Suite struct HDMTests {
    static let example = "$HCHDM,238.5,M*25"

    @Test func magneticHeading() throws {
        #expect(try HDM(parsing: Self.example) == HDM(talker: .magneticCompass, headingMagneticDegrees: fp(2385, 1)))
        #expect(
            try HDM(parsing: withChecksum("$APHDM,12.0"))
                == HDM(talker: Talker("AP"), headingMagneticDegrees: fp(120, 1)))
        #expect(try HDM(parsing: withChecksum("$HCHDM,,M")).headingMagneticDegrees == nil)
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try HDM(parsing: replacingField(1, of: Self.example, with: "23-8"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try HDM(parsing: replacingField(2, of: Self.example, with: "T"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try HDM(parsing: withChecksum("$HCHDM")) }
        #expect(throws: NMEAError.wrongType(expected: .hdm, found: .hdt)) { try HDM(parsing: HDTTests.example) }
    }
}

@Suite struct ROTTests {
    static let example = "$TIROT,-35.6,A*26"

    @Test func turningToPort() throws {
        #expect(
            try ROT(parsing: Self.example) == ROT(talker: Talker("TI"), degreesPerMinute: fp(-356, 1), isValid: true))
    }

    @Test func starboardNotValidAndNoStatus() throws {
        #expect(
            try ROT(parsing: withChecksum("$HEROT,12.25,V"))
                == ROT(talker: Talker("HE"), degreesPerMinute: fp(1225, 2), isValid: false))
        #expect(try ROT(parsing: withChecksum("$HEROT,0.0")).isValid == nil)
    }

    @Test func malformedFields() {
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try ROT(parsing: replacingField(1, of: Self.example, with: "--35"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try ROT(parsing: replacingField(2, of: Self.example, with: "X"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .badLength)) {
            try ROT(parsing: replacingField(2, of: Self.example, with: "AV"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try ROT(parsing: withChecksum("$TIROT")) }
    }
}
