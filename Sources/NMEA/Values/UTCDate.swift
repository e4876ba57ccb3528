/// A calendar date in UTC.
///
/// RMC sends a two-digit year (`ddmmyy`); its decoder expands it with ``expandingTwoDigitYear(_:)``. ZDA sends four digits.
public struct UTCDate: Hashable, Sendable {
    /// The full year, for example 2026.
    public var year: Int16
    /// 1…12.
    public var month: UInt8
    /// 1…31.
    public var day: UInt8

    /// The date `year`-`month`-`day` (not checked).
    @inlinable
    public init(year: Int16, month: UInt8, day: UInt8) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The full year for a two-digit year: 80…99 are 1980…1999 (GPS began in 1980), 00…79 are 2000…2079.
    @inlinable
    public static func expandingTwoDigitYear(_ twoDigits: Int) -> Int16 {
        Int16(twoDigits < 80 ? 2000 + twoDigits : 1900 + twoDigits)
    }

    /// Days since 1970-01-01 (negative before), in the proleptic Gregorian calendar.
    @inlinable
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = Int(year) - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Nanoseconds in a day (UTC has no leap seconds in the count of seconds since 1970).
    public static let nanosecondsPerDay: Int64 = 86_400_000_000_000

    /// The date and the time of day of a moment `seconds` after 1970-01-01 00:00:00 UTC (before it when negative).
    @inlinable
    public static func moment(secondsSinceEpoch seconds: Int64) -> (date: UTCDate, time: UTCTime) {
        moment(nanosecondsSinceEpoch: seconds &* 1_000_000_000)
    }

    /// The date and the time of day of a moment `nanoseconds` after 1970-01-01 00:00:00 UTC (before it when
    /// negative), the time with `fractionDigits` digits of its fraction to write.
    @inlinable
    public static func moment(nanosecondsSinceEpoch nanoseconds: Int64, fractionDigits: UInt8 = 0) -> (
        date: UTCDate, time: UTCTime
    ) {
        let (days, ofDay) = nanoseconds.flooredDivision(by: nanosecondsPerDay)
        let seconds = Int(ofDay / 1_000_000_000)
        let time = UTCTime(
            hour: UInt8(seconds / 3600), minute: UInt8(seconds / 60 % 60), second: UInt8(seconds % 60),
            nanoseconds: UInt32(ofDay % 1_000_000_000), fractionDigits: fractionDigits)
        return (UTCDate(daysSinceEpoch: Int(days)), time)
    }

    /// The UTC day that holds the moment `nanosecondsSinceEpoch` (today, given the system clock's reading).
    @inlinable
    public init(containing nanosecondsSinceEpoch: Int64) {
        self.init(daysSinceEpoch: Int(nanosecondsSinceEpoch.flooredDivision(by: Self.nanosecondsPerDay).quotient))
    }

    /// The moment the day begins: nanoseconds since 1970-01-01 00:00:00 UTC.
    @inlinable
    public var startNanoseconds: Int64 { Int64(daysSinceEpoch) * Self.nanosecondsPerDay }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    @inlinable
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int16(yearOfEra + era * 400 + (m <= 2 ? 1 : 0)), month: UInt8(m), day: UInt8(d))
    }

    /// The number of days in `month` of `year`.
    @inlinable
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Writes `YYYY-MM-DD`.
    @inlinable
    public func write(to output: (UInt8) -> Void) {
        DecimalFormatter.write(Int(year), minimumDigits: 4, to: output)
        output(UInt8(ascii: "-"))
        DecimalFormatter.write(Int(month), minimumDigits: 2, to: output)
        output(UInt8(ascii: "-"))
        DecimalFormatter.write(Int(day), minimumDigits: 2, to: output)
    }
}

extension UTCDate: Comparable {
    /// Ordered by day.
    @inlinable
    public static func < (lhs: UTCDate, rhs: UTCDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension UTCDate: CustomStringConvertible {
    /// `"2026-11-30"`.
    public var description: String {
        String(writing: write)
    }
}

extension UTCDate: BitwiseCopyable {}
