/// A decimal number exactly as a sentence wrote it: an integer significand and a count of decimal places.
///
/// `"4807.038"` is `FixedPoint(significand: 4807038, scale: 3)`. Keeping the digits as sent means nothing is lost to
/// binary floating point until a caller asks for ``doubleValue``, and the number can be written back digit for digit.
/// An empty field is `nil`, never zero. Equality is by value (`0.5 == 0.50`); ``description`` keeps the digits.
public struct FixedPoint: Hashable, Sendable {
    /// The digits as an integer: `4807038` for `"4807.038"`.
    public var significand: Int64
    /// How many of the digits are decimal places: `3` for `"4807.038"`.
    public var scale: UInt8

    /// `significand` × 10^−`scale`: `FixedPoint(significand: 4807038, scale: 3)` is 4807.038.
    @inlinable
    public init(significand: Int64, scale: UInt8) {
        self.significand = significand
        self.scale = scale
    }

    /// The value as a `Double`, correctly rounded for up to 15 significant digits.
    @inlinable
    public var doubleValue: Double {
        Double(significand) / FixedPoint.powerOfTen(scale)
    }

    /// The same value with trailing fractional zeros removed: `0.50` becomes `0.5`.
    @inlinable
    public var normalized: FixedPoint {
        var result = self
        while result.scale > 0 && result.significand % 10 == 0 {
            result.significand /= 10
            result.scale -= 1
        }
        return result
    }

    /// Equal when every value is.
    @inlinable
    public static func == (lhs: FixedPoint, rhs: FixedPoint) -> Bool {
        let left = lhs.normalized
        let right = rhs.normalized
        return left.significand == right.significand && left.scale == right.scale
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        let value = normalized
        hasher.combine(value.significand)
        hasher.combine(value.scale)
    }

    /// The value rounded toward zero to a whole number.
    @inlinable
    public var integerPart: Int64 {
        significand / FixedPoint.int64PowerOfTen(scale)
    }

    /// The value rescaled to `newScale` decimal places, rounding half away from zero when digits are dropped.
    @inlinable
    public func rescaled(to newScale: UInt8) -> FixedPoint {
        if newScale == scale { return self }
        if newScale > scale {
            return FixedPoint(significand: significand * FixedPoint.int64PowerOfTen(newScale - scale), scale: newScale)
        }
        let divisor = FixedPoint.int64PowerOfTen(scale - newScale)
        let half = divisor / 2
        let rounded = significand >= 0 ? (significand + half) / divisor : (significand - half) / divisor
        return FixedPoint(significand: rounded, scale: newScale)
    }

    /// 10 to the power `exponent` (0…19; larger exponents give 10^19) as an integer.
    ///
    /// A switch of constants, which the compiler turns into a load from a table in read-only data.
    @inlinable @inline(__always)
    static func integerPowerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// 10 to the power `exponent` (0…19; larger exponents give 10^19) as a `Double`, exactly: every power of ten up
    /// to 10^22 is a `Double`.
    @inlinable @inline(__always)
    static func powerOfTen(_ exponent: UInt8) -> Double {
        Double(integerPowerOfTen(Int(exponent)))
    }

    /// 10 to the power `exponent` as an `Int64` divisor or multiplier (10^19 and above clamp to `Int64.max`).
    @inlinable @inline(__always)
    static func int64PowerOfTen(_ exponent: UInt8) -> Int64 {
        Int64(clamping: integerPowerOfTen(Int(exponent)))
    }
}

extension FixedPoint: CustomStringConvertible {
    /// The number in the sentence's own digits: `"4807.038"`, `"-0.5"`, `"12"`.
    public var description: String {
        String(writing: { DecimalFormatter.write(self, to: $0) })
    }
}

extension FixedPoint: ExpressibleByIntegerLiteral {
    /// A whole number.
    @inlinable
    public init(integerLiteral value: Int64) {
        self.init(significand: value, scale: 0)
    }
}
