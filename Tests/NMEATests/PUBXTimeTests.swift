import Testing

@testable import NMEA

@Suite struct PUBXTimeTests {
    static let example = "$PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43,*5D"

    @Test func defaultLeapSeconds() throws {
        let pubx = try PUBXTime(parsing: Self.example)
        #expect(pubx.time == .at(7, 37, 31, digits: 2))
        #expect(pubx.date == UTCDate(year: 2002, month: 12, day: 9))
        #expect(pubx.timeOfWeekSeconds == fp(11_385_100, 2))
        #expect(pubx.weekNumber == 1196)
        #expect(pubx.leapSeconds == 15)
        #expect(pubx.leapSecondsAreDefault)
        #expect(pubx.clockBiasNanoseconds == fp(1_930_035, 0))
        #expect(pubx.clockDriftNanosecondsPerSecond == fp(-2_660_664, 3))
        #expect(pubx.timePulseGranularityNanoseconds == 43)
    }

    @Test func confirmedLeapSeconds() throws {
        let pubx = try PUBXTime(parsing: "$PUBX,04,235959.00,311216,604799.00,1929,18,123456,-98.765,21,*21")
        #expect(pubx.time == .at(23, 59, 59, digits: 2))
        #expect(pubx.date == UTCDate(year: 2016, month: 12, day: 31))
        #expect(pubx.timeOfWeekSeconds == fp(60_479_900, 2))
        #expect(pubx.weekNumber == 1929)
        #expect(pubx.leapSeconds == 18)
        #expect(!pubx.leapSecondsAreDefault)
        #expect(pubx.clockBiasNanoseconds == fp(123_456, 0))
        #expect(pubx.clockDriftNanosecondsPerSecond == fp(-98_765, 3))
        #expect(pubx.timePulseGranularityNanoseconds == 21)
    }

    @Test func emptyFieldsAreNil() throws {
        let pubx = try PUBXTime(parsing: withChecksum("$PUBX,04,,,,,,,,,"))
        #expect(pubx.time == nil)
        #expect(pubx.date == nil)
        #expect(pubx.timeOfWeekSeconds == nil)
        #expect(pubx.weekNumber == nil)
        #expect(pubx.leapSeconds == nil)
        #expect(!pubx.leapSecondsAreDefault)
        #expect(pubx.clockBiasNanoseconds == nil)
        #expect(pubx.clockDriftNanosecondsPerSecond == nil)
        #expect(pubx.timePulseGranularityNanoseconds == nil)
    }

    @Test func leapSecondsDefaultMarkerAlone() throws {
        let pubx = try PUBXTime(parsing: replacingField(6, of: Self.example, with: "D"))
        #expect(pubx.leapSeconds == nil)
        #expect(pubx.leapSecondsAreDefault)
    }

    @Test(arguments: [
        (2, "07373", NMEAError.badField(index: 2, reason: .badLength)),
        (3, "091302", .badField(index: 3, reason: .outOfRange)),
        (4, "113851.00s", .badField(index: 4, reason: .notANumber)),
        (5, "11x96", .badField(index: 5, reason: .notANumber)),
        (6, "1x", .badField(index: 6, reason: .notANumber)),
        (6, "D15", .badField(index: 6, reason: .notANumber)),
        (6, "-15", .badField(index: 6, reason: .notANumber)),
        (6, "12345", .badField(index: 6, reason: .notANumber)),
        (7, "19300.3.5", .badField(index: 7, reason: .notANumber)),
        (8, "-2660.664e", .badField(index: 8, reason: .notANumber)),
        (9, "4x3", .badField(index: 9, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try PUBXTime(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    @Test func otherPUBXMessagesAreRejected() {
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PUBXTime(parsing: PUBXPositionTests.example)
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(
            PUBXTime.self, Self.example, keeping: 8, withoutFields: .badField(index: 1, reason: .unexpectedCharacter))
        #expect(try PUBXTime(parsing: keepingFields(9, of: Self.example)).timePulseGranularityNanoseconds == 43)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try PUBXTime(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .pubx, found: .zda)) { try PUBXTime(parsing: ZDATests.textbook) }
    }
}
