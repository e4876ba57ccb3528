/// A UTC time of day as a sentence sends it (`hhmmss.sss`), keeping the fraction and how many digits it had.
///
/// Equality and ordering are by instant; ``description`` keeps the digits as sent.
public struct UTCTime: Hashable, Sendable {
    /// 0…23.
    public var hour: UInt8
    /// 0…59.
    public var minute: UInt8
    /// 0…60 (60 only during a leap second).
    public var second: UInt8
    /// The fraction of the second in nanoseconds.
    public var nanoseconds: UInt32
    /// How many fraction digits the sentence sent (0…9), so the time can be written back as it came.
    public var fractionDigits: UInt8

    /// The time of day with the given parts (not checked).
    @inlinable
    public init(hour: UInt8, minute: UInt8, second: UInt8, nanoseconds: UInt32 = 0, fractionDigits: UInt8 = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanoseconds = nanoseconds
        self.fractionDigits = fractionDigits
    }

    /// Seconds since midnight, with the fraction.
    @inlinable
    public var secondsSinceMidnight: Double {
        Double((Int(hour) * 60 + Int(minute)) * 60 + Int(second)) + Double(nanoseconds) / 1e9
    }

    /// Whole milliseconds since midnight (the fraction truncated to milliseconds).
    @inlinable
    public var millisecondsSinceMidnight: Int {
        ((Int(hour) * 60 + Int(minute)) * 60 + Int(second)) * 1000 + Int(nanoseconds / 1_000_000)
    }

    /// Nanoseconds since midnight.
    @inlinable
    public var nanosecondsSinceMidnight: Int64 {
        Int64((Int(hour) * 60 + Int(minute)) * 60 + Int(second)) * 1_000_000_000 + Int64(nanoseconds)
    }

    /// Writes `hh:mm:ss` and, when the sentence sent one, `.` and the fraction with its original digits.
    @inlinable
    public func write(to output: (UInt8) -> Void) {
        DecimalFormatter.write(Int(hour), minimumDigits: 2, to: output)
        output(UInt8(ascii: ":"))
        DecimalFormatter.write(Int(minute), minimumDigits: 2, to: output)
        output(UInt8(ascii: ":"))
        DecimalFormatter.write(Int(second), minimumDigits: 2, to: output)
        if fractionDigits > 0 {
            output(UInt8(ascii: "."))
            forEachFractionDigit(output)
        }
    }

    /// Calls `output` with each of the fraction's ``fractionDigits`` digits, as the sentence sent them.
    @inlinable @inline(__always)
    func forEachFractionDigit(_ output: (UInt8) -> Void) {
        var divisor: UInt32 = 100_000_000
        for _ in 0..<fractionDigits {
            output(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (nanoseconds / divisor) % 10))
            divisor /= 10
        }
    }
}

extension UTCTime: Comparable {
    /// Equal when they name the same instant: `12:35:19` and `12:35:19.00` are equal (receivers send one epoch's
    /// time with different numbers of digits in different sentences).
    @inlinable
    public static func == (lhs: UTCTime, rhs: UTCTime) -> Bool {
        lhs.nanosecondsSinceMidnight == rhs.nanosecondsSinceMidnight
    }

    /// Ordered by time of day.
    @inlinable
    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        lhs.nanosecondsSinceMidnight < rhs.nanosecondsSinceMidnight
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(nanosecondsSinceMidnight)
    }
}

extension UTCTime: CustomStringConvertible {
    /// `"12:35:19"` or `"12:35:19.25"`.
    public var description: String {
        String(writing: write)
    }
}

extension UTCTime: BitwiseCopyable {}
