/// The one writer (and reader) of ISO 8601 UTC times, for every output: GPX, GeoJSON, JSON, gpsd's reports, the
/// trip and MQTT payloads: `2026-11-30T08:00:00Z`, `2026-11-30T08:00:00.25Z`, `2026-11-30T08:00:00.250Z`.
///
/// The formats differ only in the fraction of the second (``Fraction``): the receiver's own digits where the time is
/// a receiver's (tracks, `nmea parse --fixes`), three digits as gpsd writes them, or to the nearest millisecond with
/// trailing zeros dropped (trips and MQTT payloads).
public enum ISO8601 {
    /// How the fraction of a second is written.
    public enum Fraction: Sendable, Hashable {
        /// The digits the sentence sent (``UTCTime/fractionDigits``), none when it sent none: `08:00:00.25Z`.
        case asSent
        /// Always three digits, the fraction truncated to the millisecond, as gpsd writes times: `08:00:00.250Z`.
        case milliseconds
        /// Rounded to the nearest millisecond (which may carry into the next second), trailing zeros dropped, none
        /// for a whole second: `08:00:00.25Z`, `08:00:00Z`.
        case nearestMillisecond
    }

    /// Writes `date` and `time` as `YYYY-MM-DDThh:mm:ss[.f…]Z`.
    public static func write(
        _ date: UTCDate, _ time: UTCTime, fraction: Fraction = .asSent,
        to output: (UInt8) -> Void
    ) {
        withText(date, time, fraction: fraction) { $0.forEach(output) }
    }

    /// Appends what ``write(_:_:fraction:to:)`` writes to `bytes`, in one copy.
    public static func append(
        _ date: UTCDate, _ time: UTCTime, fraction: Fraction = .asSent,
        to bytes: inout [UInt8]
    ) {
        withText(date, time, fraction: fraction) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the text ``write(_:_:fraction:to:)`` writes (at most 35 bytes: nine fraction digits and a
    /// five-digit year).
    ///
    /// Inlinable, so that it is specialized in the caller's module (a generic call looks up `R`'s metadata).
    @inlinable
    public static func withText<R>(
        _ date: UTCDate, _ time: UTCTime, fraction: Fraction = .asSent,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            let start = buffer.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
            let count = text(date, time, fraction: fraction, into: start)
            return body(UnsafeBufferPointer(start: start, count: count))
        }
    }

    /// Writes the text into `start` (room for 40 bytes) and returns its length.
    @usableFromInline
    static func text(_ date: UTCDate, _ time: UTCTime, fraction: Fraction, into start: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        if fraction == .asSent, let count = asSent(date, time, into: start) { return count }
        var count = 0
        produce(date, time, fraction: fraction) { byte in
            start[count] = byte
            count += 1
        }
        return count
    }

    /// The usual text, the receiver's fraction with a four-digit year, two digits at a time into `start`; `nil` for
    /// a year outside 0…9999 or a field of three digits (not a time a receiver sends), which go the long way.
    private static func asSent(_ date: UTCDate, _ time: UTCTime, into start: UnsafeMutablePointer<UInt8>) -> Int? {
        guard date.year >= 0 && date.year <= 9999, date.month < 100, date.day < 100, time.hour < 100,
            time.minute < 100, time.second < 100, time.fractionDigits <= 9
        else { return nil }
        let pairs = DecimalFormatter.digitPairs.utf8Start
        @inline(__always)
        func pair(_ value: Int, at offset: Int) {
            start[offset] = pairs[2 * value]
            start[offset + 1] = pairs[2 * value + 1]
        }
        let year = Int(date.year)
        pair(year / 100, at: 0)
        pair(year % 100, at: 2)
        start[4] = UInt8(ascii: "-")
        pair(Int(date.month), at: 5)
        start[7] = UInt8(ascii: "-")
        pair(Int(date.day), at: 8)
        start[10] = UInt8(ascii: "T")
        pair(Int(time.hour), at: 11)
        start[13] = UInt8(ascii: ":")
        pair(Int(time.minute), at: 14)
        start[16] = UInt8(ascii: ":")
        pair(Int(time.second), at: 17)
        var count = 19
        if time.fractionDigits > 0 {
            start[count] = UInt8(ascii: ".")
            count += 1
            time.forEachFractionDigit { digit in
                start[count] = digit
                count += 1
            }
        }
        start[count] = UInt8(ascii: "Z")
        return count + 1
    }

    private static func produce(_ date: UTCDate, _ time: UTCTime, fraction: Fraction, to output: (UInt8) -> Void) {
        if fraction == .nearestMillisecond {
            let nanoseconds = date.startNanoseconds + time.nanosecondsSinceMidnight
            return write(nanosecondsSinceEpoch: nanoseconds, fraction: fraction, to: output)
        }
        date.write(to: output)
        output(UInt8(ascii: "T"))
        switch fraction {
        case .asSent:
            time.write(to: output)
        case .milliseconds, .nearestMillisecond:
            var whole = time
            whole.nanoseconds = 0
            whole.fractionDigits = 0
            whole.write(to: output)
            output(UInt8(ascii: "."))
            DecimalFormatter.write(Int(time.nanoseconds / 1_000_000), minimumDigits: 3, to: output)
        }
        output(UInt8(ascii: "Z"))
    }

    /// Writes a moment given in nanoseconds since 1970-01-01 UTC.
    public static func write(
        nanosecondsSinceEpoch: Int64, fraction: Fraction = .nearestMillisecond,
        to output: (UInt8) -> Void
    ) {
        let milliseconds = (fraction == .nearestMillisecond ? nanosecondsSinceEpoch + 500_000 : nanosecondsSinceEpoch)
            .flooredDivision(by: 1_000_000).quotient
        var (date, time) = UTCDate.moment(nanosecondsSinceEpoch: milliseconds * 1_000_000)
        var millisecond = Int(time.nanoseconds / 1_000_000)
        time.nanoseconds = 0
        date.write(to: output)
        output(UInt8(ascii: "T"))
        time.write(to: output)
        if fraction == .milliseconds || millisecond > 0 {
            output(UInt8(ascii: "."))
            var digits = 3
            while fraction == .nearestMillisecond && millisecond % 10 == 0 {
                millisecond /= 10
                digits -= 1
            }
            DecimalFormatter.write(millisecond, minimumDigits: digits, to: output)
        }
        output(UInt8(ascii: "Z"))
    }

    /// The text ``write(nanosecondsSinceEpoch:fraction:to:)`` writes.
    public static func string(_ nanosecondsSinceEpoch: Int64, fraction: Fraction = .nearestMillisecond) -> String {
        String(writing: { write(nanosecondsSinceEpoch: nanosecondsSinceEpoch, fraction: fraction, to: $0) })
    }

    /// Reads an ISO 8601 date and time in any form of XML Schema's `xsd:dateTime` (what GPX, KML and most
    /// tracks use) into nanoseconds since 1970, UTC:
    ///
    /// - `YYYY-MM-DDThh:mm:ss`, the year of four or more digits, `T` (or `t`);
    /// - a fraction of the second of any length (`.5`, `.250`, `.123456789012`: digits past the ninth are dropped);
    /// - a zone: `Z` (or `z`), an offset `+hh:mm`/`-hh:mm` (also `+hhmm` and `+hh`), converted to UTC; none, read
    ///   as UTC (GPX's times are UTC, and its schema allows the zone to be left out);
    /// - `24:00:00` (with no fraction), the end of the day, as `00:00:00` of the next;
    /// - a leap second `:60`, as the last second of its minute plus one (it is not kept apart).
    ///
    /// `nil` for anything else, dates the calendar does not have and times outside 1677–2262 (what nanoseconds
    /// since 1970 hold) included. No allocation.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        var text = String(text)
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// ``parse(_:)`` over the text's UTF-8 bytes.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var text = DateTimeText(bytes: bytes)
        guard let year = text.year(), text.expect(UInt8(ascii: "-")), let month = text.digits(2),
            text.expect(UInt8(ascii: "-")), let day = text.digits(2), text.expectT(), let hour = text.digits(2),
            text.expect(UInt8(ascii: ":")), let minute = text.digits(2), text.expect(UInt8(ascii: ":")),
            let second = text.digits(2), (1...12).contains(month),
            (1...UTCDate.daysIn(month: month, year: year)).contains(day),
            hour < 24 || (hour == 24 && minute == 0 && second == 0), minute < 60, second < 61,
            let nanoseconds = text.fraction(), hour < 24 || nanoseconds == 0,
            let offsetSeconds = text.zoneOffsetSeconds(), text.isAtEnd
        else { return nil }
        let days = Int64(UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day)).daysSinceEpoch)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        // Nanoseconds since 1970 reach from 1677 to 2262: a time outside is no time here.
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (moment, overflowAgain) = scaled.addingReportingOverflow(nanoseconds)
        return overflowAgain ? nil : moment
    }

    /// The parts of an `xsd:dateTime`, read in order from its bytes.
    private struct DateTimeText {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// `count` decimal digits.
        @inline(__always)
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
            }
            return value
        }

        @inline(__always)
        mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `T` or `t`.
        @inline(__always)
        mutating func expectT() -> Bool {
            guard index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "t") else { return false }
            index += 1
            return true
        }

        /// The year: four digits, or more (XSD allows years past 9999); no sign.
        mutating func year() -> Int? {
            var year = 0
            var yearDigits = 0
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, yearDigits < 9 {
                year = year * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                yearDigits += 1
            }
            guard yearDigits >= 4, year <= Int(Int16.max) else { return nil }
            return year
        }

        /// A fraction of the second, `.` and digits (past the ninth dropped), in nanoseconds; 0 when there is none,
        /// `nil` for a `.` without digits.
        mutating func fraction() -> Int64? {
            guard expect(UInt8(ascii: ".")) else { return 0 }
            var nanoseconds: Int64 = 0
            var scale: Int64 = 100_000_000
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                nanoseconds += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            return index > start ? nanoseconds : nil
        }

        /// The zone's offset from UTC in seconds: 0 for none and for `Z`, `±hh:mm`, `±hhmm` or `±hh`; `nil` for
        /// anything else.
        mutating func zoneOffsetSeconds() -> Int? {
            guard index < bytes.count else { return 0 }
            let sign = bytes[index]
            if sign | 0x20 == UInt8(ascii: "z") {
                index += 1
                return 0
            }
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            index += 1
            guard let offsetHours = digits(2) else { return nil }
            var offsetMinutes = 0
            if index < bytes.count {
                _ = expect(UInt8(ascii: ":"))
                guard let minutes = digits(2) else { return nil }
                offsetMinutes = minutes
            }
            guard offsetHours <= 14, offsetMinutes < 60 else { return nil }
            return (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
    }

    /// ``parse(_:)``'s moment as a UTC date and time of day, the time keeping as many fraction digits as the text
    /// had (up to nine), so that it is written back as given: `2026-11-30T10:00:05.25+02:00` is 08:00:05.25 UTC.
    public static func parseDateTime(_ text: some StringProtocol) -> (date: UTCDate, time: UTCTime)? {
        guard let moment = parse(text) else { return nil }
        return UTCDate.moment(nanosecondsSinceEpoch: moment, fractionDigits: fractionDigits(text))
    }

    /// How many digits the fraction of a second of an ISO 8601 text has (at most nine).
    static func fractionDigits(_ text: some StringProtocol) -> UInt8 {
        let utf8 = text.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        let digits = utf8[utf8.index(after: dot)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return UInt8(min(digits.count, 9))
    }

    /// Reads `YYYY-MM-DD` (a calendar date, as `--date` takes it); `nil` for anything else.
    public static func parseDate(_ text: some StringProtocol) -> UTCDate? {
        var text = String(text) + "T00:00:00Z"
        guard let moment = text.withUTF8({ parse(bytes: $0) }) else { return nil }
        return UTCDate(containing: moment)
    }
}
