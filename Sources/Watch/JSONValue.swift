/// A JSON document, parsed from UTF-8 bytes (RFC 8259), for reading gpsd's reports: one object per line, small.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A syntax error and where it was found.
    public struct ParseError: Error, Sendable, Hashable {
        public var offset: Int
        public var reason: String
    }

    /// Parses one JSON value that takes all of `bytes` (white space around it allowed).
    /// - Complexity: O(*n*); nesting deeper than 64 levels is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.offset == parser.bytes.count else { throw parser.error("text after the value") }
        return value
    }

    /// The member `key` of an object; `nil` for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
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

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        func error(_ reason: String) -> ParseError { ParseError(offset: offset, reason: reason) }

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw error("nested too deeply") }
            guard offset < bytes.count else { throw error("unexpected end") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
            let expected = Array(word.utf8)
            guard offset + expected.count <= bytes.count, Array(bytes[offset..<(offset + expected.count)]) == expected
            else { throw error("expected \(word)") }
            offset += expected.count
            return value
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            offset += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
                offset += 1
                skipSpace()
                members[key] = try value(depth: depth + 1)
                skipSpace()
                guard offset < bytes.count else { throw error("unexpected end") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            offset += 1
            var values: [JSONValue] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(values)
            }
            while true {
                skipSpace()
                values.append(try value(depth: depth + 1))
                skipSpace()
                guard offset < bytes.count else { throw error("unexpected end") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(values)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        }

        mutating func string() throws(ParseError) -> String {
            offset += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty {
                    scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                    run.removeAll()
                }
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard offset < bytes.count else { throw error("unexpected end") }
                    let escaped = bytes[offset]
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), offset + 1 < bytes.count,
                            bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                        {
                            offset += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            }
                        }
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: throw error("bad escape")
                    }
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    run.append(byte)
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw error("short \\u escape") }
            var code: UInt32 = 0
            for byte in bytes[offset..<(offset + 4)] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("bad hex digit")
                }
                code = code * 16 + digit
            }
            offset += 4
            return code
        }

        mutating func number() throws(ParseError) -> Double {
            let start = offset
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            func digits() -> Int {
                let first = offset
                while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                    offset += 1
                }
                return offset - first
            }
            guard digits() > 0 else { throw error("unexpected character") }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard digits() > 0 else { throw error("expected digits after '.'") }
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                guard digits() > 0 else { throw error("expected exponent digits") }
            }
            guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
                throw error("bad number")
            }
            return value
        }
    }
}
