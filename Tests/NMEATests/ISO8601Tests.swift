import Simulation
import Testing

@testable import NMEA

/// The one ISO 8601 writer, in its three fraction formats, and its reader.
@Suite struct ISO8601Tests {
    static let start = Int64(1_796_025_600) * 1_000_000_000  // 2026-11-30T08:00:00Z
    static let date = UTCDate(year: 2026, month: 11, day: 30)

    static func text(_ date: UTCDate, _ time: UTCTime, _ fraction: ISO8601.Fraction) -> String {
        var text = ""
        ISO8601.write(date, time, fraction: fraction) { text.unicodeScalars.append(.init($0)) }
        return text
    }

    @Test func theReceiversDigits() {
        let time = UTCTime(hour: 8, minute: 0, second: 0, nanoseconds: 250_000_000, fractionDigits: 2)
        #expect(Self.text(Self.date, time, .asSent) == "2026-11-30T08:00:00.25Z")
        #expect(Self.text(Self.date, UTCTime(hour: 8, minute: 0, second: 0), .asSent) == "2026-11-30T08:00:00Z")
        let four = UTCTime(hour: 23, minute: 59, second: 59, nanoseconds: 999_600_000, fractionDigits: 4)
        #expect(Self.text(Self.date, four, .asSent) == "2026-11-30T23:59:59.9996Z")
    }

    /// The receiver's digits are written two at a time for a four-digit year; every field and fraction length, and
    /// the years that take the general path (five digits, negative), give the text of the date and the time as they
    /// write themselves.
    @Test func theReceiversDigitsTwoAtATimeAreTheFieldsText() {
        var generator = SplitMix64(seed: 8601)
        for index in 0..<20_000 {
            let years: [Int16] = [0, 9, 999, 1970, 2026, 9999, 10_000, -1]
            let year = index < years.count ? years[index] : Int16(truncatingIfNeeded: generator.next() % 10_000)
            let date = UTCDate(
                year: year, month: UInt8(1 + generator.next() % 12), day: UInt8(1 + generator.next() % 31))
            let digits = UInt8(generator.next() % 10)
            var nanoseconds = UInt32(generator.next() % 1_000_000_000)
            var divisor: UInt32 = 1_000_000_000
            for _ in 0..<digits { divisor /= 10 }
            nanoseconds -= nanoseconds % divisor
            let time = UTCTime(
                hour: UInt8(generator.next() % 24), minute: UInt8(generator.next() % 60),
                second: UInt8(generator.next() % 61), nanoseconds: digits == 0 ? 0 : nanoseconds,
                fractionDigits: digits)
            let expected = "\(date)T\(time)Z"
            let text = Self.text(date, time, .asSent)
            if text != expected {
                Issue.record("\(text), the fields' own text \(expected)")
                return
            }
        }
    }

    @Test func gpsdsMilliseconds() {
        let time = UTCTime(hour: 8, minute: 0, second: 1, nanoseconds: 987_654_321, fractionDigits: 9)
        #expect(Self.text(Self.date, time, .milliseconds) == "2026-11-30T08:00:01.987Z")
        #expect(
            Self.text(Self.date, UTCTime(hour: 8, minute: 0, second: 1), .milliseconds)
                == "2026-11-30T08:00:01.000Z")
        #expect(ISO8601.string(Self.start + 1_987_654_321, fraction: .milliseconds) == "2026-11-30T08:00:01.987Z")
        #expect(ISO8601.string(0, fraction: .milliseconds) == "1970-01-01T00:00:00.000Z")
    }

    @Test func theNearestMillisecond() {
        #expect(ISO8601.string(0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.string(-1_000_000_000) == "1969-12-31T23:59:59Z")
        #expect(ISO8601.string(Self.start + 120_000_000) == "2026-11-30T08:00:00.12Z")
        #expect(ISO8601.string(Self.start + 1_500_000) == "2026-11-30T08:00:00.002Z")
        #expect(ISO8601.string(Self.start + 999_600_000) == "2026-11-30T08:00:01Z")
        // From a date and time: the same rounding, carried into the next day.
        let late = UTCTime(hour: 23, minute: 59, second: 59, nanoseconds: 999_600_000, fractionDigits: 4)
        #expect(Self.text(Self.date, late, .nearestMillisecond) == "2026-12-01T00:00:00Z")
    }

    @Test func reading() {
        #expect(ISO8601.parse("2026-11-30T08:00:04Z") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30T08:00:04.5+00:00") == Self.start + 4_500_000_000)
        #expect(ISO8601.parse("2026-02-30T08:00:04Z") == nil)
        #expect(ISO8601.parse("2026-11-30 08:00") == nil)
        // Every xsd:dateTime form (issue 25, item 5): offsets to UTC, fractions of any length, no zone, 24:00.
        #expect(ISO8601.parse("2026-11-30T09:00:04+01:00") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30T03:30:04-04:30") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30T09:00:04+0100") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30T08:00:04") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30 08:00:04Z") == nil)
        #expect(ISO8601.parse("2026-11-30t08:00:04z") == Self.start + 4_000_000_000)
        #expect(ISO8601.parse("2026-11-30T08:00:04.123456789123Z") == Self.start + 4_123_456_789)
        #expect(ISO8601.parse("2026-11-30T08:00:04.5-00:00") == Self.start + 4_500_000_000)
        #expect(ISO8601.parse("2026-11-29T24:00:00Z") == Self.start - 8 * 3_600_000_000_000)
        #expect(ISO8601.parse("02026-11-30T08:00:04Z") == Self.start + 4_000_000_000)
        // Found by fuzzing the CSV reader: nanoseconds since 1970 hold 1677 to 2262 only.
        #expect(ISO8601.parse("1013-11-30T08:00:00Z") == nil)
        #expect(ISO8601.parse("12026-11-30T08:00:04Z") == nil)
        for bad in [
            "2026-11-30T24:00:01Z", "2026-11-30T08:00:04+15:00", "2026-11-30T08:00:04+01:60", "2026-11-30T08:00:04+1",
            "2026-11-30T08:00:04.Z", "2026-11-30T08:00:04 Z", "-2026-11-30T08:00:04Z", "2026-11-30T08:00:04+01:00x",
            "226-11-30T08:00:04Z", "2026-11-30T08:60:04Z",
        ] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
        #expect(ISO8601.parseDate("2026-11-30") == UTCDate(year: 2026, month: 11, day: 30))
        #expect(ISO8601.parseDate("2026-02-30") == nil)
        for offset: Int64 in [0, 1_000_000, 120_000_000, 86_399_999_000_000] {
            #expect(ISO8601.parse(ISO8601.string(Self.start + offset)) == Self.start + offset)
        }
    }

    /// What the fix writes for tracks: the receiver's digits.
    @Test func fixes() {
        let fix = Fix(date: Self.date, time: UTCTime(hour: 8, minute: 0, second: 4, nanoseconds: 0, fractionDigits: 2))
        #expect(fix.iso8601 == "2026-11-30T08:00:04.00Z")
    }
}
