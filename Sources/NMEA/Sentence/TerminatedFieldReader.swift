/// The decoders' fast path: reads the usual forms of fields in a sentence whose bytes are followed by a stop byte
/// (``Sentence/isTerminated``), so that no digit loop compares against the end of the sentence.
///
/// Each method returns `nil` when the field is in any form it does not read — a sign, padding, too many digits, a
/// value out of range, an error — and the decoder then reads the whole sentence again with ``FieldReader``, which
/// handles every form and gives the exact error. Otherwise it returns the field's value exactly as ``FieldReader``
/// would (`.some(nil)` for an empty field), so both readings agree (`FastPathTests` checks that they do).
///
/// Like ``FieldReader``, reading past the last field gives absent values; ``pastEnd`` tells that it happened.
struct TerminatedFieldReader {
    /// The start of the next field: one past the byte that ended the previous field (or the address).
    var cursor: UnsafePointer<UInt8>
    /// The stop byte after the sentence.
    let end: UnsafePointer<UInt8>
    /// `true` once a read found no field left.
    var pastEnd = false
    /// The number of fields found so far (read or skipped).
    var fieldsFound = 0

    /// A reader at the first field of `sentence`, which must be terminated.
    @inline(__always)
    init(_ sentence: Sentence) {
        cursor = sentence.fieldsStart
        end = sentence.fieldsEnd
    }

    /// `true` when another field follows: the byte before `cursor` is the comma that ended the previous one (for the
    /// first field, the comma after the address; when the address stands alone, `cursor[-1]` is the stop byte).
    /// Otherwise notes that the reads went past the end.
    @inline(__always)
    mutating func fieldFollows() -> Bool {
        if cursor[-1] == UInt8(ascii: ",") {
            fieldsFound &+= 1
            return true
        }
        pastEnd = true
        return false
    }

    /// `true` when `pointer` ends a field: a comma, or the stop byte.
    @inline(__always)
    func endsField(_ pointer: UnsafePointer<UInt8>) -> Bool {
        pointer.pointee == UInt8(ascii: ",") || pointer == end
    }

    /// Skips a field, whatever it holds.
    @inline(__always)
    mutating func skip() {
        guard fieldFollows() else { return }
        while !endsField(cursor) { cursor += 1 }
        cursor += 1
    }

    /// A one-character field, as ``FieldReader/character()``.
    @inline(__always)
    mutating func character() -> UInt8?? {
        guard fieldFollows() else { return .some(nil) }
        if endsField(cursor) {
            cursor += 1
            return .some(nil)
        }
        guard endsField(cursor + 1) else { return nil }
        let letter = cursor.pointee
        cursor += 2
        return .some(letter)
    }

    /// An unsigned whole number of at most four digits in `range` (which starts at 0 or above); as
    /// ``FieldReader/integer(in:)``.
    @inline(__always)
    mutating func small(_ range: ClosedRange<Int>) -> Int?? {
        guard fieldFollows() else { return .some(nil) }
        let value = TerminatedDigits.read(&cursor)
        guard endsField(cursor - 1) else { return nil }
        if value < 0 { return .some(nil) }
        guard range.contains(value) else { return nil }
        return .some(value)
    }

    /// An unsigned decimal, as ``FieldReader/fixedPoint()``.
    @inline(__always)
    mutating func decimal() -> FixedPoint?? {
        guard fieldFollows() else { return .some(nil) }
        let decimal = TerminatedDigits.decimal(&cursor)
        guard decimal.isValid, endsField(cursor - 1) else { return nil }
        return .some(decimal.value)
    }

    /// An unsigned decimal and a direction letter, as ``FieldReader/signed(negative:)``.
    @inline(__always)
    mutating func signed(negative: UInt8) -> FixedPoint?? {
        guard let value = decimal(), let letter = character() else { return nil }
        guard var value else { return .some(nil) }
        if letter == negative { value.significand = -value.significand }
        return .some(value)
    }

    /// A time `hhmmss` or `hhmmss.s…` with at most nine fraction digits, as ``FieldReader/time()``.
    @inline(__always)
    mutating func time() -> UTCTime?? {
        guard fieldFollows() else { return .some(nil) }
        let start = cursor
        if endsField(start) {
            cursor += 1
            return .some(nil)
        }
        // Each byte is read only after the one before it proved a digit (so not the stop byte).
        let h1 = start[0] &- UInt8(ascii: "0")
        guard h1 < 10 else { return nil }
        let h2 = start[1] &- UInt8(ascii: "0")
        guard h2 < 10 else { return nil }
        let m1 = start[2] &- UInt8(ascii: "0")
        guard m1 < 10 else { return nil }
        let m2 = start[3] &- UInt8(ascii: "0")
        guard m2 < 10 else { return nil }
        let s1 = start[4] &- UInt8(ascii: "0")
        guard s1 < 10 else { return nil }
        let s2 = start[5] &- UInt8(ascii: "0")
        guard s2 < 10 else { return nil }
        let hour = h1 &* 10 &+ h2
        let minute = m1 &* 10 &+ m2
        let second = s1 &* 10 &+ s2
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        var next = start + 6
        var nanoseconds: UInt32 = 0
        var fractionDigits = 0
        if next.pointee == UInt8(ascii: ".") {
            next += 1
            let fractionStart = next
            var digit = next.pointee &- UInt8(ascii: "0")
            while digit < 10 {
                nanoseconds = nanoseconds &* 10 &+ UInt32(digit)
                next += 1
                digit = next.pointee &- UInt8(ascii: "0")
            }
            fractionDigits = next - fractionStart
            guard fractionDigits <= 9 else { return nil }
            nanoseconds &*= UInt32(truncatingIfNeeded: FixedPoint.integerPowerOfTen(9 - fractionDigits))
        }
        guard endsField(next) else { return nil }
        cursor = next + 1
        return .some(UTCTime(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds,
                             fractionDigits: UInt8(truncatingIfNeeded: fractionDigits)))
    }

    /// A date `ddmmyy`, as ``FieldReader/date()``.
    @inline(__always)
    mutating func date() -> UTCDate?? {
        guard fieldFollows() else { return .some(nil) }
        let start = cursor
        if endsField(start) {
            cursor += 1
            return .some(nil)
        }
        let d1 = start[0] &- UInt8(ascii: "0")
        guard d1 < 10 else { return nil }
        let d2 = start[1] &- UInt8(ascii: "0")
        guard d2 < 10 else { return nil }
        let m1 = start[2] &- UInt8(ascii: "0")
        guard m1 < 10 else { return nil }
        let m2 = start[3] &- UInt8(ascii: "0")
        guard m2 < 10 else { return nil }
        let y1 = start[4] &- UInt8(ascii: "0")
        guard y1 < 10 else { return nil }
        let y2 = start[5] &- UInt8(ascii: "0")
        guard y2 < 10, endsField(start + 6) else { return nil }
        let day = d1 &* 10 &+ d2
        let month = m1 &* 10 &+ m2
        guard month &- 1 < 12, day &- 1 < 31 else { return nil }
        cursor = start + 7
        return .some(UTCDate(year: UTCDate.expandingTwoDigitYear(Int(y1 &* 10 &+ y2)), month: month, day: day))
    }

    /// A latitude pair `ddmm.mmmm,N`, as ``FieldReader/latitude()``.
    @inline(__always)
    mutating func latitude() -> FixedPoint?? {
        coordinate(maximum: 90, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
    }

    /// A longitude pair `dddmm.mmmm,E`, as ``FieldReader/longitude()``.
    @inline(__always)
    mutating func longitude() -> FixedPoint?? {
        coordinate(maximum: 180, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
    }

    /// Unsigned `[d]ddmm.mmmm` (three to five whole digits, at most 14 decimals) and a hemisphere letter, in decimal
    /// degrees with the same digits as ``FieldReader/coordinate(maximum:positive:negative:)``.
    @inline(__always)
    mutating func coordinate(maximum: UInt64, positive: UInt8, negative: UInt8) -> FixedPoint?? {
        guard fieldFollows() else { return .some(nil) }
        let valueStart = cursor
        var next = valueStart
        var whole: UInt64 = 0
        var digit = next.pointee &- UInt8(ascii: "0")
        while digit < 10 {
            whole = whole &* 10 &+ UInt64(digit)
            next += 1
            digit = next.pointee &- UInt8(ascii: "0")
        }
        let wholeDigits = next - valueStart
        var fraction: UInt64 = 0
        var scale = 0
        if next.pointee == UInt8(ascii: ".") {
            next += 1
            let fractionStart = next
            digit = next.pointee &- UInt8(ascii: "0")
            while digit < 10 {
                fraction = fraction &* 10 &+ UInt64(digit)
                next += 1
                digit = next.pointee &- UInt8(ascii: "0")
            }
            scale = next - fractionStart
        }
        guard endsField(next) else { return nil }
        cursor = next + 1
        if next == valueStart {
            // An empty value: its hemisphere field is read (and checked) and the value is absent.
            guard character() != nil else { return nil }
            return .some(nil)
        }
        guard UInt(bitPattern: wholeDigits &- 3) < 3, scale <= 14 else { return nil }
        guard let hemisphere = character() else { return nil }
        let isNegative: Bool
        switch hemisphere {
        case positive, nil: isNegative = false
        case negative: isNegative = true
        default: return nil
        }
        let degrees = whole / 100
        let minutes = whole % 100
        let extra = FieldReader.extraDegreeDigits(minuteScale: scale)
        let unit = FixedPoint.integerPowerOfTen(scale)
        let outputUnit = FixedPoint.integerPowerOfTen(scale + extra)
        let minuteUnits = minutes &* unit &+ fraction
        let value = degrees &* outputUnit &+ (minuteUnits &* FixedPoint.integerPowerOfTen(extra) &+ 30) / 60
        guard minutes < 60, value <= maximum &* outputUnit else { return nil }
        let signed = Int64(value)
        return .some(FixedPoint(significand: isNegative ? -signed : signed, scale: UInt8(scale + extra)))
    }
}

/// Reading numbers in a sentence whose fields are followed by a stop byte (``Sentence/isTerminated``): every digit
/// loop ends at a non-digit without comparing against the end of the sentence, since the stop byte is never a digit.
enum TerminatedDigits {
    /// Reads the digits at `cursor` and moves it one past the byte that ended them (normally a comma, or the stop
    /// byte at the end of the sentence), so that `cursor[-1]` is that byte.
    /// - Returns: the value; −1 when there were no digits; 1,000,000 (more than any field this is used for) when
    ///   there were more than four digits.
    @inline(__always)
    static func read(_ cursor: inout UnsafePointer<UInt8>) -> Int {
        let start = cursor
        var value = 0
        var digit = cursor.pointee &- UInt8(ascii: "0")
        while digit < 10 {
            value = value &* 10 &+ Int(digit)
            cursor += 1
            digit = cursor.pointee &- UInt8(ascii: "0")
        }
        let count = cursor - start
        cursor += 1
        if count == 0 { return -1 }
        return count <= 4 ? value : 1_000_000
    }

    /// A decimal read by ``decimal(_:)``: `value` is `nil` for an empty field; `isValid` is `false` for anything
    /// but digits with at most one point (1 to 18 digits in all), which the caller reads the careful way.
    struct Decimal {
        var value: FixedPoint?
        var isValid: Bool
    }

    /// Reads an unsigned decimal (`1.28`, `520`, `.5`) at `cursor` and moves it one past the byte that ended it, as
    /// ``read(_:)`` does. The value is what ``FieldReader/fixedPoint()`` gives for the same digits.
    @inline(__always)
    static func decimal(_ cursor: inout UnsafePointer<UInt8>) -> Decimal {
        // `d.dd` (DOPs, HDOP) without loops; each byte is read only after the one before it proved a digit or the
        // point (so not the stop byte).
        let units = cursor[0] &- UInt8(ascii: "0")
        if units < 10 && cursor[1] == UInt8(ascii: ".") {
            let tenths = cursor[2] &- UInt8(ascii: "0")
            if tenths < 10 {
                let hundredths = cursor[3] &- UInt8(ascii: "0")
                if hundredths < 10 && cursor[4] &- UInt8(ascii: "0") >= 10 {
                    cursor += 5
                    let value = Int64(units) &* 100 &+ Int64(tenths) &* 10 &+ Int64(hundredths)
                    return Decimal(value: FixedPoint(significand: value, scale: 2), isValid: true)
                }
            }
        }
        let start = cursor
        var significand: Int64 = 0
        var digit = cursor.pointee &- UInt8(ascii: "0")
        while digit < 10 {
            significand = significand &* 10 &+ Int64(digit)
            cursor += 1
            digit = cursor.pointee &- UInt8(ascii: "0")
        }
        var scale = 0
        var point = 0
        if cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            point = 1
            let fractionStart = cursor
            digit = cursor.pointee &- UInt8(ascii: "0")
            while digit < 10 {
                significand = significand &* 10 &+ Int64(digit)
                cursor += 1
                digit = cursor.pointee &- UInt8(ascii: "0")
            }
            scale = cursor - fractionStart
        }
        let digits = cursor - start - point
        cursor += 1
        if UInt(bitPattern: digits &- 1) < 18 {
            return Decimal(value: FixedPoint(significand: significand, scale: UInt8(truncatingIfNeeded: scale)),
                           isValid: true)
        }
        return Decimal(value: nil, isValid: digits == 0 && point == 0)
    }
}
