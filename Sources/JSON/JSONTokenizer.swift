import NMEA

/// The one JSON reader (RFC 8259), streaming, fed in chunks of any size: it hands out each value's events — objects
/// and arrays opening and closing, keys, strings, numbers, booleans and nulls — as it completes them, holding only the
/// string or number being read (at most ``maximumTokenBytes``) and the stack of open containers. Malformed JSON throws
/// ``JSONParseError`` with the byte offset and the line. ``JSONValue`` is built on it, for documents read whole; track
/// files are read event by event, in constant memory.
///
/// - Complexity: O(*n*) in the bytes fed.
public struct JSONTokenizer: Sendable {
    public enum Event: Sendable {
        case objectStart, objectEnd, arrayStart, arrayEnd
        case key(String)
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    private enum Container {
        /// In an object: `expectingKey` before a key (or `}`), else after a key and its `:` (awaiting the value).
        case object(expectingKey: Bool)
        case array
    }

    private enum State {
        /// Between tokens: a value, a `,`, a `:`, or a closer may come.
        case between
        case string(escape: Bool, isKey: Bool)
        /// `\u` with `count` hex digits so far, whose value is `value`. (No payload that needs counting references:
        /// the state is copied on every byte.)
        case unicode(count: UInt8, value: UInt32, isKey: Bool)
        case number
        case literal
    }

    public let maximumTokenBytes: Int
    public let maximumDepth: Int
    private var state = State.between
    private var stack: [Container] = []
    private var token: [UInt8] = []
    /// The longest number or word read. Our own writer writes numbers in plain decimal, never with an exponent, and
    /// a `Double` so written runs to 327 characters (`-0.` and 307 zeros before the 17 digits of 2.2e-308): every
    /// number we write reads back, and a hostile one still costs at most this much memory.
    static let maximumTokenLength = 400
    /// `true` when the next token must be a value (after `:`, `,` in an array, `[`, or at the start).
    private var expectingValue = true
    private var pendingSurrogate: UInt32?
    private var sawRoot = false
    /// The line being read (1-based).
    public private(set) var line = 1
    /// Bytes taken so far, over every chunk: an error's offset.
    public private(set) var offset = 0

    public init(maximumTokenBytes: Int = 1 << 20, maximumDepth: Int = 256) {
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumDepth = maximumDepth
    }

    /// Reads the next bytes; `handler` receives each event with the depth of the container it is in (or, for a
    /// container's start and end, of the container itself) and its line. Generic, so that the handler is called
    /// directly, without a closure.
    public mutating func feed<H: JSONEventHandler>(_ bytes: UnsafeRawBufferPointer, into handler: inout H)
        throws(JSONParseError)
    {
        var index = 0
        let base = offset
        defer { offset = base + index }
        var position = 0
        do throws(JSONParseError) {
            while index < bytes.count {
                position = index
                try step(bytes, &index, &handler)
            }
        } catch {
            // Errors are made where the byte's offset is not known: it is the byte being read.
            var located = error
            if located != Self.stopped { located.offset = base + position }
            throw located
        }
    }

    /// Thrown by a handler of events to stop the reading with an error of its own (which it keeps): passed through as
    /// it is, not placed at an offset.
    public static let stopped = JSONParseError(offset: -1, reason: "stopped")

    /// Reads the byte at `index` (and, in runs of plain bytes, the ones after it), moving `index` past what it read.
    @inline(__always)
    private mutating func step<H: JSONEventHandler>(
        _ bytes: UnsafeRawBufferPointer, _ index: inout Int, _ handler: inout H
    ) throws(JSONParseError) {
        let byte = bytes[index]
        switch state {
        case .string(false, let isKey)
        where byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") && byte >= 0x20
            && pendingSurrogate == nil:
            try plainRun(bytes, &index, isKey: isKey, &handler)
        case .string(let escape, let isKey):
            index += 1
            if escape {
                try escaped(byte, isKey: isKey)
            } else {
                try stringByte(byte, isKey: isKey, &handler)
            }
        case .unicode(let count, let value, let isKey):
            index += 1
            try unicodeDigit(byte, count: count, value: value, isKey: isKey)
        case .number, .literal:
            let start = index
            while index < bytes.count && Self.isTokenByte(bytes[index]) { index += 1 }
            if token.isEmpty && index < bytes.count && index - start <= Self.maximumTokenLength {
                // The whole number or word in this chunk: read straight from it.
                try finishScalar(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), &handler)
                return
            }
            token.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            if token.count > Self.maximumTokenLength {
                throw error("a number or word longer than \(Self.maximumTokenLength) characters")
            }
            if index < bytes.count { try finishScalar(&handler) }
        case .between:
            index += 1
            if byte == 0x20 || byte == 0x09 || byte == 0x0D { return }  // white space: nothing to do
            try between(byte, &handler)
            // A number or word begins at this byte: read with the rest of it, from here.
            if case .number = state { index -= 1 } else if case .literal = state { index -= 1 }
        }
    }

    /// A run of plain bytes in a string, from `index`, taken in one piece: most strings have no escapes.
    @inline(__always)
    private mutating func plainRun<H: JSONEventHandler>(
        _ bytes: UnsafeRawBufferPointer, _ index: inout Int, isKey: Bool, _ handler: inout H
    ) throws(JSONParseError) {
        let start = index
        index += 1
        while index < bytes.count {
            let next = bytes[index]
            if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { break }
            index += 1
        }
        if token.isEmpty && index < bytes.count && bytes[index] == UInt8(ascii: "\"")
            && index - start <= maximumTokenBytes
        {
            // The whole string in this chunk, without escapes: taken straight from it.
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            try finishString(text, isKey: isKey, &handler)
            return
        }
        token.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        if token.count > maximumTokenBytes {
            throw error("a string longer than \(maximumTokenBytes) bytes")
        }
    }

    /// The byte after a backslash in a string.
    @inline(__always)
    private mutating func escaped(_ byte: UInt8, isKey: Bool) throws(JSONParseError) {
        state = .string(escape: false, isKey: isKey)
        if byte != UInt8(ascii: "u") { flushSurrogate() }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): token.append(byte)
        case UInt8(ascii: "b"): token.append(0x08)
        case UInt8(ascii: "f"): token.append(0x0C)
        case UInt8(ascii: "n"): token.append(0x0A)
        case UInt8(ascii: "r"): token.append(0x0D)
        case UInt8(ascii: "t"): token.append(0x09)
        case UInt8(ascii: "u"): state = .unicode(count: 0, value: 0, isKey: isKey)
        default: throw error("a bad escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }

    /// A byte in a string that does not start a plain run: a backslash, the closing quote, a control character,
    /// or a byte after a pending surrogate.
    @inline(__always)
    private mutating func stringByte<H: JSONEventHandler>(_ byte: UInt8, isKey: Bool, _ handler: inout H)
        throws(JSONParseError)
    {
        if byte == UInt8(ascii: "\\") {
            state = .string(escape: true, isKey: isKey)
        } else if byte == UInt8(ascii: "\"") {
            flushSurrogate()
            let text = String(decoding: token, as: UTF8.self)
            token.removeAll(keepingCapacity: true)
            try finishString(text, isKey: isKey, &handler)
        } else if byte < 0x20 {
            throw error(byte == 0x0A ? "a string not closed on its line" : "a control character in a string")
        } else {
            flushSurrogate()
            token.append(byte)
            if token.count > maximumTokenBytes {
                throw error("a string longer than \(maximumTokenBytes) bytes")
            }
        }
    }

    /// A hex digit of a `\uXXXX` escape; the fourth makes a scalar, or half of a surrogate pair.
    @inline(__always)
    private mutating func unicodeDigit(_ byte: UInt8, count: UInt8, value: UInt32, isKey: Bool)
        throws(JSONParseError)
    {
        guard let digit = Hex.value(of: byte) else { throw error("a bad \\u escape in a string") }
        if count < 3 {
            state = .unicode(count: count + 1, value: value << 4 | UInt32(digit), isKey: isKey)
            return
        }
        let unit = value << 4 | UInt32(digit)
        state = .string(escape: false, isKey: isKey)
        if (0xDC00..<0xE000).contains(unit), let high = pendingSurrogate {
            pendingSurrogate = nil
            let scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
            token += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
        } else {
            flushSurrogate()
            if (0xD800..<0xDC00).contains(unit) {
                pendingSurrogate = unit
            } else {
                // A lone low surrogate is no scalar either: a replacement character.
                token += Array(String(Character(Unicode.Scalar(unit) ?? "\u{FFFD}")).utf8)
            }
        }
    }

    /// ``feed(_:into:)`` with a closure for the handler.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, _ event: (Event, _ depth: Int, _ line: Int) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try withoutActuallyEscaping(event) { (event) throws(JSONParseError) in
            var handler = ClosureHandler(event: event)
            try feed(bytes, into: &handler)
        }
    }

    /// ``finish(into:)`` with a closure for the handler.
    public mutating func finish(_ event: (Event, Int, Int) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try withoutActuallyEscaping(event) { (event) throws(JSONParseError) in
            var handler = ClosureHandler(event: event)
            try finish(into: &handler)
        }
    }

    private struct ClosureHandler: JSONEventHandler {
        let event: (Event, Int, Int) throws(JSONParseError) -> Void
        func handle(_ event: Event, depth: Int, line: Int) throws(JSONParseError) { try self.event(event, depth, line) }
    }

    /// Checks the document ended complete (and hands out a number or word that ended with it).
    public mutating func finish<H: JSONEventHandler>(into handler: inout H) throws(JSONParseError) {
        switch state {
        case .number, .literal: try finishScalar(&handler)
        case .string, .unicode: throw error("the file ends inside a string")
        case .between: break
        }
        if !stack.isEmpty { throw error("the file ends inside an object or array") }
        if !sawRoot { throw error("no JSON value in the file") }
    }

    private mutating func between<H: JSONEventHandler>(_ byte: UInt8, _ handler: inout H)
        throws(JSONParseError)
    {
        switch byte {
        case 0x20, 0x09, 0x0D: return  // (runs of them are skipped by feed)
        case 0x0A:
            line += 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try open(byte, &handler)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            try close(byte, &handler)
        case UInt8(ascii: "\""):
            if keyRead { throw error("a ':' was expected after the key") }
            afterComma = false
            if case .object(expectingKey: true)? = stack.last, !expectingValue {
                state = .string(escape: false, isKey: true)
                return
            }
            try expectValue(byte)
            state = .string(escape: false, isKey: false)
        case UInt8(ascii: ":"):
            guard case .object(expectingKey: true)? = stack.last, !expectingValue, keyRead else {
                throw error("a ':' out of place")
            }
            stack[stack.count - 1] = .object(expectingKey: false)
            expectingValue = true
            keyRead = false
        case UInt8(ascii: ","):
            guard !expectingValue, !keyRead else { throw error("a ',' out of place") }
            switch stack.last {
            case .object?: stack[stack.count - 1] = .object(expectingKey: true)
            case .array?: expectingValue = true
            case nil: throw error("a ',' after the root value")
            }
            afterComma = true
        default:
            guard Self.isTokenByte(byte) else { throw error("an unexpected '\(Character(Unicode.Scalar(byte)))'") }
            try expectValue(byte)
            afterComma = false
            state = byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) ? .number : .literal
        }
    }

    /// `{` or `[`: an object or array opens.
    private mutating func open<H: JSONEventHandler>(_ byte: UInt8, _ handler: inout H) throws(JSONParseError) {
        try expectValue(byte)
        afterComma = false
        guard stack.count < maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
        sawRoot = true
        if byte == UInt8(ascii: "{") {
            stack.append(.object(expectingKey: true))
            expectingValue = false
            try handler.handle(.objectStart, depth: stack.count, line: line)
        } else {
            stack.append(.array)
            expectingValue = true
            try handler.handle(.arrayStart, depth: stack.count, line: line)
        }
    }

    /// `}` or `]`: the object or array open closes.
    private mutating func close<H: JSONEventHandler>(_ byte: UInt8, _ handler: inout H) throws(JSONParseError) {
        let closesObject = byte == UInt8(ascii: "}")
        if afterComma || keyRead { throw error("a '\(Character(Unicode.Scalar(byte)))' after a ',' or a key") }
        switch stack.last {
        case .object(let expectingKey)? where closesObject && expectingKey: break
        case .array? where !closesObject: break
        default: throw error("a '\(Character(Unicode.Scalar(byte)))' that closes nothing open")
        }
        let depth = stack.count
        stack.removeLast()
        try handler.handle(closesObject ? .objectEnd : .arrayEnd, depth: depth, line: line)
        valueEnded()
    }

    /// A high surrogate (`\uD800`–`\uDBFF`) not followed by its low half: a replacement character, so that
    /// nothing after it is lost.
    private mutating func flushSurrogate() {
        guard pendingSurrogate != nil else { return }
        pendingSurrogate = nil
        token += Array("\u{FFFD}".utf8)
    }

    /// Set between a key and its `:`.
    private var keyRead = false
    /// Set after a `,`, until the next key or value.
    private var afterComma = false

    private mutating func expectValue(_ byte: UInt8) throws(JSONParseError) {
        if stack.isEmpty && sawRoot { throw error("more after the root value") }
        guard expectingValue else {
            throw error("a value where a ',', ':' or closer was expected ('\(Character(Unicode.Scalar(byte)))')")
        }
    }

    /// A string ended: a key, or a value.
    private mutating func finishString<H: JSONEventHandler>(_ text: String, isKey: Bool, _ handler: inout H)
        throws(JSONParseError)
    {
        state = .between
        if isKey {
            keyRead = true
            try handler.handle(.key(text), depth: stack.count, line: line)
        } else {
            try value(.string(text), &handler)
        }
    }

    /// The number or word gathered in the token ended.
    private mutating func finishScalar<H: JSONEventHandler>(_ handler: inout H) throws(JSONParseError) {
        let bytes = token
        token.removeAll(keepingCapacity: true)
        let result = bytes.withUnsafeBytes { bytes in
            Result { () throws(JSONParseError) in try finishScalar(bytes, &handler) }
        }
        try result.get()
    }

    /// The number or word `bytes` ended.
    private mutating func finishScalar<H: JSONEventHandler>(_ bytes: UnsafeRawBufferPointer, _ handler: inout H)
        throws(JSONParseError)
    {
        let wasNumber: Bool
        if case .number = state { wasNumber = true } else { wasNumber = false }
        state = .between
        sawRoot = true
        if wasNumber {
            guard let number = Self.number(bytes) else {
                throw error("a bad number '\(String(decoding: bytes, as: UTF8.self))'")
            }
            try value(.number(number), &handler)
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            switch text {
            case "true": try value(.bool(true), &handler)
            case "false": try value(.bool(false), &handler)
            case "null": try value(.null, &handler)
            default: throw error("an unknown word '\(text)'")
            }
        }
    }

    private mutating func value<H: JSONEventHandler>(_ value: Event, _ handler: inout H)
        throws(JSONParseError)
    {
        sawRoot = true
        try handler.handle(value, depth: stack.count, line: line)
        valueEnded()
    }

    private mutating func valueEnded() {
        expectingValue = false
        if case .object(expectingKey: false)? = stack.last {
            // A member's value: the next thing is ',' or '}'.
            stack[stack.count - 1] = .object(expectingKey: true)
            keyRead = false
        }
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: offset, line: line, reason: reason)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "E")
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// 10^0 … 10^22, each exact in a `Double`.
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The value of `bytes` when they are a number of RFC 8259's form (`nil` otherwise). Clinger's fast path where
    /// it applies: an integer below 2^53 and a power of ten up to 10^22 are both exact doubles, so one division
    /// (correctly rounded) gives the correctly rounded value, as strtod would; `Double(_:)` (strtod) otherwise.
    static func number(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard isJSONNumber(bytes) else { return nil }
        var mantissa: UInt64 = 0
        var significant = 0
        var fraction = 0
        var afterPoint = false
        var negative = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                if afterPoint { fraction += 1 }
            default: return Double(String(decoding: bytes, as: UTF8.self))  // an exponent
            }
        }
        guard significant <= 15, fraction <= 22 else { return Double(String(decoding: bytes, as: UTF8.self)) }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        var bytes = text[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { (0x30...0x39).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "0") { bytes = bytes.dropFirst() } else if digits() == 0 { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

/// What receives a ``JSONTokenizer``'s events.
public protocol JSONEventHandler {
    /// One event, with the depth of the container it is in (or, for a container's start and end, of the container
    /// itself) and its line.
    mutating func handle(_ event: JSONTokenizer.Event, depth: Int, line: Int) throws(JSONParseError)
}
