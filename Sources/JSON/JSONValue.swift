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

    /// Parses `bytes` (UTF-8): one value, white space around it allowed (``JSONTokenizer``, the one reader).
    /// - Parameter maximumDepth: the deepest nesting accepted (arrays and objects inside each other); lower it for
    ///   input from strangers.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>, maximumDepth: Int = 64) throws(JSONParseError) {
        var tokenizer = JSONTokenizer(maximumDepth: maximumDepth)
        var builder = Builder()
        try Self.withContiguousBytes(bytes) { (buffer) throws(JSONParseError) in
            try tokenizer.feed(buffer, into: &builder)
            try tokenizer.finish(into: &builder)
        }
        self = builder.value ?? .null
    }

    /// Reads `bytes` as one JSON object and hands its members to `body` in document order, without building the
    /// object (each value is built as usual): for readers that pick a few known keys out of many messages.
    /// - Returns: `false` when the document is valid JSON but not an object (`body` is not called).
    /// - Throws: ``JSONParseError`` as ``init(parsing:maximumDepth:)`` does.
    public static func forEachMember(
        ofObject bytes: some Collection<UInt8>, maximumDepth: Int = 64, _ body: (String, JSONValue) -> Void
    ) throws(JSONParseError) -> Bool {
        var tokenizer = JSONTokenizer(maximumDepth: maximumDepth)
        return try withoutActuallyEscaping(body) { (body) throws(JSONParseError) -> Bool in
            var members = MemberReader(body: body)
            try withContiguousBytes(bytes) { (buffer) throws(JSONParseError) in
                try tokenizer.feed(buffer, into: &members)
                try tokenizer.finish(into: &members)
            }
            return members.isObject == true
        }
    }

    /// The root object's members, one by one, for ``forEachMember(ofObject:maximumDepth:_:)``.
    private struct MemberReader: JSONEventHandler {
        let body: (String, JSONValue) -> Void
        var builder = Builder()
        var isObject: Bool?
        var key = ""

        mutating func handle(_ event: JSONTokenizer.Event, depth: Int, line: Int) throws(JSONParseError) {
            if isObject == nil {
                if case .objectStart = event { isObject = true } else { isObject = false }
                if isObject == true { return }
            }
            guard isObject == true else { return }
            if depth == 1, case .key(let name) = event {
                key = name
                return
            }
            if depth == 1, case .objectEnd = event { return }
            builder.value = nil
            try builder.handle(event, depth: depth, line: line)
            if let value = builder.value { body(key, value) }
        }
    }

    /// Calls `body` with `bytes` as one contiguous buffer (copying them only when they are not).
    private static func withContiguousBytes(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try body(UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        let array = Array(bytes)
        let copied = array.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try body(buffer) }
        }
        try copied.get()
    }

    /// Builds values from a ``JSONTokenizer``'s events. The containers being built are kept open on a stack and
    /// appended to in place (wrapping each in a ``JSONValue`` as it grows would copy it on every element: quadratic in
    /// a long array).
    public struct Builder: Sendable, JSONEventHandler {
        private struct Frame: Sendable {
            var key: String?
            var isObject: Bool
            var members: [String: JSONValue] = [:]
            var values: [JSONValue] = []
        }

        private var stack: [Frame] = []
        private var key: String?
        /// The last value completed at the builder's top level (a document's root, one by one a stream's values).
        public var value: JSONValue?

        public init() {}

        /// Adds an event (``JSONEventHandler``); a value it completes is ``value``.
        public mutating func handle(_ event: JSONTokenizer.Event, depth: Int, line: Int) throws(JSONParseError) {
            if let complete = add(event) { value = complete }
        }

        /// `true` when no value is being built.
        public var isEmpty: Bool { stack.isEmpty }

        /// Adds an event; returns the value when it completes one at the builder's top level.
        public mutating func add(_ event: JSONTokenizer.Event) -> JSONValue? {
            switch event {
            case .key(let name):
                key = name
                return nil
            case .objectStart:
                var frame = Frame(key: key, isObject: true)
                frame.members.reserveCapacity(12)
                stack.append(frame)
                key = nil
                return nil
            case .arrayStart:
                stack.append(Frame(key: key, isObject: false))
                key = nil
                return nil
            case .objectEnd, .arrayEnd:
                let frame = stack.removeLast()
                return place(frame.isObject ? .object(frame.members) : .array(frame.values), key: frame.key)
            case .string(let text): return place(.string(text), key: key)
            case .number(let value): return place(.number(value), key: key)
            case .bool(let value): return place(.bool(value), key: key)
            case .null: return place(.null, key: key)
            }
        }

        private mutating func place(_ value: JSONValue, key name: String?) -> JSONValue? {
            key = nil
            guard !stack.isEmpty else { return value }
            let top = stack.count - 1
            if stack[top].isObject {
                stack[top].members[name ?? ""] = value
            } else {
                stack[top].values.append(value)
            }
            return nil
        }
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
}

/// A JSON document could not be read.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset (0-based) of the problem.
    public var offset: Int
    /// Its line (1-based).
    public var line: Int
    public var reason: String
    public init(offset: Int, line: Int = 1, reason: String) {
        self.offset = offset
        self.line = line
        self.reason = reason
    }
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
