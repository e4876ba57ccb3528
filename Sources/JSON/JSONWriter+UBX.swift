import NMEA
import UBX

extension JSONWriter {
    /// Writes a u-blox UBX message as one object: `{"protocol":"UBX","message":"NAV-PVT","iTOW":…,"lat":…}`, its
    /// fields named as the interface description names them, in units (degrees, metres, m/s; times of week in ms,
    /// fractions and accuracies of time in ns). A message of a type not decoded here is written with its class, ID
    /// and payload in hex (`"payload":"01a2…"`), and `"malformed":true` when its payload was too short for its type.
    public mutating func writeUBX(_ frame: UBXFrame) {
        write { $0.writeUBX(frame) }
    }
}

extension JSONText {
    /// See ``JSONWriter/writeUBX(_:)``: the message through this text.
    public mutating func writeUBX(_ frame: UBXFrame) {
        withUnsafeMutablePointer(to: &self) { writer in
            var sink = Sink(target: writer)
            sink.writer.beginObject()
            sink.writer.key("protocol")
            sink.writer.string("UBX" as StaticString)
            sink.writer.key("message")
            sink.writer.string(frame.id.description)
            frame.decode(into: &sink)
            sink.writer.endObject()
        }
    }

    /// Writes each field of a UBX message into a JSON object being written.
    private struct Sink: UBXFieldSink, UBXMessageVisitor {
        /// The writer being written into, in place (a copy would copy its buffer, and a fresh one allocate).
        let target: UnsafeMutablePointer<JSONText>
        var writer: JSONText {
            unsafeAddress { UnsafePointer(target) }
            nonmutating unsafeMutableAddress { target }
        }

        mutating func visit<Message: UBXMessageBody>(_ message: Message) { message.write(to: &self) }

        mutating func visitUndecoded(_ frame: UBXFrame, malformed: Bool) {
            writer.key("class")
            writer.number(Int(frame.id.messageClass))
            writer.key("id")
            writer.number(Int(frame.id.messageID))
            writer.key("length")
            writer.number(frame.payload.count)
            if malformed {
                writer.key("malformed")
                writer.bool(true)
            }
            writer.key("payload")
            writer.asciiString { byte in
                for value in frame.payload.bytes {
                    byte(Hex.digit(value >> 4, uppercase: false))
                    byte(Hex.digit(value & 15, uppercase: false))
                }
            }
        }

        mutating func integer(_ name: StaticString, _ value: Int64) {
            writer.key(name)
            writer.number(Int(value))
        }

        mutating func number(_ name: StaticString, _ value: Double, decimals: Int) {
            writer.key(name)
            writer.number(value, maximumDecimals: decimals)
        }

        mutating func text(_ name: StaticString, _ value: String) {
            writer.key(name)
            writer.string(value)
        }

        mutating func texts(_ name: StaticString, _ values: [String]) {
            writer.key(name)
            writer.beginArray()
            for value in values { writer.string(value) }
            writer.endArray()
        }

        mutating func beginList(_ name: StaticString) {
            writer.key(name)
            writer.beginArray()
        }

        mutating func beginItem() { writer.beginObject() }
        mutating func endItem() { writer.endObject() }
        mutating func endList() { writer.endArray() }
    }
}
