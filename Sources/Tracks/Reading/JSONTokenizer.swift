/// A streaming JSON tokenizer (RFC 8259) for track files, fed in chunks of any size: it hands out each value's
/// events — objects and arrays opening and closing, keys, strings, numbers, booleans and nulls — as it completes them,
/// holding only the string or number being read (at most ``maximumTokenBytes``) and the stack of open containers.
/// Malformed JSON throws ``TrackReadError`` with its line.
struct JSONTokenizer {
    enum Event {
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
        /// `\u` with the hex digits so far.
        case unicode(digits: [UInt8], isKey: Bool)
        case number
        case literal
    }

    let maximumTokenBytes: Int
    let maximumDepth: Int
    private var state = State.between
    private var stack: [Container] = []
    private var token: [UInt8] = []
    /// `true` when the next token must be a value (after `:`, `,` in an array, `[`, or at the start).
    private var expectingValue = true
    private var pendingSurrogate: UInt32?
    private var sawRoot = false
    private(set) var line = 1

    init(maximumTokenBytes: Int = 1 << 20, maximumDepth: Int = 256) {
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumDepth = maximumDepth
    }

    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, _ event: (Event, _ depth: Int, _ line: Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .string(let escape, let isKey):
                index += 1
                if escape {
                    state = .string(escape: false, isKey: isKey)
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): token.append(byte)
                    case UInt8(ascii: "b"): token.append(0x08)
                    case UInt8(ascii: "f"): token.append(0x0C)
                    case UInt8(ascii: "n"): token.append(0x0A)
                    case UInt8(ascii: "r"): token.append(0x0D)
                    case UInt8(ascii: "t"): token.append(0x09)
                    case UInt8(ascii: "u"): state = .unicode(digits: [], isKey: isKey)
                    default: throw error("a bad escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
                    }
                } else if byte == UInt8(ascii: "\\") {
                    state = .string(escape: true, isKey: isKey)
                } else if byte == UInt8(ascii: "\"") {
                    state = .between
                    let text = String(decoding: token, as: UTF8.self)
                    token.removeAll(keepingCapacity: true)
                    if isKey {
                        keyRead = true
                        try event(.key(text), stack.count, line)
                    } else {
                        try value(.string(text), event)
                    }
                } else if byte < 0x20 {
                    throw error(byte == 0x0A ? "a string not closed on its line" : "a control character in a string")
                } else {
                    token.append(byte)
                    if token.count > maximumTokenBytes {
                        throw error("a string longer than \(maximumTokenBytes) bytes")
                    }
                }
            case .unicode(var digits, let isKey):
                index += 1
                guard let digit = Self.hexValue(byte) else { throw error("a bad \\u escape in a string") }
                digits.append(digit)
                if digits.count < 4 {
                    state = .unicode(digits: digits, isKey: isKey)
                    continue
                }
                let unit = digits.reduce(UInt32(0)) { $0 << 4 | UInt32($1) }
                state = .string(escape: false, isKey: isKey)
                if (0xD800..<0xDC00).contains(unit) {
                    pendingSurrogate = unit
                } else if (0xDC00..<0xE000).contains(unit), let high = pendingSurrogate {
                    pendingSurrogate = nil
                    let scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    token += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
                } else {
                    pendingSurrogate = nil
                    token += Array(String(Character(Unicode.Scalar(unit) ?? "\u{FFFD}")).utf8)
                }
            case .number, .literal:
                if Self.isTokenByte(byte) {
                    token.append(byte)
                    index += 1
                    if token.count > 64 { throw error("a number or word longer than 64 characters") }
                    continue
                }
                try finishScalar(event)
            case .between:
                index += 1
                try between(byte, event)
            }
        }
    }

    /// Checks the document ended complete.
    mutating func finish(_ event: (Event, Int, Int) throws(TrackReadError) -> Void) throws(TrackReadError) {
        switch state {
        case .number, .literal: try finishScalar(event)
        case .string, .unicode: throw error("the file ends inside a string")
        case .between: break
        }
        if !stack.isEmpty { throw error("the file ends inside an object or array") }
        if !sawRoot { throw error("no JSON value in the file") }
    }

    private mutating func between(_ byte: UInt8, _ event: (Event, Int, Int) throws(TrackReadError) -> Void)
        throws(TrackReadError)
    {
        switch byte {
        case 0x20, 0x09, 0x0D: return
        case 0x0A:
            line += 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try expectValue(byte)
            afterComma = false
            guard stack.count < maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
            sawRoot = true
            if byte == UInt8(ascii: "{") {
                stack.append(.object(expectingKey: true))
                expectingValue = false
                try event(.objectStart, stack.count, line)
            } else {
                stack.append(.array)
                expectingValue = true
                try event(.arrayStart, stack.count, line)
            }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            let closesObject = byte == UInt8(ascii: "}")
            if afterComma || keyRead { throw error("a '\(Character(Unicode.Scalar(byte)))' after a ',' or a key") }
            switch stack.last {
            case .object(let expectingKey)? where closesObject && expectingKey: break
            case .array? where !closesObject: break
            default: throw error("a '\(Character(Unicode.Scalar(byte)))' that closes nothing open")
            }
            let depth = stack.count
            stack.removeLast()
            try event(closesObject ? .objectEnd : .arrayEnd, depth, line)
            valueEnded()
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
            token = [byte]
            state = byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) ? .number : .literal
        }
    }

    /// Set between a key and its `:`.
    private var keyRead = false
    /// Set after a `,`, until the next key or value.
    private var afterComma = false

    private mutating func expectValue(_ byte: UInt8) throws(TrackReadError) {
        if stack.isEmpty && sawRoot { throw error("more after the root value") }
        guard expectingValue else {
            throw error("a value where a ',', ':' or closer was expected ('\(Character(Unicode.Scalar(byte)))')")
        }
    }

    private mutating func finishScalar(_ event: (Event, Int, Int) throws(TrackReadError) -> Void) throws(TrackReadError)
    {
        let text = String(decoding: token, as: UTF8.self)
        let wasNumber: Bool
        if case .number = state { wasNumber = true } else { wasNumber = false }
        state = .between
        token.removeAll(keepingCapacity: true)
        sawRoot = true
        if wasNumber {
            guard Self.isJSONNumber(text), let number = Double(text) else { throw error("a bad number '\(text)'") }
            try value(.number(number), event)
        } else {
            switch text {
            case "true": try value(.bool(true), event)
            case "false": try value(.bool(false), event)
            case "null": try value(.null, event)
            default: throw error("an unknown word '\(text)'")
            }
        }
    }

    private mutating func value(_ value: Event, _ event: (Event, Int, Int) throws(TrackReadError) -> Void)
        throws(TrackReadError)
    {
        sawRoot = true
        try event(value, stack.count, line)
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

    private func error(_ reason: String) -> TrackReadError { TrackReadError(line: line, reason) }

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

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
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
