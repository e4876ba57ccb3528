/// A waypoint's identifier as sent (`003`, `PBRCPK`, `MARINA N`): up to ``capacity`` bytes kept inline, so that a
/// route's list of them allocates nothing.
public struct WaypointID: Hashable, Sendable, FixedListElement, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// Longer identifiers keep their first 20 bytes (``isTruncated``). NMEA 0183 leaves the length open; receivers
    /// send 6 to 10 characters.
    public static let capacity = 20
    @usableFromInline var storage: InlineArray<20, UInt8>
    /// The number of bytes kept.
    public internal(set) var count: UInt8
    /// `true` when the name was longer than the capacity and its end was dropped.
    public internal(set) var isTruncated: Bool

    /// An empty name, for the slots of a fixed list.
    public static var placeholder: WaypointID { WaypointID(UnsafeRawBufferPointer(start: nil, count: 0)) }

    /// Copies `bytes` (up to ``capacity`` of them).
    public init(_ bytes: UnsafeRawBufferPointer) {
        storage = InlineArray(repeating: 0)
        let kept = min(bytes.count, WaypointID.capacity)
        count = UInt8(kept)
        isTruncated = bytes.count > WaypointID.capacity
        for index in 0..<kept { storage[index] = bytes[index] }
    }

    /// The name `text` (its first bytes, up to the capacity).
    public init(_ text: String) {
        var text = text
        self = text.withUTF8 { WaypointID(UnsafeRawBufferPointer($0)) }
    }

    /// The name `value`.
    public init(stringLiteral value: String) { self.init(value) }

    /// `true` for an empty name.
    public var isEmpty: Bool { count == 0 }

    /// The bytes, in order.
    public var bytes: some Sequence<UInt8> {
        let storage = storage
        return (0..<Int(count)).lazy.map { storage[$0] }
    }

    /// The name as a `String` (invalid UTF-8 repaired).
    public var string: String { String(decoding: Array(bytes), as: UTF8.self) }
    /// A readable form, for messages and tests.
    public var description: String { string }

    /// Equal when every value is.
    public static func == (lhs: WaypointID, rhs: WaypointID) -> Bool {
        lhs.count == rhs.count && lhs.isTruncated == rhs.isTruncated && lhs.bytes.elementsEqual(rhs.bytes)
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        for byte in bytes { hasher.combine(byte) }
        hasher.combine(count)
    }
}

/// Which way to steer to get back on the track (RMB, XTE, APB).
public enum SteeringDirection: UInt8, Hashable, Sendable {
    case left = 76  // L
    case right = 82  // R
}

extension FieldReader {
    /// The next field as a waypoint identifier; empty when absent.
    @inline(__always)
    public mutating func waypointID() -> WaypointID {
        outOfLine { reader in reader.readWaypointID() }
    }

    @inline(never)
    mutating func readWaypointID() -> WaypointID {
        WaypointID(nextField()?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// `L` or `R`, or `nil` when empty; another letter is an ``FieldError/unexpectedCharacter`` error.
    @inline(__always)
    mutating func steeringDirection() -> SteeringDirection? {
        letter(in: "LR").flatMap(SteeringDirection.init(rawValue:))
    }

    /// `A` as `true`, `V` as `false`, `nil` when empty; another letter is an error.
    @inline(__always)
    mutating func status() -> Bool? {
        letter(in: "AV").map { $0 == UInt8(ascii: "A") }
    }
}
