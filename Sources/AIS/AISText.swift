/// Where a six-bit ASCII text of an AIS message is (a ship's name, a call sign, a destination): its characters stay
/// in the message's bits and are read when asked (``AISMessage/forEachCharacter(of:_:)``,
/// ``AISMessage/string(_:)``), so decoding copies no text and allocates nothing, and a value holding a text is
/// small.
public struct AISText: Sendable, Equatable {
    // Bits and counts are below 1,024 (a message's most bits): stored in 16 bits each, a text is 8 bytes, so that
    // the typed reports holding texts stay small to copy.
    @usableFromInline let storedStart: UInt16
    @usableFromInline let storedCount: UInt16
    /// Characters read from `start` before the text continues at `continuation` (type 21's name extension); equal to
    /// `count` for a text in one piece.
    @usableFromInline let storedHeadCount: UInt16
    @usableFromInline let storedContinuation: UInt16

    /// The bit of the first character.
    public var start: Int { Int(storedStart) }
    /// The number of characters (after the `@` terminator and trailing spaces are removed).
    public var count: Int { Int(storedCount) }

    init(start: Int, count: Int, headCount: Int? = nil, continuation: Int = 0) {
        storedStart = UInt16(truncatingIfNeeded: start)
        storedCount = UInt16(truncatingIfNeeded: count)
        storedHeadCount = UInt16(truncatingIfNeeded: headCount ?? count)
        storedContinuation = UInt16(truncatingIfNeeded: continuation)
    }

    /// `true` for a text with no characters.
    public var isEmpty: Bool { count == 0 }

    /// The bit of character `index`.
    @inlinable
    func bit(of index: Int) -> Int {
        let headCount = Int(storedHeadCount)
        return index < headCount ? start + index * 6 : Int(storedContinuation) + (index - headCount) * 6
    }

    /// The ASCII byte of a six-bit value: 0…31 are `@`, `A`…`Z`, `[\]^_`; 32…63 are space to `?`.
    @inlinable
    static func ascii(_ value: UInt32) -> UInt8 {
        value < 32 ? UInt8(value) &+ 64 : UInt8(value)
    }
}

extension AISMessage {
    /// Calls `body` with each character of `text` as an ASCII byte, in order.
    public func forEachCharacter(of text: AISText, _ body: (UInt8) throws -> Void) rethrows {
        try payload.withBits { bits in
            for index in 0..<text.count { try body(AISText.ascii(bits.paddedUnsigned(text.bit(of: index), 6))) }
        }
    }

    /// `text` as a `String` (this allocates; ``forEachCharacter(of:_:)`` does not).
    public func string(_ text: AISText) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        forEachCharacter(of: text) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
