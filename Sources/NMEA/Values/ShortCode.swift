/// A code of up to eight ASCII characters packed into an integer: datum codes (`W84`), u-blox navigation status
/// (`G3`). Copying and comparing one costs what an `Int` does.
public struct ShortCode: RawRepresentable, Hashable, Sendable {
    /// The characters packed little-endian, first in the low byte, unused bytes zero.
    public var rawValue: UInt64

    /// The code whose packed characters are `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The first eight bytes of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        // An index loop: iterating a slice runs unspecialized generic code (which allocates) in debug builds.
        var value: UInt64 = 0
        for offset in 0..<min(bytes.count, 8) { value |= UInt64(bytes[offset]) << (8 * UInt64(offset)) }
        rawValue = value
    }

    /// The first eight characters of `text`.
    public init(_ text: String) {
        var copy = text
        self = copy.withUTF8 { ShortCode(UnsafeRawBufferPointer($0)) }
    }

    /// `true` when the field was empty.
    public var isEmpty: Bool { rawValue == 0 }

    /// Calls `output` with each character.
    public func write(to output: (UInt8) -> Void) {
        var value = rawValue
        while value != 0 {
            output(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }
}

extension ShortCode: CustomStringConvertible, ExpressibleByStringLiteral {
    /// A readable form, for messages and tests.
    public var description: String {
        String(writing: write)
    }

    /// The code written as `value`.
    public init(stringLiteral value: String) { self.init(value) }
}

extension FieldReader {
    /// The next field as a code of up to eight characters (longer fields keep their first eight).
    @inlinable @inline(__always)
    public mutating func code() -> ShortCode {
        outOfLine { reader in reader.readCode() }
    }

    @usableFromInline @inline(never)
    mutating func readCode() -> ShortCode {
        guard let field = nextField() else { return ShortCode(rawValue: 0) }
        return ShortCode(field.bytes)
    }

    /// The next field as one of the codes in `allowed`, written with commas between them (`"NF,DR,G2,G3"`), or
    /// empty; any other is an ``FieldError/unexpectedCharacter`` error and reads as empty.
    public mutating func code(in allowed: StaticString) -> ShortCode {
        let start = position
        let code = self.code()
        guard !code.isEmpty else { return code }
        if FieldReader.codes(allowed, contain: code) { return code }
        reject(.unexpectedCharacter, fieldAt: start)
        return ShortCode(rawValue: 0)
    }

    /// `true` when `allowed`, codes with commas between them (`"NF,DR,G2"`), holds `code`.
    static func codes(_ allowed: StaticString, contain code: ShortCode) -> Bool {
        var candidate = allowed.utf8Start
        let end = candidate + allowed.utf8CodeUnitCount
        while candidate < end {
            var stop = candidate
            while stop < end && stop.pointee != UInt8(ascii: ",") { stop += 1 }
            if ShortCode(UnsafeRawBufferPointer(start: candidate, count: stop - candidate)) == code { return true }
            candidate = stop + 1
        }
        return false
    }
}
