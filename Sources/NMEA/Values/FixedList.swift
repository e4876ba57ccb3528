/// A list of at most `capacity` elements stored inline: no heap allocation, ever.
///
/// Decoders use it for the satellites of a GSV sentence and the PRNs of a GSA sentence, so those decode without
/// allocating and can be kept after the bytes they came from are gone. Unused slots hold
/// ``FixedListElement/placeholder`` and are never seen.
public struct FixedList<let capacity: Int, Element: FixedListElement>: RandomAccessCollection {
    @usableFromInline var storage: InlineArray<capacity, Element>
    @usableFromInline var storedCount: Int

    /// An empty list.
    @inlinable @inline(__always)
    public init() {
        storage = InlineArray(repeating: Element.placeholder)
        storedCount = 0
    }

    /// The number of elements.
    @inlinable public var count: Int { storedCount }
    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements kept.
    @inlinable public var endIndex: Int { storedCount }

    /// - Complexity: O(1).
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < storedCount, "index out of range")
        return storage[unchecked: position]
    }

    /// Removes every element (the storage is kept as it is).
    /// - Complexity: O(1).
    @inlinable
    public mutating func removeAll() {
        storedCount = 0
    }

    /// Walks the list by calling the subscript's getter.
    ///
    /// Its own iterator, rather than the default `IndexingIterator`, keeps `for`-`in` and the `Sequence` algorithms
    /// (`map`, `reduce`, `contains`…) away from the subscript's read coroutine, which allocates a frame per element
    /// when it runs unspecialized, as in debug builds.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let list: FixedList
        @usableFromInline var position = 0

        @usableFromInline init(_ list: FixedList) { self.list = list }

        /// - Complexity: O(1).
        @inlinable
        public mutating func next() -> Element? {
            guard position < list.count else { return nil }
            defer { position += 1 }
            return list[position]
        }
    }

    /// The elements, in order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(self) }

    /// `true` when no more elements fit.
    @inlinable public var isFull: Bool { storedCount == capacity }

    /// Appends `element`; returns `false` (and drops it) when the list is full.
    /// - Complexity: O(1).
    @inlinable @discardableResult
    public mutating func append(_ element: Element) -> Bool {
        guard storedCount < capacity else { return false }
        storage[unchecked: storedCount] = element
        storedCount &+= 1  // below capacity: cannot overflow
        return true
    }
}

/// A type that can fill the unused slots of a ``FixedList``.
public protocol FixedListElement {
    /// Any value; it is stored in unused slots and never read.
    static var placeholder: Self { get }
}

extension UInt16: FixedListElement {
    /// 0, for empty slots.
    @inlinable public static var placeholder: UInt16 { 0 }
}

extension Int: FixedListElement {
    /// 0, for empty slots.
    @inlinable public static var placeholder: Int { 0 }
}

extension Optional: FixedListElement {
    /// `nil`, for empty slots.
    @inlinable public static var placeholder: Wrapped? { nil }
}

extension FixedList: Equatable where Element: Equatable {
    /// Equal when every value is.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

extension FixedList: Hashable where Element: Hashable {
    /// Hashes the values ``==`` compares.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension FixedList: Sendable where Element: Sendable {}

extension FixedList: ExpressibleByArrayLiteral {
    /// A list of the given elements; any beyond `capacity` are dropped.
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init()
        for element in elements { append(element) }
    }
}

// Embedded Swift has no `Array.description` (it prints elements by reflection): there the list has none.
#if !hasFeature(Embedded)
    extension FixedList: CustomStringConvertible {
        /// The elements as an array prints them: `[1, 2, 3]`.
        public var description: String { Array(self).description }
    }
#endif

extension FixedList: BitwiseCopyable where Element: BitwiseCopyable {}
