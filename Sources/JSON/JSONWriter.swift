import NMEA

/// Writes JSON into a reusable byte buffer: no `Encodable`, no intermediate values, no allocation once the buffer
/// has grown to the size of the largest document.
///
///     var json = JSONWriter()
///     json.beginObject()
///     json.field("class", "TPV")
///     json.field("mode", 3)
///     json.endObject()
///     output.write(json.bytes); json.reset()
///
/// Commas are placed automatically. `field(_:_:)` with a `nil` value writes nothing, so absent values are left out
/// rather than written as 0 or null.
public struct JSONWriter {
    /// The document so far, as UTF-8.
    public private(set) var bytes: [UInt8]
    /// One bit per nesting level: set when the level already has an element (so the next needs a comma).
    private var hasElement: UInt64 = 0
    private var depth = 0
    /// Set after a key, so the value that follows takes no comma.
    private var afterKey = false

    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        hasElement = 0
        depth = 0
        afterKey = false
    }

    /// The document as a `String`.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Structure

    public mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        push()
    }

    public mutating func endObject() {
        pop()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        push()
    }

    public mutating func endArray() {
        pop()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"name":`; the next value written is its value.
    public mutating func key(_ name: StaticString) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes `"name":` for a key only known at run time (escaped).
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    // MARK: Values

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
        bytes.append(UInt8(ascii: "\""))
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
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                Hex.write(byte, uppercase: false) { bytes.append($0) }
            case 0x80...:
                let length = validUTF8Length(value, at: index)
                if length == 0 {
                    bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    index += 1
                    continue
                }
                for offset in 0..<length { bytes.append(value[index + offset]) }
                index += length
                continue
            default: bytes.append(byte)
            }
            index += 1
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string whose bytes `produce` hands over one by one: for times, dates and talkers written straight
    /// from their values without a `String` in between. Quotes, backslashes and control bytes are escaped.
    public mutating func asciiString(_ produce: ((UInt8) -> Void) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        produce { byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20, 0x7F...:
                bytes.append(UInt8(ascii: "?"))
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func number(_ value: Int) {
        beginValue()
        // One digit (flags, statuses, counts: most numbers an AIS message has) in one append.
        if UInt(bitPattern: value) < 10 { return bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)) }
        DecimalFormatter.write(value) { bytes.append($0) }
    }

    /// Writes a decimal number digit for digit as the sentence sent it: `4807.038`.
    public mutating func number(_ value: FixedPoint) {
        beginValue()
        DecimalFormatter.write(value) { bytes.append($0) }
    }

    /// Writes `value` in the shortest digits that read back exactly, never in exponent notation
    /// (``DecimalFormatter/write(_:to:)``); `null` for NaN and infinities, which JSON lacks.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        beginValue()
        DecimalFormatter.append(value, to: &bytes)
    }

    /// Writes `value` rounded to `decimals` places, trailing zeros kept; `null` when not finite.
    public mutating func number(_ value: Double, decimals: Int) {
        guard value.isFinite else { return null() }
        beginValue()
        DecimalFormatter.append(value, .decimals(decimals), to: &bytes)
    }

    /// Writes `value` rounded to at most `maximumDecimals` places, trailing zeros dropped; `null` when not finite.
    public mutating func number(_ value: Double, maximumDecimals: Int) {
        guard value.isFinite else { return null() }
        beginValue()
        DecimalFormatter.append(value, .maximumDecimals(maximumDecimals), to: &bytes)
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        let text: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func null() {
        beginValue()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// Appends already-encoded JSON (a value written by another writer).
    public mutating func raw(_ json: some Sequence<UInt8>) {
        beginValue()
        bytes.append(contentsOf: json)
    }

    // MARK: Fields (key and value; nothing when the value is nil)

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

    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(min(depth - 1, 63))
        if hasElement & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        hasElement |= bit
    }

    private mutating func push() {
        depth += 1
        hasElement &= ~(1 << UInt64(min(depth - 1, 63)))
    }

    private mutating func pop() {
        depth -= 1
    }

    private mutating func appendEscape(_ letter: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(letter)
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
