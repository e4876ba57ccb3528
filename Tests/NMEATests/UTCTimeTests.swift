import Testing

@testable import NMEA

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (UTCTime.at(12, 35, 19), "12:35:19"),
        (.at(0, 0, 0), "00:00:00"),
        (.at(12, 35, 19, nanoseconds: 250_000_000, digits: 2), "12:35:19.25"),
        (.at(8, 35, 59, digits: 2), "08:35:59.00"),
        (.at(1, 2, 3, nanoseconds: 5_000_000, digits: 3), "01:02:03.005"),
        (.at(23, 59, 60, nanoseconds: 123_456_789, digits: 9), "23:59:60.123456789"),
        (.at(23, 59, 59, nanoseconds: 990_000_000, digits: 1), "23:59:59.9"),
        (.at(9, 5, 7, nanoseconds: 500_000_000, digits: 4), "09:05:07.5000"),
        (.at(9, 5, 7, nanoseconds: 500_000_000, digits: 0), "09:05:07"),
    ])
    func description(time: UTCTime, text: String) {
        #expect(time.description == text)
    }

    @Test func timeFromASentenceIsWrittenBackWithItsDigits() throws {
        for (field, text) in [
            ("123519", "12:35:19"), ("083559.00", "08:35:59.00"), ("172814.0", "17:28:14.0"),
            ("160012.71", "16:00:12.71"), ("031500.000", "03:15:00.000"),
        ] {
            let time = try #require(try read(field) { (reader) throws(NMEAError) in reader.time() })
            #expect(time.description == text)
        }
    }

    @Test func sinceMidnight() {
        let time = UTCTime.at(12, 35, 19, nanoseconds: 250_000_000, digits: 2)
        #expect(time.secondsSinceMidnight == 45_319.25)
        #expect(time.millisecondsSinceMidnight == 45_319_250)
        #expect(time.nanosecondsSinceMidnight == 45_319_250_000_000)
        let last = UTCTime.at(23, 59, 60, nanoseconds: 999_999_999, digits: 9)
        #expect(last.millisecondsSinceMidnight == 86_400_999)
        #expect(last.nanosecondsSinceMidnight == 86_400_999_999_999)
        #expect(UTCTime.at(0, 0, 0).secondsSinceMidnight == 0)
    }

    @Test func ordering() {
        #expect(UTCTime.at(12, 35, 19) < .at(12, 35, 19, nanoseconds: 1, digits: 9))
        #expect(UTCTime.at(0, 0, 59) < .at(0, 1, 0))
        #expect(!(UTCTime.at(1, 0, 0) < .at(1, 0, 0)))
        #expect(
            [UTCTime.at(3, 0, 0), .at(1, 0, 0), .at(2, 0, 0)].sorted() == [.at(1, 0, 0), .at(2, 0, 0), .at(3, 0, 0)])
    }

    /// Equality is by instant, consistent with ordering: one epoch's time sent as `12:35:19` in one sentence and
    /// `12:35:19.00` in another is the same time; the digits are kept for writing it back.
    @Test func equalityIsByInstant() {
        #expect(UTCTime.at(12, 35, 19) == .at(12, 35, 19, digits: 2))
        #expect(Set([UTCTime.at(12, 35, 19), .at(12, 35, 19, digits: 2)]).count == 1)
        #expect(UTCTime.at(12, 35, 19, digits: 2).description == "12:35:19.00")
        #expect(UTCTime.at(12, 35, 19) != .at(12, 35, 20))
    }
}
