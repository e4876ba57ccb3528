/// Up to `capacity` bytes kept inline: text and data that travel through the ring without a `String` or an array.
///
/// A value longer than `capacity` keeps its first `capacity` bytes and sets ``isTruncated``.
@frozen
public struct InlineBytes<let capacity: Int>: Sendable, BitwiseCopyable {
    @usableFromInline var storage: InlineArray<capacity, UInt8>
    @usableFromInline var storedCount: UInt16
    @usableFromInline var truncated: Bool

    /// No bytes.
    /// - Complexity: O(`capacity`) (the storage is zeroed).
    @inlinable
    public init() {
        precondition(capacity <= Int(UInt16.max), "InlineBytes holds at most 65535 bytes")
        storage = InlineArray(repeating: 0)
        storedCount = 0
        truncated = false
    }

    /// A copy of `bytes` (its first `capacity` bytes when longer).
    /// - Complexity: O(`capacity`).
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.init()
        append(bytes)
    }

    /// A copy of the UTF-8 of `text` (cut after `capacity` bytes, possibly inside a character).
    /// - Complexity: O(`capacity` + *n*).
    public init(_ text: String) {
        self.init()
        var copy = text
        copy.withUTF8 { _ = append(UnsafeRawBufferPointer($0)) }
    }

    /// `true` when bytes were dropped because they did not fit.
    /// - Complexity: O(1).
    @inlinable public var isTruncated: Bool { truncated }

    /// The number of bytes held.
    /// - Complexity: O(1).
    @inlinable public var count: Int { Int(storedCount) }

    /// `true` when no bytes are held.
    /// - Complexity: O(1).
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// How many more bytes fit.
    /// - Complexity: O(1).
    @inlinable public var freeCapacity: Int { capacity - Int(storedCount) }

    /// Appends as much of `bytes` as fits; sets ``isTruncated`` when some did not.
    /// - Returns: the number of bytes taken.
    /// - Complexity: O(*n*) in the bytes taken.
    @inlinable @discardableResult
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(bytes.count, capacity - Int(storedCount))
        if taken < bytes.count { truncated = true }
        guard taken > 0, let source = bytes.baseAddress else { return 0 }
        let offset = Int(storedCount)
        withUnsafeMutableBytes(of: &storage) { storage in
            (storage.baseAddress! + offset).copyMemory(from: source, byteCount: taken)
        }
        storedCount += UInt16(taken)
        return taken
    }

    /// Appends one byte if it fits.
    /// - Complexity: O(1).
    @inlinable
    public mutating func append(_ byte: UInt8) {
        guard Int(storedCount) < capacity else {
            truncated = true
            return
        }
        storage[Int(storedCount)] = byte
        storedCount += 1
    }

    /// Empties it, keeping the storage as it is.
    /// - Complexity: O(1).
    @inlinable
    public mutating func removeAll() {
        storedCount = 0
        truncated = false
    }

    /// Calls `body` with the bytes held (valid only during the call).
    /// - Complexity: O(1) plus `body`.
    @inlinable
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = Int(storedCount)
        return try withUnsafeBytes(of: storage) { (storage) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: storage[..<count]))
        }
    }

    /// The bytes as an array.
    /// - Complexity: O(*n*); allocates.
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// The bytes as text (invalid UTF-8 repaired).
    /// - Complexity: O(*n*); allocates.
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

extension InlineBytes: Hashable {
    /// Equal when they hold the same bytes (truncation aside).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }
}

extension InlineBytes: CustomStringConvertible, ExpressibleByStringLiteral {
    public var description: String { string }
    public init(stringLiteral value: String) { self.init(value) }
}
