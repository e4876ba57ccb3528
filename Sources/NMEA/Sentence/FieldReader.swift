/// Reads a sentence's fields in order, parsing each in the same pass that finds its end.
///
/// Decoders call one method per field, in diagram order: ``time()``, ``latitude()``, ``fixedPoint()``… Each returns
/// `nil` for an empty field ("not available", never zero) and throws ``NMEAError/badField(index:reason:)`` naming the
/// field for one it cannot read. Reading past the last field gives empty fields, so older, shorter versions of a
/// sentence decode with their newer fields absent; ``requireRead(_:)`` rejects sentences shorter than a minimum.
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
    mutating func outOfLine<T, E: Error>(_ body: (inout FieldReader) throws(E) -> T) throws(E) -> T {
        var copy = self
        defer { self = copy }
        return try body(&copy)
    }

    /// Reads the field at ``position`` with `read` when it may not run freely to the stop byte: past the last field
    /// (an absent value), or the last field of a sentence that is not terminated, which `read` then reads from a copy
    /// followed by a stop byte. Errors keep the field numbers they would have had.
    @inlinable @inline(__always)
    mutating func readingLastField<T>(_ read: (inout FieldReader) throws(NMEAError) -> T?) throws(NMEAError) -> T? {
        try outOfLine { (reader) throws(NMEAError) in try reader.readLastField(read) }
    }

    @inlinable @inline(never)
    mutating func readLastField<T>(_ read: (inout FieldReader) throws(NMEAError) -> T?) throws(NMEAError) -> T? {
        guard position <= end else { return ranOut() }
        let count = end - position
        let start = position
        let outcome = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) {
            buffer -> Result<(T?, Int), NMEAError> in
            let copy = buffer.baseAddress.unsafelyUnwrapped
            copy.initialize(from: start, count: count)
            (copy + count).initialize(to: UInt8(ascii: "*"))
            var inner = FieldReader(
                position: UnsafePointer(copy), end: UnsafePointer(copy + count),
                fieldsStart: UnsafePointer(copy))
            do throws(NMEAError) {
                let value = try read(&inner)
                return .success((value, inner.position - inner.end))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let (value, past)):
            position = end + past
            return value
        case .failure(.badField(let index, let reason)):
            throw .badField(index: self.index + index - 1, reason: reason)
        case .failure(let error):
            throw error
        }
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
    @usableFromInline var fieldCount: Int {
        fieldsStart > end ? 0 : 1 + ByteScan.count(UInt8(ascii: ","), from: fieldsStart, to: end)
    }

    /// Throws ``NMEAError/tooFewFields(expected:found:)`` when the sentence has fewer than `count` fields.
    /// - Complexity: O(*n*) in the length of the sentence; decoders use the O(1) ``requireRead(_:)``.
    public func require(_ count: Int) throws(NMEAError) {
        let found = fieldCount
        if found < count { throw .tooFewFields(expected: count, found: found) }
    }

    /// After `count` or more fields have been read: throws ``NMEAError/tooFewFields(expected:found:)`` when the
    /// sentence had fewer than `count` (some of those reads went past its end).
    /// - Complexity: O(1) when no read went past the last field.
    @inlinable @inline(__always)
    public func requireRead(_ count: Int) throws(NMEAError) {
        if position > end + 1 { try require(count) }
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
        cursor.pointee == UInt8(ascii: ",") || cursor == end
    }

    /// The error for the field being read.
    @usableFromInline
    func failure(_ reason: FieldError) -> NMEAError { .badField(index: index, reason: reason) }

    // MARK: Single characters

    /// A one-character field (a status `A`, a mode `D`), or `nil` when empty.
    @inlinable @inline(always)
    public mutating func character() throws(NMEAError) -> UInt8? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.character() }
        }
        let start = position
        if endsField(start) {
            position = start + 1
            return nil
        }
        guard endsField(start + 1) else { throw failure(.badLength) }
        position = start + 2
        return start.pointee
    }

    // MARK: Numbers

    /// A whole number with an optional sign, or `nil` when empty.
    @inlinable @inline(always)
    public mutating func integer() throws(NMEAError) -> Int? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.integer() }
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
        return try outOfLine { (reader) throws(NMEAError) in try reader.integerSlowly() }
    }

    /// Signs, `3.0`, overlong and malformed integers.
    @usableFromInline @inline(never)
    mutating func integerSlowly() throws(NMEAError) -> Int? {
        let start = position
        guard let number = try fixedPoint() else { return nil }
        let whole = number.rescaled(to: 0)
        if whole.rescaled(to: number.scale) != number {
            position = start
            throw failure(.notANumber)
        }
        return Int(whole.significand)
    }

    /// A fast path for small unsigned fields (PRNs, angles, SNRs): the value, −1 for an empty field (or one past
    /// the last), or −2 for anything else — a sign, a point, a letter, more than six digits — in which case the
    /// reader has not moved and the caller reads the field the careful way.
    @inlinable @inline(always)
    mutating func smallUnsigned() -> Int {
        guard position < freeLimit else {
            let value = try? readingLastField { (inner) throws(NMEAError) -> Int? in inner.smallUnsigned() }
            return value ?? -1
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

    /// A whole number that must lie in `range`, or `nil` when empty.
    @inlinable @inline(always)
    public mutating func integer(in range: ClosedRange<Int>) throws(NMEAError) -> Int? {
        let start = position
        guard let value = try integer() else { return nil }
        guard range.contains(value) else {
            position = start
            throw failure(.outOfRange)
        }
        return value
    }

    /// A decimal number (`-12.5`, `004.20`, `.5`), kept exactly as sent, or `nil` when empty.
    @inlinable @inline(always)
    public mutating func fixedPoint() throws(NMEAError) -> FixedPoint? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.fixedPoint() }
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
        let digits = cursor - position - point
        if endsField(cursor) && UInt(bitPattern: digits &- 1) < 18 {
            position = cursor + 1
            return FixedPoint(significand: significand, scale: UInt8(truncatingIfNeeded: scale))
        }
        if cursor == position && endsField(cursor) {
            position = cursor + 1
            return nil
        }
        return try outOfLine { (reader) throws(NMEAError) in try reader.fixedPointSlowly() }
    }

    /// Signs, `.5`, errors and overflow.
    @usableFromInline @inline(never)
    mutating func fixedPointSlowly() throws(NMEAError) -> FixedPoint? {
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
                throw failure(.notANumber)
            }
            cursor += 1
        }
        if digits == 0 { throw failure(.notANumber) }
        if digits > 18 { throw failure(.overflow) }
        position = cursor + 1
        return FixedPoint(significand: negative ? -significand : significand, scale: UInt8(scale))
    }

    /// A hexadecimal number (`1F`), or `nil` when empty.
    @inlinable @inline(__always)
    public mutating func hexadecimal() throws(NMEAError) -> UInt64? {
        // One digit, as system and signal IDs are sent, without leaving the caller.
        if position < freeLimit, let digit = hexDigitValue(position.pointee), endsField(position + 1) {
            position += 2
            return UInt64(digit)
        }
        return try outOfLine { (reader) throws(NMEAError) in try reader.readHexadecimal() }
    }

    @usableFromInline @inline(never)
    mutating func readHexadecimal() throws(NMEAError) -> UInt64? {
        guard position < freeLimit else {
            return try readingLastField { (inner) throws(NMEAError) in try inner.hexadecimal() }
        }
        var cursor = position
        var value: UInt64 = 0
        while !endsField(cursor) {
            guard let digit = hexDigitValue(cursor.pointee) else { throw failure(.notANumber) }
            if cursor - position >= 16 { throw failure(.overflow) }
            value = value << 4 | UInt64(digit)
            cursor += 1
        }
        let empty = cursor == position
        position = cursor + 1
        return empty ? nil : value
    }

    /// A number followed by a direction letter (`003.1,W`); negative when the letter is `negative`. `nil` when the
    /// number is empty.
    @inlinable @inline(always)
    public mutating func signed(negative: UInt8) throws(NMEAError) -> FixedPoint? {
        let value = try fixedPoint()
        let letter = try character()
        guard var value else { return nil }
        if letter == negative { value.significand = -abs(value.significand) }
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

/// The value of one hexadecimal digit (either case), or `nil`.
@inlinable @inline(always)
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    let digit = byte &- UInt8(ascii: "0")
    if digit < 10 { return digit }
    let letter = (byte | 0x20) &- UInt8(ascii: "a")
    if letter < 6 { return letter &+ 10 }
    return nil
}
