extension FieldReader {
    // MARK: Positions

    /// A latitude pair `ddmm.mmmm,N` in decimal degrees (negative south), or `nil` when the value is empty.
    @inlinable @inline(always)
    public mutating func latitude() -> FixedPoint? {
        coordinate(maximum: 90, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
    }

    /// A longitude pair `dddmm.mmmm,E` in decimal degrees (negative west), or `nil` when the value is empty.
    @inlinable @inline(always)
    public mutating func longitude() -> FixedPoint? {
        coordinate(maximum: 180, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
    }

    /// Reads `[d]ddmm.mmmm` and a hemisphere letter; converts to decimal degrees with five more decimal places than
    /// the minutes had (see ``extraDegreeDigits(minuteScale:)``), which keeps every digit the receiver sent. A value
    /// that does not read, or a hemisphere that is not one of the two, leaves the coordinate absent (and is recorded).
    @inlinable @inline(always)
    mutating func coordinate(maximum: UInt64, positive: UInt8, negative: UInt8) -> FixedPoint? {
        guard position < freeLimit else {
            return readingLastField { inner in
                inner.coordinate(maximum: maximum, positive: positive, negative: negative)
            }
        }
        let valueStart = position
        // Fast path: unsigned digits, a point, digits (at most 14), then the hemisphere.
        let (whole, wholeDigits, fraction, scale, cursor) = Self.unsignedDecimal(at: valueStart)
        guard endsField(cursor), UInt(bitPattern: wholeDigits &- 3) < 3, scale <= 14 else {
            if endsField(cursor) && cursor == valueStart {
                // An empty value: its hemisphere field is skipped (and checked).
                position = cursor + 1
                _ = character()
                return nil
            }
            return outOfLine { reader in
                reader.coordinateSlowly(maximum: maximum, positive: positive, negative: negative)
            }
        }
        position = cursor + 1
        let errorsBefore = recordedErrors.count
        let hemisphere = character()
        let isNegative: Bool
        switch hemisphere {
        case positive: isNegative = false
        case negative: isNegative = true
        case nil where recordedErrors.count == errorsBefore: isNegative = false
        case nil: return nil  // a hemisphere of more than one letter (recorded): the sign is unknown
        default:
            outOfLine { reader in reader.reject(.unexpectedCharacter, fieldAt: cursor + 1) }
            return nil
        }
        guard let degrees = Self.degrees(whole: whole, fraction: fraction, scale: scale, maximum: maximum) else {
            outOfLine { reader in reader.reject(.outOfRange, fieldAt: valueStart, fields: 2) }
            return nil
        }
        return isNegative ? FixedPoint(significand: -degrees.significand, scale: degrees.scale) : degrees
    }

    /// Unsigned digits, then a point and digits, from `start`: the whole part's value and its number of digits,
    /// the fraction's value and its number of digits, and where they end. Every field ends in a byte that is not a
    /// digit, so the reading stops there.
    @inlinable @inline(always)
    static func unsignedDecimal(at start: UnsafePointer<UInt8>) -> (
        whole: UInt64, wholeDigits: Int, fraction: UInt64, scale: Int, end: UnsafePointer<UInt8>
    ) {
        var cursor = start
        var whole: UInt64 = 0
        var digit = cursor.pointee &- UInt8(ascii: "0")
        while digit < 10 {
            whole = whole &* 10 &+ UInt64(digit)
            cursor += 1
            digit = cursor.pointee &- UInt8(ascii: "0")
        }
        let wholeDigits = cursor - start
        var fraction: UInt64 = 0
        var scale = 0
        if cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            let fractionStart = cursor
            digit = cursor.pointee &- UInt8(ascii: "0")
            while digit < 10 {
                fraction = fraction &* 10 &+ UInt64(digit)
                cursor += 1
                digit = cursor.pointee &- UInt8(ascii: "0")
            }
            scale = cursor - fractionStart
        }
        return (whole, wholeDigits, fraction, scale, cursor)
    }

    /// `[d]ddmm` (`whole`) and `scale` digits of the minutes' fraction in decimal degrees, with five more decimal
    /// places than the minutes had; `nil` for minutes of 60 or more, or degrees past `maximum`.
    @inlinable @inline(always)
    static func degrees(whole: UInt64, fraction: UInt64, scale: Int, maximum: UInt64) -> FixedPoint? {
        let degrees = whole / 100
        let minutes = whole % 100
        let extra = FieldReader.extraDegreeDigits(minuteScale: scale)
        let unit = FixedPoint.integerPowerOfTen(scale)
        let outputUnit = FixedPoint.integerPowerOfTen(scale &+ extra)
        // degrees × 10^(scale+extra) + minutes × 10^(scale+extra) / 60, rounded half up.
        let minuteUnits = minutes &* unit &+ fraction
        let value = degrees &* outputUnit &+ (minuteUnits &* FixedPoint.integerPowerOfTen(extra) &+ 30) / 60
        guard minutes < 60, value <= maximum &* outputUnit else { return nil }
        // (At most 90 or 180 degrees to at most 15 places: below 2^63, and the scale below 256.)
        return FixedPoint(
            significand: Int64(truncatingIfNeeded: value), scale: UInt8(truncatingIfNeeded: scale &+ extra))
    }

    /// Signed values (Unicore writes `-0214.41,W`), more than 14 decimals, spaces, and errors.
    @usableFromInline @inline(never)
    mutating func coordinateSlowly(maximum: UInt64, positive: UInt8, negative: UInt8) -> FixedPoint? {
        let valueStart = position
        var errorsBefore = recordedErrors.count
        let number = fixedPoint()
        guard let raw = number else {
            // Empty (spaces): the hemisphere is read and goes with it. Not a number: the hemisphere is skipped.
            if recordedErrors.count == errorsBefore { _ = character() } else { skip() }
            return nil
        }
        let hemisphereStart = position
        errorsBefore = recordedErrors.count
        let hemisphere = character()
        // The hemisphere gives the sign. Some receivers (Unicore UM981) also write a negative value with `W`: the
        // magnitude is what counts. With no hemisphere, the value's own sign stands.
        let isNegative: Bool
        switch hemisphere {
        case positive: isNegative = false
        case negative: isNegative = true
        case nil where recordedErrors.count == errorsBefore: isNegative = raw.significand < 0
        case nil: return nil
        default:
            reject(.unexpectedCharacter, fieldAt: hemisphereStart)
            return nil
        }
        let limited = raw.scale > 14 ? raw.rescaled(to: 14) : raw  // 10^-14 minutes is far below a nanometre
        let magnitude = limited.significand.magnitude
        let scale = Int(limited.scale)
        let extra = FieldReader.extraDegreeDigits(minuteScale: scale)
        let unit = FixedPoint.integerPowerOfTen(scale)
        let outputUnit = FixedPoint.integerPowerOfTen(scale + extra)
        let degrees = magnitude / (100 * unit)
        let minuteUnits = magnitude % (100 * unit)
        // (Checked before the value is worked out, which would overflow for a huge number of degrees.)
        guard degrees <= maximum, minuteUnits < 60 * unit,
            degrees * outputUnit + (minuteUnits * FixedPoint.integerPowerOfTen(extra) + 30) / 60
                <= maximum * outputUnit
        else {
            reject(.outOfRange, fieldAt: valueStart, fields: 2)
            return nil
        }
        let value = degrees * outputUnit + (minuteUnits * FixedPoint.integerPowerOfTen(extra) + 30) / 60
        let signed = Int64(value)
        return FixedPoint(significand: isNegative ? -signed : signed, scale: UInt8(scale + extra))
    }

    /// How many more decimal places degrees get than the minutes had: five (so `4807.0380` becomes
    /// `48.117300000`, nine places as gpsd prints), fewer for very long minutes so that the value fits 64 bits.
    /// Five places keep the rounding from minutes (a repeating decimal after dividing by 60) below 1/6000 of the
    /// receiver's last digit.
    @inlinable @inline(always)
    static func extraDegreeDigits(minuteScale: Int) -> Int {
        minuteScale <= 10 ? 5 : 15 &- minuteScale
    }
}
