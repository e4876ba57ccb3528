/// A parsed JSON value, for reading the small documents that arrive from peers: OwnTracks messages and trips over
/// MQTT, gpsd's reports (one object per line).
///
/// A reader of our own instead of Foundation's `JSONSerialization`, so the `nmea` tool does not load Foundation for
/// the sake of a few flat objects. Strict RFC 8259: one value, nothing but whitespace around it, nesting at most 64
/// deep; numbers as `Double`. O(*n*) in the document's length.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `bytes` (UTF-8): one value, white space around it allowed.
    /// - Parameter maximumDepth: the deepest nesting accepted (arrays and objects inside each other); lower it for
    ///   input from strangers.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>, maximumDepth: Int = 64) throws(JSONParseError) {
        let array = Array(bytes)
        var parser = Parser(bytes: array, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        self = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == array.count else { throw JSONParseError(offset: parser.index, reason: "trailing data") }
    }

    /// The member `key` of an object; `nil` for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number when it is an integer (within ±2⁵³).
    public var integer: Int? {
        guard let number, number == number.rounded(.towardZero), abs(number) <= 9_007_199_254_740_992 else {
            return nil
        }
        return Int(number)
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth < maximumDepth else { throw fail("nested too deeply") }
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ text: StaticString) throws(JSONParseError) {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail("unexpected end") }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] {
                throw fail("unknown literal")
            }
            index += count
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipWhitespace()
                members[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw fail("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw fail("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
                index += 1
                return .array(elements)
            }
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail("bad \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func string() throws(JSONParseError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            func flush(_ end: Int) {
                if end > start {
                    scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars)
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw fail("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                flush(index)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalars.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!)
                        } else {
                            // A high surrogate without its low half: a replacement character, and the next escape
                            // for what it is.
                            scalars.append("\u{FFFD}")
                            scalars.append(Unicode.Scalar(low) ?? "\u{FFFD}")
                        }
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")  // a lone surrogate
                    }
                default: throw fail("unknown escape")
                }
                start = index
            }
            throw fail("unterminated string")
        }

        mutating func number() throws(JSONParseError) -> Double {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                index += 1
                digits += 1
            }
            guard digits > 0 else { throw fail("unexpected character") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var fraction = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    index += 1
                    fraction += 1
                }
                guard fraction > 0 else { throw fail("digits expected after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                var exponent = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    index += 1
                    exponent += 1
                }
                guard exponent > 0 else { throw fail("digits expected in the exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                throw fail("bad number")
            }
            return value
        }
    }
}

/// A JSON document could not be read.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the problem.
    public var offset: Int
    public var reason: String
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
