import NMEA

/// Where a JSON document's commas go: one bit per nesting level, set once the level has an element.
public struct JSONStructure: Sendable {
    var hasElement: UInt64 = 0
    var depth = 0
    /// Set after a key, so the value that follows takes no comma.
    var afterKey = false

    public init() {}
}

/// JSON text written through a ``TextBuffer`` on the stack: the one place where JSON is made. A ``JSONWriter``
/// writes each of its values through one (``JSONWriter/write(_:)``); a writer of whole documents (an AIS message,
/// a sentence) writes all of its values through one, so that its document reaches the writer's bytes in one copy.
/// Lives only inside ``JSONWriter/write(_:)``; do not copy it.
public struct JSONText {
    var buffer: TextBuffer
    var structure: JSONStructure

    // MARK: Structure

    public mutating func beginObject() {
        beginValue()
        buffer.append(UInt8(ascii: "{"))
        push()
    }

    public mutating func endObject() {
        pop()
        buffer.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beginValue()
        buffer.append(UInt8(ascii: "["))
        push()
    }

    public mutating func endArray() {
        pop()
        buffer.append(UInt8(ascii: "]"))
    }

    /// Writes `"name":`; the next value written is its value.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        beginValue()
        buffer.append(UInt8(ascii: "\""))
        buffer.append(name)
        buffer.append("\":")
        structure.afterKey = true
    }

    /// Writes a member already written as JSON (`"class":"AIS"`), in one piece.
    mutating func member(_ json: StaticString) {
        beginValue()
        buffer.append(json)
    }

    /// Writes `"name":` for a key only known at run time (escaped).
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        string(name)
        buffer.append(UInt8(ascii: ":"))
        structure.afterKey = true
    }

    // MARK: Values

    @_disfavoredOverload
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func string(_ value: StaticString) {
        string(bytes: UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    /// Writes `value` as a JSON string, escaping quotes, backslashes and control characters. Bytes that are not
    /// valid UTF-8 (binary noise in a text field) are written as U+FFFD so the document stays valid.
    public mutating func string(bytes value: UnsafeRawBufferPointer) {
        beginValue()
        buffer.append(UInt8(ascii: "\""))
        var index = 0
        while index < value.count {
            let byte = value[index]
            switch byte {
            case UInt8(ascii: "\""): appendEscape(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): appendEscape(UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"): appendEscape(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): appendEscape(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): appendEscape(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                buffer.append("\\u00")
                Hex.write(byte, uppercase: false) { buffer.append($0) }
            case 0x80...:
                let length = validUTF8Length(value, at: index)
                if length == 0 {
                    buffer.append("\u{FFFD}")
                    index += 1
                    continue
                }
                for offset in 0..<length { buffer.append(value[index + offset]) }
                index += length
                continue
            default: buffer.append(byte)
            }
            index += 1
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Writes a string whose bytes `produce` hands over one by one: for times, dates and talkers written straight
    /// from their values without a `String` in between. Quotes, backslashes and control bytes are escaped.
    public mutating func asciiString(_ produce: ((UInt8) -> Void) -> Void) {
        beginValue()
        buffer.append(UInt8(ascii: "\""))
        produce { byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case 0..<0x20, 0x7F...:
                buffer.append(UInt8(ascii: "?"))
            default:
                buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    public mutating func number(_ value: Int) {
        beginValue()
        // One digit (flags, statuses, counts: most numbers an AIS message has) in one byte.
        if UInt(bitPattern: value) < 10 { return buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)) }
        DecimalFormatter.withText(value) { buffer.append($0) }
    }

    /// Writes a decimal number digit for digit as the sentence sent it: `4807.038`.
    public mutating func number(_ value: FixedPoint) {
        beginValue()
        DecimalFormatter.withText(value) { buffer.append($0) }
    }

    /// Writes `value` in the shortest digits that read back exactly, never in exponent notation
    /// (``DecimalFormatter/write(_:to:)``); `null` for NaN and infinities, which JSON lacks.
    public mutating func number(_ value: Double) {
        number(value, .shortest)
    }

    /// Writes `value` rounded to `decimals` places, trailing zeros kept; `null` when not finite.
    public mutating func number(_ value: Double, decimals: Int) {
        number(value, .decimals(decimals))
    }

    /// Writes `value` rounded to at most `maximumDecimals` places, trailing zeros dropped; `null` when not finite.
    public mutating func number(_ value: Double, maximumDecimals: Int) {
        number(value, .maximumDecimals(maximumDecimals))
    }

    @inline(__always)
    mutating func number(_ value: Double, _ style: DecimalFormatter.Style) {
        guard value.isFinite else { return null() }
        beginValue()
        DecimalFormatter.withText(value, style) { buffer.append($0) }
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        // "true" and "false" as the little-endian words of their bytes, written in one store.
        buffer.append(word: value ? 0x6575_7274 : 0x65_736C_6166, count: value ? 4 : 5)
    }

    public mutating func null() {
        beginValue()
        buffer.append(word: 0x6C6C_756E, count: 4)  // "null"
    }

    /// Appends already-encoded JSON (a value written by another writer).
    public mutating func raw(_ json: some Sequence<UInt8>) {
        beginValue()
        for byte in json { buffer.append(byte) }
    }

    // MARK: Fields (key and value; nothing when the value is nil)

    @_disfavoredOverload
    public mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    public mutating func field(_ name: StaticString, _ value: StaticString) {
        key(name)
        string(value)
    }

    public mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    public mutating func field(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    public mutating func field(_ name: StaticString, _ value: Double?, decimals: Int) {
        guard let value else { return }
        key(name)
        number(value, decimals: decimals)
    }

    public mutating func field(_ name: StaticString, _ value: Double?, maximumDecimals: Int) {
        guard let value else { return }
        key(name)
        number(value, maximumDecimals: maximumDecimals)
    }

    public mutating func field(_ name: StaticString, _ value: FixedPoint?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    public mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    // MARK: Internals

    @inline(__always)
    mutating func beginValue() {
        if structure.afterKey {
            structure.afterKey = false
            return
        }
        guard structure.depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(min(structure.depth - 1, 63))
        if structure.hasElement & bit != 0 { buffer.append(UInt8(ascii: ",")) }
        structure.hasElement |= bit
    }

    private mutating func push() {
        structure.depth += 1
        structure.hasElement &= ~(1 << UInt64(min(structure.depth - 1, 63)))
    }

    private mutating func pop() {
        structure.depth -= 1
    }

    private mutating func appendEscape(_ letter: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(letter)
    }
}

/// The length of the valid UTF-8 sequence starting at `index`, or 0 when it is not valid.
private func validUTF8Length(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int {
    let lead = bytes[index]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return 0
    }
    guard index + length <= bytes.count else { return 0 }
    for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
    return length
}
