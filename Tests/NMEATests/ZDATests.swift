import Testing

@testable import NMEA

@Suite struct ZDATests {
    static let textbook = "$GPZDA,201530.00,04,07,2002,00,00*60"

    @Test func textbookExample() throws {
        #expect(
            try ZDA(parsing: Self.textbook)
                == ZDA(
                    talker: .gps, time: .at(20, 15, 30, digits: 2), date: UTCDate(year: 2002, month: 7, day: 4),
                    localZoneHours: 0, localZoneMinutes: 0))
    }

    @Test func negativeZoneAndFractionalSeconds() throws {
        #expect(
            try ZDA(parsing: "$GPZDA,160012.71,11,03,2004,-1,00*7D")
                == ZDA(
                    talker: .gps, time: .at(16, 0, 12, nanoseconds: 710_000_000, digits: 2),
                    date: UTCDate(year: 2004, month: 3, day: 11), localZoneHours: -1, localZoneMinutes: 0))
    }

    @Test func zoneWithMinutes() throws {
        let zda = try ZDA(parsing: "$GNZDA,031500.000,29,02,2024,-09,-30*48")
        #expect(zda.date == UTCDate(year: 2024, month: 2, day: 29))
        #expect(zda.localZoneHours == -9)
        #expect(zda.localZoneMinutes == -30)
        #expect(zda.time == .at(3, 15, 0, digits: 3))
    }

    @Test func beforeTheFirstFixEverythingIsAbsent() throws {
        #expect(
            try ZDA(parsing: "$GPZDA,,,,,,*48")
                == ZDA(
                    talker: .gps, time: nil, date: nil, localZoneHours: nil, localZoneMinutes: nil))
    }

    @Test func partialDateIsNil() throws {
        let zda = try ZDA(parsing: "$GPZDA,201530.00,04,07,,00,00*60")
        #expect(zda.date == nil)
        #expect(zda.time == .at(20, 15, 30, digits: 2))
        #expect(zda.localZoneHours == 0)
    }

    @Test func zoneFieldsMayBeLeftOff() throws {
        #expect(
            try ZDA(parsing: keepingFields(4, of: Self.textbook))
                == ZDA(
                    talker: .gps, time: .at(20, 15, 30, digits: 2), date: UTCDate(year: 2002, month: 7, day: 4)))
    }

    @Test(arguments: [
        (1, "2015", NMEAError.badField(index: 1, reason: .badLength)),
        (1, "201575.00", .badField(index: 1, reason: .outOfRange)),
        (2, "32", .badField(index: 2, reason: .outOfRange)),
        (2, "0", .badField(index: 2, reason: .outOfRange)),
        (2, "4th", .badField(index: 2, reason: .notANumber)),
        (3, "13", .badField(index: 3, reason: .outOfRange)),
        (4, "10000", .badField(index: 4, reason: .outOfRange)),
        (4, "20O2", .badField(index: 4, reason: .notANumber)),
        (5, "14", .badField(index: 5, reason: .outOfRange)),
        (5, "-14", .badField(index: 5, reason: .outOfRange)),
        (6, "60", .badField(index: 6, reason: .outOfRange)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try ZDA(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(ZDA.self, Self.textbook, keeping: 3)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try ZDA(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .zda, found: .rmc)) { try ZDA(parsing: RMCTests.textbook) }
    }
}
