/// Up to 80 bytes of text kept inline, so text fields (TXT messages, datum names) decode without allocating.
///
/// NMEA sentences are at most 82 characters, so a text field fits; a longer one (from a receiver that breaks the
/// limit) keeps its first 80 bytes and sets ``isTruncated``.
public struct ShortText: Hashable, Sendable {
    /// The most bytes kept.
    public static let capacity = 80
    @usableFromInline var storage: InlineArray<80, UInt8>
    /// The number of bytes kept.
    public private(set) var count: Int
    /// `true` when the field was longer than ``capacity`` bytes and its end was dropped.
    public private(set) var isTruncated: Bool

    /// Copies `bytes` (up to ``capacity`` of them).
    public init(_ bytes: UnsafeRawBufferPointer) {
        storage = InlineArray(repeating: 0)
        count = min(bytes.count, ShortText.capacity)
        isTruncated = bytes.count > ShortText.capacity
        for index in 0..<count { storage[index] = bytes[index] }
    }

    /// Copies the UTF-8 of `text`.
    public init(_ text: String) {
        var copy = text
        self = copy.withUTF8 { ShortText(UnsafeRawBufferPointer($0)) }
    }

    /// `true` when there is no text.
    public var isEmpty: Bool { count == 0 }

    /// The text as a `String` (invalid UTF-8 repaired).
    public var string: String {
        withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the kept bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// Equal when every value is.
    public static func == (lhs: ShortText, rhs: ShortText) -> Bool {
        lhs.count == rhs.count && lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }
}

extension ShortText: CustomStringConvertible, ExpressibleByStringLiteral {
    /// A readable form, for messages and tests.
    public var description: String { string }
    /// The text `value`.
    public init(stringLiteral value: String) { self.init(value) }
}
