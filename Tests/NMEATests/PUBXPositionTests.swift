import Testing

@testable import NMEA

@Suite struct PUBXPositionTests {
    static let example =
        "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0*5F"

    @Test func threeDFix() throws {
        let pubx = try PUBXPosition(parsing: Self.example)
        #expect(pubx.time == .at(8, 13, 50, digits: 2))
        #expect(pubx.latitude == fp(4_728_522_016_667, 11))
        #expect(pubx.longitude == fp(856_525_311_667, 11))
        #expect(pubx.altitudeEllipsoidMeters == fp(546_589, 3))
        #expect(pubx.navigationStatus == "G3")
        #expect(pubx.horizontalAccuracyMeters == fp(21, 1))
        #expect(pubx.verticalAccuracyMeters == fp(20, 1))
        #expect(pubx.speedKilometersPerHour == fp(7, 3))
        #expect(pubx.courseDegrees == fp(7752, 2))
        #expect(pubx.verticalVelocity == fp(7, 3))
        #expect(pubx.differentialAgeSeconds == nil)
        #expect(pubx.hdop == fp(92, 2))
        #expect(pubx.vdop == fp(119, 2))
        #expect(pubx.tdop == fp(77, 2))
        #expect(pubx.satellitesUsed == 9)
        #expect(pubx.deadReckoning == false)
    }

    @Test func noFixReportsZeroPositionAsSent() throws {
        let pubx = try PUBXPosition(
            parsing:
                "$PUBX,00,000004.00,0000.00000,N,00000.00000,E,0.000,NF,5303316,3750010,0.000,0.00,0.000,,99.99,99.99,99.99,0,0,0*29"
        )
        #expect(pubx.time == .at(0, 0, 4, digits: 2))
        // The fields are present (zeros), so they decode as zero, not nil.
        #expect(pubx.latitude == fp(0, 7))
        #expect(pubx.longitude == fp(0, 7))
        #expect(pubx.altitudeEllipsoidMeters == fp(0, 3))
        #expect(pubx.navigationStatus == "NF")
        #expect(pubx.horizontalAccuracyMeters == fp(5_303_316, 0))
        #expect(pubx.verticalAccuracyMeters == fp(3_750_010, 0))
        #expect(pubx.speedKilometersPerHour == fp(0, 3))
        #expect(pubx.courseDegrees == fp(0, 2))
        #expect(pubx.verticalVelocity == fp(0, 3))
        #expect(pubx.differentialAgeSeconds == nil)
        #expect(pubx.hdop == fp(9999, 2))
        #expect(pubx.vdop == fp(9999, 2))
        #expect(pubx.tdop == fp(9999, 2))
        #expect(pubx.satellitesUsed == 0)
        #expect(pubx.deadReckoning == false)
    }

    @Test func differentialDeadReckoningSouthWest() throws {
        let pubx = try PUBXPosition(
            parsing:
                "$PUBX,00,235959.99,3356.12345,S,15112.54321,W,12.300,D3,0.9,1.4,54.321,359.99,-0.012,3,0.70,1.00,0.60,17,0,1*40"
        )
        #expect(pubx.time == .at(23, 59, 59, nanoseconds: 990_000_000, digits: 2))
        #expect(pubx.latitude == fp(-339_353_908_333, 10))
        #expect(pubx.longitude == fp(-1_512_090_535, 7))
        #expect(pubx.navigationStatus == "D3")
        #expect(pubx.verticalVelocity == fp(-12, 3))
        #expect(pubx.differentialAgeSeconds == fp(3, 0))
        #expect(pubx.satellitesUsed == 17)
        #expect(pubx.deadReckoning == true)
    }

    @Test func allEmptyIsNil() throws {
        let pubx = try PUBXPosition(parsing: withChecksum("$PUBX,00" + String(repeating: ",", count: 19)))
        #expect(pubx.time == nil)
        #expect(pubx.latitude == nil)
        #expect(pubx.longitude == nil)
        #expect(pubx.altitudeEllipsoidMeters == nil)
        #expect(pubx.navigationStatus.isEmpty)
        #expect(pubx.horizontalAccuracyMeters == nil)
        #expect(pubx.verticalAccuracyMeters == nil)
        #expect(pubx.speedKilometersPerHour == nil)
        #expect(pubx.courseDegrees == nil)
        #expect(pubx.verticalVelocity == nil)
        #expect(pubx.hdop == nil)
        #expect(pubx.vdop == nil)
        #expect(pubx.tdop == nil)
        #expect(pubx.satellitesUsed == nil)
        #expect(pubx.deadReckoning == nil)
    }

    @Test(arguments: [
        (2, "08135", NMEAError.badField(index: 2, reason: .badLength)),
        (3, "4717.1132l0", .badField(index: 3, reason: .notANumber)),
        (4, "SS", .badField(index: 4, reason: .badLength)),
        (6, "N", .badField(index: 6, reason: .unexpectedCharacter)),
        (7, "546.589m", .badField(index: 7, reason: .notANumber)),
        (9, "2.1.", .badField(index: 9, reason: .notANumber)),
        (13, "+-0.007", .badField(index: 13, reason: .notANumber)),
        (18, "nine", .badField(index: 18, reason: .notANumber)),
        (18, "1000", .badField(index: 18, reason: .outOfRange)),
        (20, "2", .badField(index: 20, reason: .outOfRange)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try PUBXPosition(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    @Test func otherPUBXMessagesAreRejected() {
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PUBXPosition(parsing: PUBXTimeTests.example)
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PUBXPosition(parsing: withChecksum("$PUBX,,081350.00"))
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(
            PUBXPosition.self, Self.example, keeping: 17,
            withoutFields: .badField(index: 1, reason: .unexpectedCharacter))
        // Fields 19 and 20 may be left off.
        #expect(try PUBXPosition(parsing: keepingFields(18, of: Self.example)).deadReckoning == nil)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PUBXPosition(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .pubx, found: .gga)) {
            try PUBXPosition(parsing: GGATests.textbook)
        }
    }
}
