/// A satellite's signal-to-noise ratio as NMEA sends it (GSV's SNR, `$PUBX,03`'s C/N0): the carrier-to-noise density
/// in dB-Hz, with the decimals the receiver sent (`24.5` stays 24.5, `38` stays 38).
///
/// Two bytes, in hundredths of a dB-Hz (0 to 655.35), so a satellite in view stays small: the 64 of a ``Fix`` cost no
/// more than when the value was a whole number. Trailing zeros are not kept (`24.50` is 24.5, the same number); more
/// than two decimals, which no receiver sends for a signal measured to the decibel, are rounded to two (half away from
/// zero). Absent, as for every value here, is `nil`, never 0 (0 is a value: some receivers send it for a satellite
/// they are searching for).
public struct SignalToNoise: Hashable, Sendable, Comparable, BitwiseCopyable {
    /// The value in hundredths of a dB-Hz: 2450 for `24.5`.
    public var hundredths: UInt16

    /// A ratio of `hundredths` / 100 dB-Hz.
    @inlinable
    public init(hundredths: UInt16) { self.hundredths = hundredths }

    /// A whole number of dB-Hz.
    @inlinable
    public init(_ wholeDecibels: UInt8) { hundredths = UInt16(wholeDecibels) &* 100 }

    /// `value` dB-Hz, or `nil` below 0 or above 655.35; more than two decimals are rounded to two.
    @inlinable
    public init?(_ value: FixedPoint) {
        guard value.significand >= 0 else { return nil }
        let rounded = value.scale > 2 ? value.rescaled(to: 2) : value
        let multiplier: Int64 = rounded.scale == 0 ? 100 : rounded.scale == 1 ? 10 : 1
        let scaled = rounded.significand.multipliedReportingOverflow(by: multiplier)
        guard !scaled.overflow, let hundredths = UInt16(exactly: scaled.partialValue) else { return nil }
        self.hundredths = hundredths
    }

    /// `value` dB-Hz rounded to hundredths (as gpsd's JSON sends it, `"ss":24.5`), or `nil` when it is not finite,
    /// below 0 or above 655.35.
    @inlinable
    public init?(_ value: Double) {
        guard value.isFinite, value >= 0 else { return nil }
        let scaled = (value * 100).rounded(.toNearestOrAwayFromZero)
        guard scaled <= Double(UInt16.max) else { return nil }
        hundredths = UInt16(scaled)
    }

    /// The value with the decimals it has: `24.5`, `38` (scale 0 for a whole number).
    @inlinable
    public var value: FixedPoint { FixedPoint(significand: Int64(hundredths), scale: 2).normalized }

    /// In dB-Hz.
    @inlinable
    public var doubleValue: Double { Double(hundredths) / 100 }

    /// The whole dB-Hz, truncated toward zero: 24 for `24.5`, as gpsd reads an SNR (C's `atoi`).
    @inlinable
    public var wholeDecibels: Int { Int(hundredths / 100) }

    /// Ordered by value.
    @inlinable
    public static func < (lhs: SignalToNoise, rhs: SignalToNoise) -> Bool { lhs.hundredths < rhs.hundredths }
}

extension SignalToNoise: ExpressibleByIntegerLiteral {
    /// A whole number of dB-Hz, `snr: 38`.
    @inlinable
    public init(integerLiteral value: UInt8) { self.init(value) }
}

extension SignalToNoise: CustomStringConvertible {
    /// The number in its shortest digits: `"24.5"`, `"38"`.
    public var description: String { value.description }
}

extension FieldReader {
    /// A signal-to-noise field (GSV's SNR, `$PUBX,03`'s C/N0), dB-Hz with its decimals (`24.5`), or `nil` when
    /// empty. A value below 0 or of 100 and above (the field has two digits before any point) is an
    /// ``FieldError/outOfRange`` error; anything else that is no number, as for ``fixedPoint()``.
    @inlinable @inline(__always)
    public mutating func signalToNoise() -> SignalToNoise? {
        let start = position
        guard let value = fixedPoint() else { return nil }
        guard let snr = SignalToNoise(value), snr.hundredths < 10_000 else {
            outOfLine { reader in reader.reject(.outOfRange, fieldAt: start) }
            return nil
        }
        return snr
    }
}
