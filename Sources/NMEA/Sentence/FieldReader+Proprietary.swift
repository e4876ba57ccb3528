extension FieldReader {
    // MARK: Forms that proprietary sentences use

    /// A date `mmddyy`, month first, as Trimble's `$PTNL` messages send it, with its two-digit year expanded (see
    /// ``UTCDate/expandingTwoDigitYear(_:)``); `nil` when empty. The wrong number of digits, a character that is no
    /// digit, or a month or day out of range is an error, as for ``date()``.
    public mutating func monthFirstDate() -> UTCDate? {
        outOfLine { reader in reader.readMonthFirstDate() }
    }

    @usableFromInline @inline(never)
    mutating func readMonthFirstDate() -> UTCDate? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.readMonthFirstDate() }
        }
        if fieldHasSpaces() { return readingTrimmed { inner in inner.readMonthFirstDate() } }
        let start = position
        let (_, _, fieldEnd) = trimmedField()
        if fieldEnd == start {
            position = start + 1
            return nil
        }
        guard fieldEnd - start == 6 else {
            reject(.badLength, fieldAt: start)
            return nil
        }
        guard let month = twoDigits(start), let day = twoDigits(start + 2), let year = twoDigits(start + 4) else {
            reject(.notANumber, fieldAt: start)
            return nil
        }
        guard month &- 1 < 12, day &- 1 < 31 else {
            reject(.outOfRange, fieldAt: start)
            return nil
        }
        position = fieldEnd + 1
        return UTCDate(year: UTCDate.expandingTwoDigitYear(Int(year)), month: month, day: day)
    }

    /// A number after a label of letters in the same field, as Trimble writes heights (`EHT-6.777` ellipsoidal,
    /// `GHT+25.478` above the geoid): the label, one of `labels` (written with commas between them, `"EHT,GHT"`), and
    /// the value. A number without a label reads with an empty one; an empty field is an empty label and `nil`. A
    /// label not among `labels` is an ``FieldError/unexpectedCharacter`` error, a value that is no number a
    /// ``FieldError/notANumber`` one: the field is then absent.
    public mutating func labelledFixedPoint(labels: StaticString) -> (label: ShortCode, value: FixedPoint?) {
        outOfLine { reader in reader.readLabelledFixedPoint(labels) }
    }

    @usableFromInline @inline(never)
    mutating func readLabelledFixedPoint(_ labels: StaticString) -> (label: ShortCode, value: FixedPoint?) {
        let absent = (label: ShortCode(rawValue: 0), value: FixedPoint?.none)
        guard position <= end else {
            position = end + 2
            return absent
        }
        let start = position
        var fieldEnd = start
        while fieldEnd < end && fieldEnd.pointee != UInt8(ascii: ",") { fieldEnd += 1 }
        var valueStart = start
        while valueStart < fieldEnd && (valueStart.pointee | 0x20) &- UInt8(ascii: "a") < 26 { valueStart += 1 }
        let label = ShortCode(UnsafeRawBufferPointer(start: start, count: valueStart - start))
        if valueStart == fieldEnd && label.isEmpty {
            position = fieldEnd + 1
            return absent
        }
        guard label.isEmpty || FieldReader.codes(labels, contain: label) else {
            reject(.unexpectedCharacter, fieldAt: start)
            return absent
        }
        let errorsBefore = recordedErrors.count
        let value = readingPart(valueStart, fieldEnd, fieldEnd: fieldEnd) { inner in inner.fixedPoint() }
        if value == nil && recordedErrors.count == errorsBefore {
            // A label and no number (`EHT`): nothing to read.
            recordedErrors.append(index: index - 1, reason: .notANumber)
            return absent
        }
        return value == nil ? absent : (label, value)
    }

    /// Reads field 1, the message ID of a proprietary message told apart by it (`GGK` of `$PTNL,GGK`), and checks it
    /// is `address`'s.
    /// - Throws: ``NMEAError/badField(index:reason:)`` for field 1 (``FieldError/unexpectedCharacter``) when it is
    ///   another message's, or missing.
    @usableFromInline
    mutating func expectMessage(of address: SentenceAddress) throws(NMEAError) {
        guard let field = nextField(), field.bytes.count <= 8, ShortCode(field.bytes).rawValue == address.messageID
        else { throw .badField(index: 1, reason: .unexpectedCharacter) }
    }
}
