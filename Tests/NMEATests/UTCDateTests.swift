import Testing

@testable import NMEA

@Suite struct UTCDateTests {
    @Test(arguments: [
        (UTCDate(year: 1970, month: 1, day: 1), 0),
        (UTCDate(year: 1969, month: 12, day: 31), -1),
        (UTCDate(year: 1970, month: 3, day: 1), 59),
        (UTCDate(year: 1972, month: 3, day: 1), 790),
        (UTCDate(year: 1980, month: 1, day: 6), 3657),  // the GPS epoch
        (UTCDate(year: 2000, month: 2, day: 29), 11_016),
        (UTCDate(year: 2000, month: 3, day: 1), 11_017),
        (UTCDate(year: 2038, month: 1, day: 19), 24_855),
        (UTCDate(year: 2019, month: 4, day: 7), 17_993),  // the second GPS week rollover
        (UTCDate(year: 1900, month: 3, day: 1), -25_508),
        (UTCDate(year: 1600, month: 3, day: 1), -135_080),
        (UTCDate(year: 2400, month: 2, day: 29), 157_113),
        (UTCDate(year: 1, month: 1, day: 1), -719_162),
    ])
    func daysSinceEpoch(date: UTCDate, days: Int) {
        #expect(date.daysSinceEpoch == days)
        #expect(UTCDate(daysSinceEpoch: days) == date)
    }

    /// Every day from 1422 to 2517: the date after each is the next day of its month or the first of the next, and
    /// converting back gives the same count.
    @Test func roundTripOverSixCenturies() {
        var date = UTCDate(daysSinceEpoch: -200_000)
        #expect(date == UTCDate(year: 1422, month: 6, day: 3))
        var failures = 0
        for days in -200_000...200_000 {
            if date.daysSinceEpoch != days || UTCDate(daysSinceEpoch: days) != date { failures += 1 }
            let lastDay = UTCDate.daysIn(month: Int(date.month), year: Int(date.year))
            let next = UTCDate(daysSinceEpoch: days + 1)
            let expectedNext: UTCDate
            if date.day < lastDay {
                expectedNext = UTCDate(year: date.year, month: date.month, day: date.day + 1)
            } else if date.month < 12 {
                expectedNext = UTCDate(year: date.year, month: date.month + 1, day: 1)
            } else {
                expectedNext = UTCDate(year: date.year + 1, month: 1, day: 1)
            }
            if next != expectedNext || !(date < next) { failures += 1 }
            date = next
        }
        #expect(failures == 0)
        #expect(date == UTCDate(year: 2517, month: 8, day: 2))
    }

    @Test func leapYears() {
        #expect(UTCDate.daysIn(month: 2, year: 2024) == 29)
        #expect(UTCDate.daysIn(month: 2, year: 2000) == 29)
        #expect(UTCDate.daysIn(month: 2, year: 1900) == 28)
        #expect(UTCDate.daysIn(month: 2, year: 2100) == 28)
        #expect(UTCDate.daysIn(month: 2, year: 2023) == 28)
        #expect(UTCDate.daysIn(month: 2, year: 2400) == 29)
        #expect(
            (1...12).map { UTCDate.daysIn(month: $0, year: 2025) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        // A leap day exists in 2000 and 2024 but not in 1900 or 2100.
        #expect(
            UTCDate(daysSinceEpoch: UTCDate(year: 2000, month: 2, day: 28).daysSinceEpoch + 1)
                == UTCDate(year: 2000, month: 2, day: 29))
        #expect(
            UTCDate(daysSinceEpoch: UTCDate(year: 1900, month: 2, day: 28).daysSinceEpoch + 1)
                == UTCDate(year: 1900, month: 3, day: 1))
        #expect(
            UTCDate(daysSinceEpoch: UTCDate(year: 2100, month: 2, day: 28).daysSinceEpoch + 1)
                == UTCDate(year: 2100, month: 3, day: 1))
        #expect(
            UTCDate(year: 2024, month: 12, day: 31).daysSinceEpoch
                - UTCDate(year: 2024, month: 1, day: 1).daysSinceEpoch == 365)
        #expect(
            UTCDate(year: 2100, month: 12, day: 31).daysSinceEpoch
                - UTCDate(year: 2100, month: 1, day: 1).daysSinceEpoch == 364)
    }

    @Test func twoDigitYears() {
        #expect(UTCDate.expandingTwoDigitYear(0) == 2000)
        #expect(UTCDate.expandingTwoDigitYear(26) == 2026)
        #expect(UTCDate.expandingTwoDigitYear(79) == 2079)
        #expect(UTCDate.expandingTwoDigitYear(80) == 1980)
        #expect(UTCDate.expandingTwoDigitYear(99) == 1999)
    }

    @Test func description() {
        #expect(UTCDate(year: 2026, month: 11, day: 30).description == "2026-11-30")
        #expect(UTCDate(year: 1994, month: 3, day: 23).description == "1994-03-23")
        #expect(UTCDate(year: 999, month: 1, day: 2).description == "0999-01-02")
    }

    @Test func ordering() {
        #expect(UTCDate(year: 2025, month: 12, day: 31) < UTCDate(year: 2026, month: 1, day: 1))
        #expect(UTCDate(year: 2026, month: 1, day: 31) < UTCDate(year: 2026, month: 2, day: 1))
        #expect(UTCDate(year: 2026, month: 2, day: 1) < UTCDate(year: 2026, month: 2, day: 2))
        #expect(!(UTCDate(year: 2026, month: 2, day: 2) < UTCDate(year: 2026, month: 2, day: 2)))
    }

    @Test func aMomentInSecondsSinceTheEpochIsItsDateAndTimeOfDay() {
        let moment = UTCDate.moment(secondsSinceEpoch: 1_796_175_613)
        #expect(moment.date == UTCDate(year: 2026, month: 12, day: 2))
        #expect(moment.time == UTCTime(hour: 1, minute: 40, second: 13))
        let before = UTCDate.moment(secondsSinceEpoch: -1)
        #expect(before.date == UTCDate(year: 1969, month: 12, day: 31))
        #expect(before.time == UTCTime(hour: 23, minute: 59, second: 59))
        let midnight = UTCDate.moment(secondsSinceEpoch: -86_400)
        #expect(midnight.date == UTCDate(year: 1969, month: 12, day: 31))
        #expect(midnight.time == UTCTime(hour: 0, minute: 0, second: 0))
    }
}
