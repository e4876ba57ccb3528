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
    public static func withText<R>(
        _ date: UTCDate, _ time: UTCTime, fraction: Fraction = .asSent,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            var count = 0
            produce(date, time, fraction: fraction) { byte in
                buffer[count] = byte
                count += 1
            }
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return body(UnsafeBufferPointer(start: start, count: count))
        }
    }

    private static func produce(_ date: UTCDate, _ time: UTCTime, fraction: Fraction, to output: (UInt8) -> Void) {
        if fraction == .nearestMillisecond {
            let nanoseconds = Int64(date.daysSinceEpoch) * 86_400_000_000_000 + time.nanosecondsSinceMidnight
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
        let milliseconds = floorDivide(
            fraction == .nearestMillisecond ? nanosecondsSinceEpoch + 500_000 : nanosecondsSinceEpoch, 1_000_000)
        let days = floorDivide(milliseconds, 86_400_000)
        let ofDay = Int(milliseconds - days * 86_400_000)
        var millisecond = ofDay % 1000
        let date = UTCDate(daysSinceEpoch: Int(days))
        let time = UTCTime(
            hour: UInt8(ofDay / 3_600_000), minute: UInt8(ofDay / 60_000 % 60),
            second: UInt8(ofDay / 1000 % 60))
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

    /// Reads `YYYY-MM-DDThh:mm:ss[.f…]Z` (or `+00:00`) into nanoseconds since 1970; `nil` for anything else,
    /// including dates the calendar does not have.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
            (1...12).contains(month), (1...UTCDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var nanoseconds: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000_000
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                nanoseconds += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = bytes[index...]
        guard rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) || rest.elementsEqual("+00:00".utf8)
        else { return nil }
        let days = Int64(UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day)).daysSinceEpoch)
        return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1_000_000_000 + nanoseconds
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
