/// A list of at most `capacity` elements stored inline: no heap allocation, ever.
///
/// Decoders use it for the satellites of a GSV sentence and the PRNs of a GSA sentence, so those decode without
/// allocating and can be kept after the bytes they came from are gone.
public struct FixedList<let capacity: Int, Element>: RandomAccessCollection {
    var storage: InlineArray<capacity, Element?>
    public private(set) var count: Int

    /// An empty list.

    public init() {
        storage = InlineArray(repeating: nil)
        count = 0
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// - Complexity: O(1).

    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index out of range")
        return storage[position]!
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

    @inlinable
    public func makeIterator() -> Iterator { Iterator(self) }

    /// `true` when no more elements fit.
    @inlinable public var isFull: Bool { count == capacity }

    /// Appends `element`; returns `false` (and drops it) when the list is full.
    /// - Complexity: O(1).
    @discardableResult
    public mutating func append(_ element: Element) -> Bool {
        guard count < capacity else { return false }
        storage[count] = element
        count += 1
        return true
    }
}

extension FixedList: Equatable where Element: Equatable {

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

extension FixedList: Hashable where Element: Hashable {

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension FixedList: Sendable where Element: Sendable {}

extension FixedList: ExpressibleByArrayLiteral {
    /// A list of the given elements; any beyond `capacity` are dropped.

    public init(arrayLiteral elements: Element...) {
        self.init()
        for element in elements { append(element) }
    }
}

extension FixedList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
