import Testing

@testable import NMEA

@Suite struct GSTTests {
    static let textbook = "$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A"

    @Test func textbookExample() throws {
        #expect(
            try GST(parsing: Self.textbook)
                == GST(
                    talker: .gps, time: .at(17, 28, 14, digits: 1), rangeRMSMeters: fp(6, 3),
                    semiMajorMeters: fp(23, 3),
                    semiMinorMeters: fp(20, 3), orientationDegrees: fp(2736, 1), latitudeErrorMeters: fp(23, 3),
                    longitudeErrorMeters: fp(20, 3), altitudeErrorMeters: fp(31, 3)))
    }

    /// u-blox leaves the error ellipse empty.
    @Test func emptyEllipseIsNil() throws {
        #expect(
            try GST(parsing: "$GNGST,082356.00,1.8,,,,1.7,1.3,2.2*60")
                == GST(
                    talker: .gnss, time: .at(8, 23, 56, digits: 2), rangeRMSMeters: fp(18, 1), semiMajorMeters: nil,
                    semiMinorMeters: nil, orientationDegrees: nil, latitudeErrorMeters: fp(17, 1),
                    longitudeErrorMeters: fp(13, 1), altitudeErrorMeters: fp(22, 1)))
    }

    @Test func noFix() throws {
        #expect(
            try GST(parsing: "$GPGST,,,,,,,,*57")
                == GST(
                    talker: .gps, time: nil, rangeRMSMeters: nil, semiMajorMeters: nil, semiMinorMeters: nil,
                    orientationDegrees: nil, latitudeErrorMeters: nil, longitudeErrorMeters: nil,
                    altitudeErrorMeters: nil))
    }

    @Test(arguments: [
        (1, "17281", NMEAError.badField(index: 1, reason: .badLength)),
        (2, "0.0o6", .badField(index: 2, reason: .notANumber)),
        (5, "273.6deg", .badField(index: 5, reason: .notANumber)),
        (8, "..031", .badField(index: 8, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GST(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GST.self, Self.textbook, keeping: 7)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try GST(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gst, found: .gsa)) { try GST(parsing: GSATests.textbook) }
    }
}
