extension FieldReader {
    // MARK: Time and date

    /// A UTC time `hhmmss`, `hhmmss.`, or `hhmmss.s…` (up to nine fraction digits are kept), or `nil` when empty.
    @inlinable @inline(always)
    public mutating func time() -> UTCTime? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.time() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard end - start >= 6, let hour = twoDigits(start), let minute = twoDigits(start + 2),
            let second = twoDigits(start + 4)
        else {
            return outOfLine { reader in reader.timeSlowly() }
        }
        guard hour < 24, minute < 60, second <= 60 else {
            outOfLine { reader in reader.reject(.outOfRange, fieldAt: start) }
            return nil
        }
        var cursor = start + 6
        var nanoseconds: UInt32 = 0
        var fractionDigits: UInt8 = 0
        if cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            var unit: UInt32 = 100_000_000
            var digit = cursor.pointee &- UInt8(ascii: "0")
            while digit < 10 {
                if fractionDigits < 9 {
                    nanoseconds &+= UInt32(digit) &* unit
                    unit /= 10
                    fractionDigits &+= 1
                }
                cursor += 1
                digit = cursor.pointee &- UInt8(ascii: "0")
            }
        }
        guard endsField(cursor) else {
            return outOfLine { reader in reader.timeSlowly() }
        }
        position = cursor + 1
        return UTCTime(
            hour: hour, minute: minute, second: second, nanoseconds: nanoseconds,
            fractionDigits: fractionDigits)
    }

    /// Times padded with spaces (` 222519`, `222517 `, which some loggers write), and errors: a field too short
    /// (`1235`) or not digits.
    @usableFromInline @inline(never)
    mutating func timeSlowly() -> UTCTime? {
        let start = position
        let (first, last, fieldEnd) = trimmedField()
        if first == last {
            // Spaces only: an empty field.
            position = fieldEnd + 1
            return nil
        }
        guard first != start || last != fieldEnd, last - first >= 6 else {
            reject(last - first < 6 ? .badLength : .notANumber, fieldAt: start)
            return nil
        }
        // Read the trimmed digits as a field of their own: the byte after them is a space, a comma or the stop byte.
        var inner = FieldReader(position: first, end: last, fieldsStart: first)
        let time = inner.time()
        guard inner.recordedErrors.isEmpty else {
            reject(
                inner.recordedErrors.first == .badField(index: 1, reason: .outOfRange) ? .outOfRange : .notANumber,
                fieldAt: start)
            return nil
        }
        position = fieldEnd + 1
        return time
    }

    /// A date `ddmmyy` with its two-digit year expanded (see ``UTCDate/expandingTwoDigitYear(_:)``), or `nil` when
    /// empty.
    @inlinable @inline(always)
    public mutating func date() -> UTCDate? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.date() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard end - start >= 6, endsField(start + 6), let day = twoDigits(start), let month = twoDigits(start + 2),
            let year = twoDigits(start + 4), month &- 1 < 12, day &- 1 < 31
        else {
            return outOfLine { reader in reader.dateSlowly() }
        }
        position = start + 7
        return UTCDate(year: UTCDate.expandingTwoDigitYear(Int(year)), month: month, day: day)
    }

    /// Dates with spaces around them, and errors: the wrong number of digits, not digits, a month of 13.
    @usableFromInline @inline(never)
    mutating func dateSlowly() -> UTCDate? {
        if fieldHasSpaces() { return readingTrimmed { inner in inner.date() } }
        let start = position
        let (_, _, fieldEnd) = trimmedField()
        guard fieldEnd - start == 6 else {
            reject(.badLength, fieldAt: start)
            return nil
        }
        let isDigits = twoDigits(start) != nil && twoDigits(start + 2) != nil && twoDigits(start + 4) != nil
        reject(isDigits ? .outOfRange : .notANumber, fieldAt: start)
        return nil
    }
}
