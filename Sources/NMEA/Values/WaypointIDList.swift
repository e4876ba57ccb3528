/// Identifiers (``WaypointID``) packed end to end into one inline buffer of `bytes` bytes, at most `capacity` of
/// them: a route's waypoints, a transducer reading's names, with no allocation and a fraction of the room of a list
/// of ``WaypointID`` values (20 bytes each whatever their length).
///
/// Keeping sentence values small matters beyond memory: ``ParsedSentence`` is as large as its largest case, and it
/// is copied whole wherever the optimizer does not build it in place.
///
/// - Complexity: access by index and `count` are O(1); ``append(_:)`` is O(*n*) in the identifier's length.
public struct WaypointIDList<let bytes: Int, let capacity: Int>: RandomAccessCollection, Hashable, Sendable {
    @usableFromInline var pool: InlineArray<bytes, UInt8>
    /// Where each identifier ends in ``pool`` (it begins where the one before ends).
    @usableFromInline var ends: InlineArray<capacity, UInt8>
    /// Bit *i* set: identifier *i* was longer than ``WaypointID/capacity`` and kept its first bytes.
    @usableFromInline var truncated: UInt64 = 0
    @usableFromInline var storedCount: UInt8 = 0

    /// An empty list.
    @inlinable
    public init() {
        precondition(bytes <= 255 && capacity <= 64, "a WaypointIDList holds at most 255 bytes and 64 identifiers")
        pool = InlineArray(repeating: 0)
        ends = InlineArray(repeating: 0)
    }

    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of names kept.
    @inlinable public var endIndex: Int { Int(storedCount) }

    /// `true` when another identifier of `length` bytes (as a ``WaypointID`` keeps it) would not fit.
    @inlinable
    public func isFull(forLength length: Int) -> Bool {
        Int(storedCount) == capacity || usedBytes + Swift.min(length, WaypointID.capacity) > bytes
    }

    @inlinable
    var usedBytes: Int { storedCount == 0 ? 0 : Int(ends[Int(storedCount) - 1]) }

    /// Adds `id` at the end; `false` (and nothing added) when it does not fit.
    @inlinable @discardableResult
    public mutating func append(_ id: WaypointID) -> Bool {
        let length = Int(id.count)
        guard !isFull(forLength: length) else { return false }
        var end = usedBytes
        for index in 0..<length {
            pool[end] = id.storage[index]
            end += 1
        }
        if id.isTruncated { truncated |= 1 << UInt64(storedCount) }
        ends[Int(storedCount)] = UInt8(end)
        storedCount += 1
        return true
    }

    /// Iterates over the names kept.
    public struct Iterator: IteratorProtocol {
        let list: WaypointIDList
        var position = 0

        /// The next name, or `nil` after the last.
        public mutating func next() -> WaypointID? {
            guard position < list.count else { return nil }
            defer { position += 1 }
            return list[position]
        }
    }

    /// The names, in order.
    public func makeIterator() -> Iterator { Iterator(list: self) }

    /// The name at `position`.
    public subscript(position: Int) -> WaypointID {
        precondition(position >= 0 && position < Int(storedCount), "index out of range")
        let start = position == 0 ? 0 : Int(ends[position - 1])
        let end = Int(ends[position])
        var id = WaypointID.placeholder
        for index in 0..<(end - start) { id.storage[index] = pool[start + index] }
        id.count = UInt8(end - start)
        id.isTruncated = truncated & (1 << UInt64(position)) != 0
        return id
    }

    /// Equal when every value is.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for id in self { hasher.combine(id) }
    }
}
