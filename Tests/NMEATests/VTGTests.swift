import Testing

@testable import NMEA

@Suite struct VTGTests {
    static let textbook = "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48"

    @Test func textbookExample() throws {
        #expect(
            try VTG(parsing: Self.textbook)
                == VTG(
                    talker: .gps, courseTrueDegrees: fp(547, 1), courseMagneticDegrees: fp(344, 1),
                    speedKnots: fp(55, 1),
                    speedKilometersPerHour: fp(102, 1), mode: nil))
    }

    @Test func nmea23WithoutCourse() throws {
        #expect(
            try VTG(parsing: "$GPVTG,,T,,M,0.010,N,0.018,K,A*2B")
                == VTG(
                    talker: .gps, courseTrueDegrees: nil, courseMagneticDegrees: nil, speedKnots: fp(10, 3),
                    speedKilometersPerHour: fp(18, 3), mode: .autonomous))
    }

    @Test func noFix() throws {
        #expect(
            try VTG(parsing: "$GNVTG,,,,,,,,,N*2E")
                == VTG(
                    talker: .gnss, courseTrueDegrees: nil, courseMagneticDegrees: nil, speedKnots: nil,
                    speedKilometersPerHour: nil, mode: .notValid))
    }

    /// Before NMEA 2.0 the unit letters were absent: four numbers.
    @Test func pre20FormWithoutUnitLetters() throws {
        #expect(
            try VTG(parsing: "$GPVTG,054.7,034.4,005.5,010.2*54")
                == VTG(
                    talker: .gps, courseTrueDegrees: fp(547, 1), courseMagneticDegrees: fp(344, 1),
                    speedKnots: fp(55, 1),
                    speedKilometersPerHour: fp(102, 1), mode: nil))
    }

    @Test(arguments: [
        (1, "54.7.", NMEAError.badField(index: 1, reason: .notANumber)),
        (3, "x", .badField(index: 3, reason: .notANumber)),
        (5, "5.5.5", .badField(index: 5, reason: .notANumber)),
        (7, "10;2", .badField(index: 7, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try VTG(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    @Test func malformedMode() {
        #expect(throws: NMEAError.badField(index: 9, reason: .badLength)) {
            try VTG(parsing: "$GPVTG,,T,,M,0.010,N,0.018,K,AD*6F")
        }
    }

    @Test func malformedPre20Field() {
        #expect(throws: NMEAError.badField(index: 3, reason: .notANumber)) {
            try VTG(parsing: "$GPVTG,054.7,034.4,5knots,010.2*22")
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(VTG.self, Self.textbook, keeping: 2)
        try expectCutShort(VTG.self, Self.textbook, keeping: 3)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try VTG(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .vtg, found: .rmc)) { try VTG(parsing: RMCTests.textbook) }
    }
}
