extension FieldReader {
    // MARK: Time and date

    /// A UTC time `hhmmss`, `hhmmss.`, or `hhmmss.s…` (up to nine fraction digits are kept), or `nil` when empty.
    @inlinable @inline(always)
    public mutating func time() throws(NMEAError) -> UTCTime? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.time() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard end - start >= 6, let hour = twoDigits(start), let minute = twoDigits(start + 2),
            let second = twoDigits(start + 4)
        else {
            return try outOfLine { (reader) throws(NMEAError) in try reader.timeSlowly() }
        }
        guard hour < 24, minute < 60, second <= 60 else { throw failure(.outOfRange) }
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
            return try outOfLine { (reader) throws(NMEAError) in try reader.timeSlowly() }
        }
        position = cursor + 1
        return UTCTime(
            hour: hour, minute: minute, second: second, nanoseconds: nanoseconds,
            fractionDigits: fractionDigits)
    }

    /// Times padded with spaces (` 222519`, `222517 `, which some loggers write), and errors: a field too short
    /// (`1235`) or not digits.
    @usableFromInline @inline(never)
    mutating func timeSlowly() throws(NMEAError) -> UTCTime? {
        let start = position
        var fieldEnd = start
        while !endsField(fieldEnd) { fieldEnd += 1 }
        var first = start
        var last = fieldEnd
        while first < last && first.pointee == UInt8(ascii: " ") { first += 1 }
        while last > first && (last - 1).pointee == UInt8(ascii: " ") { last -= 1 }
        guard first != start || last != fieldEnd, last - first >= 6 else {
            throw failure(fieldEnd - start < 6 ? .badLength : .notANumber)
        }
        // Read the trimmed digits as a field of their own: the byte after them is a space, a comma or the stop byte.
        let time: UTCTime?
        do throws(NMEAError) {
            var inner = FieldReader(position: first, end: last, fieldsStart: first)
            time = try inner.time()
        } catch {
            throw failure(.notANumber)
        }
        position = fieldEnd + 1
        return time
    }

    /// A date `ddmmyy` with its two-digit year expanded (see ``UTCDate/expandingTwoDigitYear(_:)``), or `nil` when
    /// empty.
    @inlinable @inline(always)
    public mutating func date() throws(NMEAError) -> UTCDate? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.date() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard end - start >= 6, endsField(start + 6) else { throw failure(.badLength) }
        guard let day = twoDigits(start), let month = twoDigits(start + 2), let year = twoDigits(start + 4) else {
            throw failure(.notANumber)
        }
        guard month &- 1 < 12, day &- 1 < 31 else { throw failure(.outOfRange) }
        position = start + 7
        return UTCDate(year: UTCDate.expandingTwoDigitYear(Int(year)), month: month, day: day)
    }
}
