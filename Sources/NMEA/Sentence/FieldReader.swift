/// Reads a sentence's fields in order, parsing each in the same pass that finds its end.
///
/// Decoders call one method per field, in diagram order: ``time()``, ``latitude()``, ``fixedPoint()``… Each returns
/// `nil` for an empty field ("not available", never zero) and throws ``NMEAError/badField(index:reason:)`` naming the
/// field for one it cannot read. Reading past the last field gives empty fields, so older, shorter versions of a
/// sentence decode with their newer fields absent; ``require(_:)`` rejects sentences shorter than a minimum.
public struct FieldReader {
    var position: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
    /// The index of the next field, counting from 1 for the first after the address.
    public private(set) var index: Int
    /// Set once the last field has been read.
    var exhausted: Bool


    init(_ sentence: Sentence) {
        let base = sentence.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = base + sentence.bytes.count
        index = 1
        if sentence.fieldsOffset > sentence.bytes.count {
            position = end
            exhausted = true
        } else {
            position = base + sentence.fieldsOffset
            exhausted = false
        }
    }

    /// Throws ``NMEAError/tooFewFields(expected:found:)`` unless the sentence has at least `count` fields.
    /// - Complexity: O(*n*) in the length of the unread part of the sentence.
    public func require(_ count: Int) throws(NMEAError) {
        if exhausted {
            if index - 1 < count { throw .tooFewFields(expected: count, found: index - 1) }
            return
        }
        var found = index
        var cursor = position
        while cursor < end && found < count {
            if cursor.pointee == UInt8(ascii: ",") { found += 1 }
            cursor += 1
        }
        if found < count { throw .tooFewFields(expected: count, found: found) }
    }

    /// `true` while fields remain to be read.

    public var hasMore: Bool { !exhausted }

    /// `true` when the next field is the last one.

    public var isAtLastField: Bool {
        if exhausted { return false }
        var cursor = position
        while cursor < end {
            if cursor.pointee == UInt8(ascii: ",") { return false }
            cursor += 1
        }
        return true
    }

    /// The next field as a raw view, or `nil` after the last.

    public mutating func nextField() -> Field? {
        if exhausted { return nil }
        let start = position
        let stop = scanToComma()
        return Field(UnsafeRawBufferPointer(start: start, count: stop - start))
    }

    /// The next field copied as text (up to ``ShortText/capacity`` bytes); empty when absent.

    public mutating func text() -> ShortText {
        ShortText(nextField()?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Everything from the next field to the end of the sentence, commas included; the reader is then exhausted.

    public mutating func remainder() -> UnsafeRawBufferPointer {
        let start = position
        position = end
        if !exhausted { index += 1 }
        exhausted = true
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }

    /// Skips `count` fields.

    public mutating func skip(_ count: Int = 1) {
        for _ in 0..<count where !exhausted { _ = scanToComma() }
    }

    /// Moves past the current field; returns where it ended (the comma or `end`).
    @inline(__always)
    mutating func scanToComma() -> UnsafePointer<UInt8> {
        var cursor = position
        while cursor < end && cursor.pointee != UInt8(ascii: ",") { cursor += 1 }
        finishField(at: cursor)
        return cursor
    }

    /// Records that the current field ends at `stop` (a comma or `end`) and moves to the next.
    @inline(__always)
    mutating func finishField(at stop: UnsafePointer<UInt8>) {
        index += 1
        if stop < end {
            position = stop + 1
        } else {
            position = end
            exhausted = true
        }
    }


    func failure(_ reason: FieldError) -> NMEAError { .badField(index: index, reason: reason) }

    // MARK: Single characters

    /// A one-character field (a status `A`, a mode `D`), or `nil` when empty.

    public mutating func character() throws(NMEAError) -> UInt8? {
        if exhausted { return nil }
        let start = position
        let stop = start < end && start.pointee != UInt8(ascii: ",") ? start + 1 : start
        if stop < end && stop.pointee != UInt8(ascii: ",") { throw failure(.badLength) }
        finishField(at: stop)
        return stop == start ? nil : start.pointee
    }

    // MARK: Numbers

    /// A whole number with an optional sign, or `nil` when empty.

    public mutating func integer() throws(NMEAError) -> Int? {
        guard let value = try fixedPoint() else { return nil }
        if value.scale != 0 {
            // "08." or "3.0" where a count was expected: accept whole values, reject fractions.
            let whole = value.rescaled(to: 0)
            if whole.rescaled(to: value.scale) != value { throw .badField(index: index - 1, reason: .notANumber) }
            return Int(whole.significand)
        }
        return Int(value.significand)
    }

    /// A whole number that must lie in `range`, or `nil` when empty.

    public mutating func integer(in range: ClosedRange<Int>) throws(NMEAError) -> Int? {
        guard let value = try integer() else { return nil }
        guard range.contains(value) else { throw .badField(index: index - 1, reason: .outOfRange) }
        return value
    }

    /// A decimal number (`-12.5`, `004.20`, `.5`), kept exactly as sent, or `nil` when empty.

    public mutating func fixedPoint() throws(NMEAError) -> FixedPoint? {
        if exhausted { return nil }
        var cursor = position
        var negative = false
        if cursor < end {
            if cursor.pointee == UInt8(ascii: "-") {
                negative = true
                cursor += 1
            } else if cursor.pointee == UInt8(ascii: "+") {
                cursor += 1
            }
        }
        let digitsStart = cursor
        var significand: Int64 = 0
        var digitCount = 0
        // Counted as an `Int`: a field may hold any number of digits after the point (the length limit allows
        // hundreds), and only once they are all read does `digitCount > 18` reject it. A `UInt8` overflowed (a trap)
        // at the 256th.
        var scale = 0
        var sawPoint = false
        while cursor < end {
            let byte = cursor.pointee
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                significand = significand &* 10 &+ Int64(digit)
                digitCount += 1
                if sawPoint { scale += 1 }
            } else if byte == UInt8(ascii: ",") {
                break
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                throw failure(.notANumber)
            }
            cursor += 1
        }
        if cursor == digitsStart {
            finishField(at: cursor)
            return nil
        }
        if digitCount == 0 { throw failure(.notANumber) }
        if digitCount > 18 { throw failure(.overflow) }
        finishField(at: cursor)
        return FixedPoint(significand: negative ? -significand : significand, scale: UInt8(scale))  // scale <= 18
    }

    /// A hexadecimal number (`1F`), or `nil` when empty.

    public mutating func hexadecimal() throws(NMEAError) -> UInt64? {
        if exhausted { return nil }
        var cursor = position
        var value: UInt64 = 0
        while cursor < end && cursor.pointee != UInt8(ascii: ",") {
            guard let digit = hexDigitValue(cursor.pointee) else { throw failure(.notANumber) }
            if cursor - position >= 16 { throw failure(.overflow) }
            value = value << 4 | UInt64(digit)
            cursor += 1
        }
        let empty = cursor == position
        finishField(at: cursor)
        return empty ? nil : value
    }

    /// A number followed by a direction letter (`003.1,W`); negative when the letter is `negative`. `nil` when the
    /// number is empty.

    public mutating func signed(negative: UInt8) throws(NMEAError) -> FixedPoint? {
        let value = try fixedPoint()
        let letter = try character()
        guard var value else { return nil }
        if letter == negative { value.significand = -abs(value.significand) }
        return value
    }

    // MARK: Time and date

    /// A UTC time `hhmmss`, `hhmmss.`, or `hhmmss.s…` (up to nine fraction digits are kept), or `nil` when empty.

    public mutating func time() throws(NMEAError) -> UTCTime? {
        if exhausted { return nil }
        let start = position
        if start == end || start.pointee == UInt8(ascii: ",") {
            finishField(at: start)
            return nil
        }
        guard end - start >= 6 else { throw failure(.badLength) }
        guard let hour = twoDigits(start), let minute = twoDigits(start + 2), let second = twoDigits(start + 4) else {
            throw failure(.notANumber)
        }
        guard hour < 24, minute < 60, second <= 60 else { throw failure(.outOfRange) }
        var cursor = start + 6
        var nanoseconds: UInt32 = 0
        var fractionDigits: UInt8 = 0
        if cursor < end && cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            var unit: UInt32 = 100_000_000
            while cursor < end {
                let digit = cursor.pointee &- UInt8(ascii: "0")
                if digit >= 10 { break }
                if fractionDigits < 9 {
                    nanoseconds += UInt32(digit) * unit
                    unit /= 10
                    fractionDigits += 1
                }
                cursor += 1
            }
        }
        if cursor < end && cursor.pointee != UInt8(ascii: ",") { throw failure(.notANumber) }
        finishField(at: cursor)
        return UTCTime(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds,
                       fractionDigits: fractionDigits)
    }

    /// A date `ddmmyy` with its two-digit year expanded (see ``UTCDate/expandingTwoDigitYear(_:)``), or `nil` when
    /// empty.

    public mutating func date() throws(NMEAError) -> UTCDate? {
        if exhausted { return nil }
        let start = position
        var cursor = start
        while cursor < end && cursor.pointee != UInt8(ascii: ",") { cursor += 1 }
        if cursor == start {
            finishField(at: cursor)
            return nil
        }
        guard cursor - start == 6 else { throw failure(.badLength) }
        guard let day = twoDigits(start), let month = twoDigits(start + 2), let year = twoDigits(start + 4) else {
            throw failure(.notANumber)
        }
        guard (1...12).contains(month), (1...31).contains(day) else { throw failure(.outOfRange) }
        finishField(at: cursor)
        return UTCDate(year: UTCDate.expandingTwoDigitYear(Int(year)), month: month, day: day)
    }

    // MARK: Positions

    /// A latitude pair `ddmm.mmmm,N` in decimal degrees (negative south), or `nil` when the value is empty.

    public mutating func latitude() throws(NMEAError) -> FixedPoint? {
        try coordinate(maximum: 90, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
    }

    /// A longitude pair `dddmm.mmmm,E` in decimal degrees (negative west), or `nil` when the value is empty.

    public mutating func longitude() throws(NMEAError) -> FixedPoint? {
        try coordinate(maximum: 180, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
    }

    /// Reads `[d]ddmm.mmmm` and a hemisphere letter; converts to decimal degrees with two more decimal places than
    /// the minutes had, which keeps every digit the receiver sent (1/60 of a unit in the last place of the minutes is
    /// more than a unit in the last place of the result).

    mutating func coordinate(maximum: UInt64, positive: UInt8, negative: UInt8)
        throws(NMEAError) -> FixedPoint?
    {
        let valueIndex = index
        let raw = try fixedPoint()
        let hemisphere = try character()
        guard let raw else { return nil }
        // The hemisphere gives the sign. Some receivers (Unicore UM981) also write a negative value with `W`: the
        // magnitude is what counts. With no hemisphere, the value's own sign stands.
        let negativeSign: Bool
        switch hemisphere {
        case positive: negativeSign = false
        case negative: negativeSign = true
        case nil: negativeSign = raw.significand < 0
        default: throw .badField(index: valueIndex + 1, reason: .unexpectedCharacter)
        }
        let limited = raw.scale > 14 ? raw.rescaled(to: 14) : raw  // 10^-14 minutes is far below a nanometre
        let magnitude = limited.significand.magnitude
        let scale = limited.scale
        let unit = UInt64(FixedPoint.powerOfTen(scale))
        let hundred = 100 * unit
        let degrees = magnitude / hundred
        let minuteUnits = magnitude % hundred  // minutes × 10^scale
        // degrees × 10^(scale+2) + minutes × 10^(scale+2) / 60, rounded half up.
        let value = degrees * hundred + (minuteUnits * 10 + 3) / 6
        guard minuteUnits < 60 * unit, value <= maximum * hundred else {
            throw .badField(index: valueIndex, reason: .outOfRange)
        }
        let signed = negativeSign ? -Int64(value) : Int64(value)
        return FixedPoint(significand: signed, scale: scale + 2)
    }
}

/// The value of two ASCII digits at `pointer`, or `nil` when either is not a digit.
@inline(__always)
func twoDigits(_ pointer: UnsafePointer<UInt8>) -> UInt8? {
    let tens = pointer[0] &- UInt8(ascii: "0")
    let ones = pointer[1] &- UInt8(ascii: "0")
    guard tens < 10, ones < 10 else { return nil }
    return tens * 10 + ones
}

/// The value of one hexadecimal digit (either case), or `nil`.
@inline(__always)
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    let digit = byte &- UInt8(ascii: "0")
    if digit < 10 { return digit }
    let letter = (byte | 0x20) &- UInt8(ascii: "a")
    if letter < 6 { return letter + 10 }
    return nil
}
