/// A six-bit ASCII text of an AIS message (a ship's name, a call sign, a destination): read from the payload when
/// asked, so decoding a message copies no text and allocates nothing.
public struct AISText: Sendable, Equatable, Sequence {
    let payload: AISPayload
    let start: Int
    /// The number of characters (after the `@` terminator and trailing spaces are removed).
    public let count: Int

    /// `true` for a text with no characters.
    public var isEmpty: Bool { count == 0 }

    /// The ASCII byte of a six-bit value: 0…31 are `@`, `A`…`Z`, `[\]^_`; 32…63 are space to `?`.
    @inlinable
    static func ascii(_ value: UInt32) -> UInt8 {
        value < 32 ? UInt8(value) &+ 64 : UInt8(value)
    }

    /// The characters as ASCII bytes, in order.
    public struct Iterator: IteratorProtocol {
        let text: AISText
        var index = 0
        public mutating func next() -> UInt8? {
            guard index < text.count else { return nil }
            defer { index += 1 }
            return AISText.ascii(text.payload.unsigned(text.start + index * 6, 6))
        }
    }

    public func makeIterator() -> Iterator { Iterator(text: self) }

    /// The text as a `String` (this allocates; ``makeIterator()`` does not).
    public var string: String { String(decoding: Array(self), as: UTF8.self) }

    public static func == (a: AISText, b: AISText) -> Bool { a.elementsEqual(b) }
}
