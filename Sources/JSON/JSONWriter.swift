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
/// rather than written as 0 or null. Each method writes through a ``JSONText`` (where JSON is made); a document of
/// many values is written faster through one, with ``write(_:)``.
public struct JSONWriter {
    /// The document so far, as UTF-8.
    public private(set) var bytes: [UInt8]
    private var structure = JSONStructure()

    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        structure = JSONStructure()
    }

    /// The document as a `String`.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` to write values through a ``JSONText``, whose text reaches ``bytes`` in pieces of up to
    /// ``TextBuffer/capacity`` bytes: the way to write a document of many values.
    public mutating func write<R>(_ body: (inout JSONText) -> R) -> R {
        var structure = self.structure
        let result = TextBuffer.appending(to: &bytes) { buffer in
            var text = JSONText(buffer: buffer, structure: structure)
            let result = body(&text)
            buffer = text.buffer
            structure = text.structure
            return result
        }
        self.structure = structure
        return result
    }

    // MARK: Structure

    public mutating func beginObject() { write { $0.beginObject() } }
    public mutating func endObject() { write { $0.endObject() } }
    public mutating func beginArray() { write { $0.beginArray() } }
    public mutating func endArray() { write { $0.endArray() } }

    /// Writes `"name":`; the next value written is its value.
    public mutating func key(_ name: StaticString) { write { $0.key(name) } }

    /// Writes `"name":` for a key only known at run time (escaped). A literal takes the `StaticString` overload.
    @_disfavoredOverload
    public mutating func key(_ name: String) { write { $0.key(name) } }

    // MARK: Values (see JSONText)

    @_disfavoredOverload
    public mutating func string(_ value: String) { write { $0.string(value) } }
    public mutating func string(_ value: StaticString) { write { $0.string(value) } }
    public mutating func string(bytes value: UnsafeRawBufferPointer) { write { $0.string(bytes: value) } }
    public mutating func asciiString(_ produce: ((UInt8) -> Void) -> Void) { write { $0.asciiString(produce) } }
    public mutating func number(_ value: Int) { write { $0.number(value) } }
    public mutating func number(_ value: FixedPoint) { write { $0.number(value) } }
    public mutating func number(_ value: Double) { write { $0.number(value) } }
    public mutating func number(_ value: Double, decimals: Int) { write { $0.number(value, decimals: decimals) } }
    public mutating func number(_ value: Double, maximumDecimals: Int) {
        write { $0.number(value, maximumDecimals: maximumDecimals) }
    }
    public mutating func bool(_ value: Bool) { write { $0.bool(value) } }
    public mutating func null() { write { $0.null() } }

    /// Appends already-encoded JSON (a value written by another writer).
    public mutating func raw(_ json: some Sequence<UInt8>) { write { $0.raw(json) } }

    // MARK: Fields (key and value; nothing when the value is nil)

    @_disfavoredOverload
    public mutating func field(_ name: StaticString, _ value: String?) { write { $0.field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: StaticString) { write { $0.field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Int?) { write { $0.field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Double?) { write { $0.field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Double?, decimals: Int) {
        write { $0.field(name, value, decimals: decimals) }
    }
    public mutating func field(_ name: StaticString, _ value: Double?, maximumDecimals: Int) {
        write { $0.field(name, value, maximumDecimals: maximumDecimals) }
    }
    public mutating func field(_ name: StaticString, _ value: FixedPoint?) { write { $0.field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Bool?) { write { $0.field(name, value) } }
}
