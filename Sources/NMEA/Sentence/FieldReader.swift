/// Reads a sentence's fields in order, parsing each in the same pass that finds its end.
///
/// Decoders call one method per field, in diagram order: ``time()``, ``latitude()``, ``fixedPoint()``… Each returns
/// `nil` for an empty field ("not available", never zero). The field grammar is the one place that decides what a
/// field may hold, for every decoder alike:
///
/// - **Decode what is there.** A field padded with spaces reads as its value (` 222519`, `0.9 `); one of spaces only
///   is empty, like an unused field left blank. A decimal where a whole number is expected (a satellite count of
///   `08.7`) reads as its whole part, truncated toward zero (`8`, as gpsd and C's `atoi` read it: never more than was
///   sent). An SNR is a decimal field of its own (``signalToNoise()``): `24.5` stays 24.5.
///   Reading past the last field gives empty fields, so a sentence cut short after any field — older, shorter
///   versions, or `$GPVTG,,T,,M,0.00,N` without its km/h — decodes with the fields it left off absent.
/// - **Reject only what is wrong,** and only that field: one that cannot be read (`4x07.038`, a month of 13, a
///   letter not among those a field allows: a THS mode `B`, HDT's `T` sent as `X`) is left absent, recorded in
///   ``errors`` as ``NMEAError/badField(index:reason:)`` with its field number, and the reader moves on to the next
///   field. A good field is never lost because of a bad neighbour; decoders that must refuse a sentence with any
///   bad field (``DecodableSentence/init(_:)``) throw the first of ``errors``.
///
/// The common case — digits, a point, more digits, a comma — is parsed inline with no bookkeeping beyond one
/// pointer. Digit loops do not compare against the end of the sentence: they stop at the stop byte that follows
/// every sentence the ``Framer`` hands out (the `*` of its checksum or its line ending), which is never a digit or
/// a point. A sentence made from your own bytes with ``Sentence/init(unchecked:checksum:line:)`` has no such byte:
/// its last field alone is read from a copy that ends in one, so every decoder has one body for both. Signs, odd
/// forms and errors take a slower path. Field numbers are worked out only when an error needs one.
public struct FieldReader {
    /// The start of the next field. One past `end` once every field has been read; two past once a read was
    /// attempted after that (the sentence "ran out").
    @usableFromInline var position: UnsafePointer<UInt8>
    /// The end of the sentence's fields (the byte before `*hh`).
    @usableFromInline let end: UnsafePointer<UInt8>
    /// The start of field 1 (one past `end` when the address stands alone).
    @usableFromInline let fieldsStart: UnsafePointer<UInt8>
    /// Value reads that start below this pointer may read up to and including the byte at `end`: `end + 1` when that
    /// byte is a stop byte (``Sentence/isTerminated``); otherwise the start of the last field, which is read from a
    /// terminated copy instead.
    @usableFromInline let freeLimit: UnsafePointer<UInt8>
    /// The fields that did not read so far (see ``errors``).
    @usableFromInline var recordedErrors = FieldErrors()

    /// The fields read so far that did not read: each left absent, in field order.
    @inlinable public var errors: FieldErrors { recordedErrors }

    /// A reader over `[position, end)`, where the byte at `end` is readable and is neither a digit nor a point.
    @usableFromInline
    init(position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, fieldsStart: UnsafePointer<UInt8>) {
        self.position = position
        self.end = end
        self.fieldsStart = fieldsStart
        freeLimit = end + 1
    }

    @inlinable @inline(__always)
    init(_ sentence: Sentence) {
        let base = sentence.bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
        end = base + sentence.bytes.count
        fieldsStart = base + sentence.fieldsOffset
        position = fieldsStart
        freeLimit = sentence.isTerminated ? end + 1 : FieldReader.lastFieldStart(from: fieldsStart, to: end)
    }

    /// The start of the last field of `[start, end)`: one past its last comma, or `start`.
    @usableFromInline @inline(never)
    static func lastFieldStart(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var cursor = end
        while cursor > start {
            if (cursor - 1).pointee == UInt8(ascii: ",") { return cursor }
            cursor -= 1
        }
        return start
    }

    /// Runs `body`, a slow path that is not inlined, on a copy of the reader that then replaces it. The reader a
    /// decoder reads with never has its address taken, so it stays in registers on the fast path.
    @inlinable @inline(__always)
    mutating func outOfLine<T>(_ body: (inout FieldReader) -> T) -> T {
        var copy = self
        defer { self = copy }
        return body(&copy)
    }

    /// Reads the field at ``position`` with `read` when it may not run freely to the stop byte: past the last field
    /// (an absent value), or the last field of a sentence that is not terminated, which `read` then reads from a copy
    /// followed by a stop byte. Errors keep the field numbers they would have had.
    @inlinable @inline(__always)
    mutating func readingLastField<T>(_ read: (inout FieldReader) -> T?) -> T? {
        outOfLine { reader in reader.readLastField(read) }
    }

    @inlinable @inline(never)
    mutating func readLastField<T>(_ read: (inout FieldReader) -> T?) -> T? {
        guard position <= end else { return ranOut() }
        let count = end - position
        let start = position
        let (value, past, innerErrors) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) {
            buffer -> (T?, Int, FieldErrors) in
            let copy = buffer.baseAddress.unsafelyUnwrapped
            copy.initialize(from: start, count: count)
            (copy + count).initialize(to: UInt8(ascii: "*"))
            var inner = FieldReader(
                position: UnsafePointer(copy), end: UnsafePointer(copy + count),
                fieldsStart: UnsafePointer(copy))
            let value = read(&inner)
            return (value, inner.position - inner.end, inner.recordedErrors)
        }
        if !innerErrors.isEmpty { recordedErrors.append(innerErrors, offset: index - 1) }
        position = end + past
        return value
    }

    /// Records that the field at `fieldStart` did not read, for `reason`, and moves past it and the `fields - 1`
    /// after it (the hemisphere after a bad latitude): they are absent.
    @usableFromInline @inline(never)
    mutating func reject(_ reason: FieldError, fieldAt fieldStart: UnsafePointer<UInt8>, fields: Int = 1) {
        let index = fieldsStart > end ? 1 : 1 + ByteScan.count(UInt8(ascii: ","), from: fieldsStart, to: fieldStart)
        recordedErrors.append(index: index, reason: reason)
        position = fieldStart
        skip(fields)
    }

    /// The value and the end of the field at ``position`` without the spaces around it, for the slow paths (the
    /// byte at `end` must be readable: a read below ``freeLimit``).
    @usableFromInline
    func trimmedField() -> (start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, fieldEnd: UnsafePointer<UInt8>) {
        var fieldEnd = position
        while !endsField(fieldEnd) { fieldEnd += 1 }
        var first = position
        var last = fieldEnd
        while first < last && first.pointee == UInt8(ascii: " ") { first += 1 }
        while last > first && (last - 1).pointee == UInt8(ascii: " ") { last -= 1 }
        return (first, last, fieldEnd)
    }

    /// Reads the field at ``position`` without the spaces around it (at least one) with `read`, from a copy followed
    /// by a stop byte; errors keep the field's number.
    @usableFromInline @inline(never)
    mutating func readingTrimmed<T>(_ read: (inout FieldReader) -> T?) -> T? {
        let (first, last, fieldEnd) = trimmedField()
        return readingPart(first, last, fieldEnd: fieldEnd, read)
    }

    /// Reads `[first, last)`, a part of the field at ``position`` that ends at `fieldEnd`, with `read`, from a copy
    /// followed by a stop byte, and moves past the field; errors keep the field's number.
    @usableFromInline
    mutating func readingPart<T>(
        _ first: UnsafePointer<UInt8>, _ last: UnsafePointer<UInt8>, fieldEnd: UnsafePointer<UInt8>,
        _ read: (inout FieldReader) -> T?
    ) -> T? {
        let fieldStart = position
        let count = last - first
        let (value, innerErrors) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) {
            buffer -> (T?, FieldErrors) in
            let copy = buffer.baseAddress.unsafelyUnwrapped
            copy.initialize(from: first, count: count)
            (copy + count).initialize(to: UInt8(ascii: "*"))
            var inner = FieldReader(
                position: UnsafePointer(copy), end: UnsafePointer(copy + count), fieldsStart: UnsafePointer(copy))
            return (read(&inner), inner.recordedErrors)
        }
        position = fieldEnd + 1
        if !innerErrors.isEmpty {
            let index = 1 + ByteScan.count(UInt8(ascii: ","), from: fieldsStart, to: fieldStart)
            recordedErrors.append(innerErrors, offset: index - 1)
        }
        return value
    }

    /// `true` when the field at ``position`` starts or ends with a space (a read below ``freeLimit``).
    @usableFromInline
    func fieldHasSpaces() -> Bool {
        let (first, last, fieldEnd) = trimmedField()
        return first != position || last != fieldEnd
    }

    /// The index of the next field to be read, counting from 1 for the first after the address.
    /// - Complexity: O(*n*) in the length of the sentence (it is worked out, not kept).
    public var index: Int {
        if fieldsStart > end { return 1 }
        let scanned = position > end ? end : position
        return 1 + ByteScan.count(UInt8(ascii: ","), from: fieldsStart, to: scanned) + (position > end ? 1 : 0)
    }

    /// The number of fields in the sentence.
    /// - Complexity: O(*n*).
    @usableFromInline var fieldCount: Int { Self.fieldCount(from: fieldsStart, to: end) }

    /// The number of fields from `start` (field 1) to `end`.
    static func fieldCount(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> Int {
        start > end ? 0 : 1 + ByteScan.count(UInt8(ascii: ","), from: start, to: end)
    }

    /// Throws ``NMEAError/tooFewFields(expected:found:)`` when the sentence has fewer than `count` fields.
    /// - Complexity: O(*n*) in the length of the sentence; decoders use the O(1) ``requireRead(_:)``.
    public func require(_ count: Int) throws(NMEAError) {
        try Self.require(count, fieldsFrom: fieldsStart, to: end)
    }

    /// ``require(_:)`` given the two pointers it reads, so that a decoder's check does not copy the reader.
    @usableFromInline
    static func require(_ count: Int, fieldsFrom start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>)
        throws(NMEAError)
    {
        let found = fieldCount(from: start, to: end)
        if found < count { throw .tooFewFields(expected: count, found: found) }
    }

    /// After `count` or more fields have been read: throws ``NMEAError/tooFewFields(expected:found:)`` when the
    /// sentence had fewer than `count` (some of those reads went past its end).
    /// - Complexity: O(1) when no read went past the last field.
    @inlinable @inline(__always)
    public func requireRead(_ count: Int) throws(NMEAError) {
        if position > end + 1 { try Self.require(count, fieldsFrom: fieldsStart, to: end) }
    }

    /// `true` while fields remain to be read.
    @inlinable
    public var hasMore: Bool { position <= end }

    /// `true` when the next field is the last one.
    @inlinable @inline(__always)
    public var isAtLastField: Bool {
        guard position <= end else { return false }
        var cursor = position
        while cursor < end {
            if cursor.pointee == UInt8(ascii: ",") { return false }
            cursor += 1
        }
        return true
    }

    /// The next field as a raw view, or `nil` after the last.
    @inlinable @inline(always)
    public mutating func nextField() -> Field? {
        guard position <= end else { return ranOut() }
        let start = position
        var cursor = start
        while cursor < end && cursor.pointee != UInt8(ascii: ",") { cursor += 1 }
        position = cursor + 1
        return Field(UnsafeRawBufferPointer(start: start, count: cursor - start))
    }

    /// The next field copied as text (up to ``ShortText/capacity`` bytes); empty when absent.
    @inlinable @inline(__always)
    public mutating func text() -> ShortText {
        outOfLine { reader in reader.readText() }
    }

    @usableFromInline @inline(never)
    mutating func readText() -> ShortText {
        ShortText(nextField()?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Everything from the next field to the end of the sentence, commas included; the reader is then at the end.
    public mutating func remainder() -> UnsafeRawBufferPointer {
        guard position <= end else {
            position = end + 2
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let start = position
        position = end + 1
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }

    /// Skips `count` fields.
    @inlinable @inline(always)
    public mutating func skip(_ count: Int = 1) {
        for _ in 0..<count { _ = nextField() }
    }

    /// Notes that a read went past the last field; returns `nil` for the caller to return.
    @inlinable @inline(always)
    mutating func ranOut<T>() -> T? {
        position = end + 2
        return nil
    }

    /// `true` when the field ends at `cursor`: a comma or the end of the sentence. Inside a value read, where the
    /// byte at `end` is readable (see ``freeLimit``).
    @inlinable @inline(always)
    func endsField(_ cursor: UnsafePointer<UInt8>) -> Bool {
        // Most fields end at a comma: a branch on it first, rather than both tests and an `or`.
        _fastPath(cursor.pointee == UInt8(ascii: ",")) || cursor == end
    }

    // MARK: Single characters

    /// A one-character field (a status `A`, a mode `D`), or `nil` when empty (or a space). Longer is a
    /// ``FieldError/badLength`` error.
    @inlinable @inline(always)
    public mutating func character() -> UInt8? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.character() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard endsField(start + 1) else { return outOfLine { reader in reader.characterSlowly() } }
        position = start + 2
        let character = start.pointee
        return character == UInt8(ascii: " ") ? nil : character
    }

    /// A letter with spaces around it, and errors.
    @usableFromInline @inline(never)
    mutating func characterSlowly() -> UInt8? {
        let (first, last, fieldEnd) = trimmedField()
        guard last - first <= 1 else {
            reject(.badLength, fieldAt: position)
            return nil
        }
        position = fieldEnd + 1
        return first == last ? nil : first.pointee
    }

    /// A one-letter indicator that must be one of `allowed` (a mode `A`, a selection `M`), or `nil` when empty. Any
    /// other letter is an ``FieldError/unexpectedCharacter`` error, never passed on as if it meant something.
    @inlinable @inline(__always)
    public mutating func letter(in allowed: StaticString) -> UInt8? {
        let start = position
        guard let letter = character() else { return nil }
        if FieldReader.contains(allowed, letter) { return letter }
        outOfLine { reader in reader.reject(.unexpectedCharacter, fieldAt: start) }
        return nil
    }

    /// A unit or fixed letter (`M` after an altitude, VTG's `T`, `M`, `N`, `K`): empty, or `expected`; anything else
    /// is an ``FieldError/unexpectedCharacter`` error.
    @inlinable @inline(__always)
    public mutating func unit(_ expected: Unicode.Scalar) {
        let start = position
        guard let letter = character(), letter != UInt8(truncatingIfNeeded: expected.value) else { return }
        outOfLine { reader in reader.reject(.unexpectedCharacter, fieldAt: start) }
    }

    /// A field of letters that must each be one of `allowed` (GNS's mode per system, `DAAA`), or `nil` when empty;
    /// one letter that is not allowed makes the field an ``FieldError/unexpectedCharacter`` error.
    public mutating func letters(in allowed: StaticString) -> Field? {
        let start = position
        guard let field = nextField(), !field.isEmpty else { return nil }
        for offset in 0..<field.bytes.count where !FieldReader.contains(allowed, field.bytes[offset]) {
            reject(.unexpectedCharacter, fieldAt: start)
            return nil
        }
        return field
    }

    /// `true` when `letters` holds `letter`. Inlined, so that a literal's letters become comparisons.
    @inlinable @inline(__always)
    static func contains(_ letters: StaticString, _ letter: UInt8) -> Bool {
        let start = letters.utf8Start
        for offset in 0..<letters.utf8CodeUnitCount where start[offset] == letter { return true }
        return false
    }

    // MARK: Numbers

    /// A whole number with an optional sign, or `nil` when empty. A decimal reads as its whole part, truncated
    /// toward zero (`24.5` is 24, `-3.7` is −3).
    @inlinable @inline(always)
    public mutating func integer() -> Int? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.integer() }
        }
        // The commonest forms without a loop: one or two digits. (A byte is read only after the one before it
        // proved a digit, so never past the stop byte.)
        let start = position
        let first = start.pointee &- UInt8(ascii: "0")
        if first < 10 {
            let second = start[1] &- UInt8(ascii: "0")
            if second >= 10 {
                if endsField(start + 1) {
                    position = start + 2
                    return Int(first)
                }
            } else if endsField(start + 2) {
                position = start + 3
                return Int(first &* 10 &+ second)
            }
        } else if endsField(start) {
            position = start + 1
            return nil
        }
        var cursor = start
        var value = 0
        var digit = first
        while digit < 10 {
            value = value &* 10 &+ Int(digit)
            cursor += 1
            digit = cursor.pointee &- UInt8(ascii: "0")
        }
        if endsField(cursor) && cursor - start <= 18 {
            position = cursor + 1
            return value
        }
        return outOfLine { reader in reader.integerSlowly() }
    }

    /// Signs, decimals, spaces, overlong and malformed integers.
    @usableFromInline @inline(never)
    mutating func integerSlowly() -> Int? {
        fixedPoint().map { Int($0.integerPart) }
    }

    /// A fast path for small unsigned fields (PRNs, angles, SNRs): the value, −1 for an empty field (or one past
    /// the last), or −2 for anything else — a sign, a point, a letter, more than six digits — in which case the
    /// reader has not moved and the caller reads the field the careful way.
    @inlinable @inline(always)
    mutating func smallUnsigned() -> Int {
        guard position < freeLimit else {
            return readingLastField { inner -> Int? in inner.smallUnsigned() } ?? -1
        }
        var cursor = position
        var value = 0
        var digit = cursor.pointee &- UInt8(ascii: "0")
        while digit < 10 {
            value = value &* 10 &+ Int(digit)
            cursor += 1
            digit = cursor.pointee &- UInt8(ascii: "0")
        }
        guard endsField(cursor), cursor - position <= 6 else { return -2 }
        let empty = cursor == position
        position = cursor + 1
        return empty ? -1 : value
    }

    /// `true` once a read went past the last field.
    @inlinable
    var ranPastEnd: Bool { position > end + 1 }

    /// A whole number that must lie in `range`, or `nil` when empty; outside it, an ``FieldError/outOfRange``
    /// error.
    @inlinable @inline(always)
    public mutating func integer(in range: ClosedRange<Int>) -> Int? {
        let start = position
        guard let value = integer() else { return nil }
        guard range.contains(value) else {
            outOfLine { reader in reader.reject(.outOfRange, fieldAt: start) }
            return nil
        }
        return value
    }

    /// A decimal number (`-12.5`, `004.20`, `.5`), kept exactly as sent, or `nil` when empty.
    @inlinable @inline(always)
    public mutating func fixedPoint() -> FixedPoint? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.fixedPoint() }
        }
        // `d.dd` and `d.d` (DOPs, HDOPs, errors) without a loop. (A byte is read only after the one before it proved
        // a digit or the point, so never past the stop byte.)
        let start = position
        let units = start.pointee &- UInt8(ascii: "0")
        if units < 10 && start[1] == UInt8(ascii: ".") {
            let tenths = start[2] &- UInt8(ascii: "0")
            if tenths < 10 {
                let hundredths = start[3] &- UInt8(ascii: "0")
                if hundredths < 10 {
                    if endsField(start + 4) {
                        position = start + 5
                        let value = Int64(units) &* 100 &+ Int64(tenths) &* 10 &+ Int64(hundredths)
                        return FixedPoint(significand: value, scale: 2)
                    }
                } else if endsField(start + 3) {
                    position = start + 4
                    return FixedPoint(significand: Int64(units) &* 10 &+ Int64(tenths), scale: 1)
                }
            }
        }
        var cursor = start
        var significand: Int64 = 0
        var digit = units
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
        // Fast path: digits, maybe a point and digits, then the end of the field; 1 to 18 digits.
        let digits = (cursor - position) &- point
        if endsField(cursor) && UInt(bitPattern: digits &- 1) < 18 {
            position = cursor + 1
            return FixedPoint(significand: significand, scale: UInt8(truncatingIfNeeded: scale))
        }
        if cursor == position && endsField(cursor) {
            position = cursor + 1
            return nil
        }
        return outOfLine { reader in reader.fixedPointSlowly() }
    }

    /// Signs, `.5`, spaces, errors and overflow.
    @usableFromInline @inline(never)
    mutating func fixedPointSlowly() -> FixedPoint? {
        if fieldHasSpaces() { return readingTrimmed { inner in inner.fixedPoint() } }
        let fieldStart = position
        var cursor = position
        var negative = false
        if cursor < end && (cursor.pointee == UInt8(ascii: "-") || cursor.pointee == UInt8(ascii: "+")) {
            negative = cursor.pointee == UInt8(ascii: "-")
            cursor += 1
        }
        var significand: Int64 = 0
        var digits = 0
        var scale = 0
        var sawPoint = false
        while !endsField(cursor) {
            let byte = cursor.pointee
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                significand = significand &* 10 &+ Int64(digit)
                digits += 1
                if sawPoint { scale += 1 }
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                reject(.notANumber, fieldAt: fieldStart)
                return nil
            }
            cursor += 1
        }
        guard digits > 0, digits <= 18 else {
            reject(digits == 0 ? .notANumber : .overflow, fieldAt: fieldStart)
            return nil
        }
        position = cursor + 1
        return FixedPoint(significand: negative ? -significand : significand, scale: UInt8(scale))
    }

    /// A hexadecimal number (`1F`), or `nil` when empty.
    @inlinable @inline(__always)
    public mutating func hexadecimal() -> UInt64? {
        // One digit, as system and signal IDs are sent, without leaving the caller.
        if position < freeLimit, let digit = Hex.value(of: position.pointee), endsField(position + 1) {
            position += 2
            return UInt64(digit)
        }
        return outOfLine { reader in reader.readHexadecimal() }
    }

    @usableFromInline @inline(never)
    mutating func readHexadecimal() -> UInt64? {
        guard position < freeLimit else {
            return readingLastField { inner in inner.hexadecimal() }
        }
        if fieldHasSpaces() { return readingTrimmed { inner in inner.hexadecimal() } }
        var cursor = position
        var value: UInt64 = 0
        while !endsField(cursor) {
            guard let digit = Hex.value(of: cursor.pointee), cursor - position < 16 else {
                reject(Hex.value(of: cursor.pointee) == nil ? .notANumber : .overflow, fieldAt: position)
                return nil
            }
            value = value << 4 | UInt64(digit)
            cursor += 1
        }
        let empty = cursor == position
        position = cursor + 1
        return empty ? nil : value
    }

    /// A number followed by its direction letter (`003.1,W`): negative when the letter is `negative`, positive when
    /// it is `positive` or absent. `nil` when the number is empty, or when the letter is another one (an
    /// ``FieldError/unexpectedCharacter`` error: the sign is unknown).
    @inlinable @inline(always)
    public mutating func signed(positive: Unicode.Scalar, negative: Unicode.Scalar) -> FixedPoint? {
        let value = fixedPoint()
        let letterStart = position
        let errorsBefore = recordedErrors.count
        let letter = character()
        guard var value, recordedErrors.count == errorsBefore else { return nil }
        switch letter {
        case UInt8(truncatingIfNeeded: negative.value): value.significand = -abs(value.significand)
        case UInt8(truncatingIfNeeded: positive.value), nil: break
        default:
            outOfLine { reader in reader.reject(.unexpectedCharacter, fieldAt: letterStart) }
            return nil
        }
        return value
    }
}

/// `true` when `[start, end)` holds no comma.
func memoryHasNoComma(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> Bool {
    var cursor = start
    while cursor < end {
        if cursor.pointee == UInt8(ascii: ",") { return false }
        cursor += 1
    }
    return true
}

/// The value of two ASCII digits at `pointer`, or `nil` when either is not a digit.
@inlinable @inline(always)
func twoDigits(_ pointer: UnsafePointer<UInt8>) -> UInt8? {
    let tens = pointer[0] &- UInt8(ascii: "0")
    let ones = pointer[1] &- UInt8(ascii: "0")
    guard tens < 10, ones < 10 else { return nil }
    return tens &* 10 &+ ones
}
