import NMEA
import RTCM

extension JSONWriter {
    /// Writes an RTCM 3 message as gpsd does: `{"class":"RTCM3","type":1005,"length":19,"station_id":2003,…}`, with
    /// gpsd's names; a type not decoded here as gpsd writes those, its payload's bytes in `"data"`.
    public mutating func writeRTCM3(_ frame: RTCMFrame) {
        write { $0.writeRTCM3(frame) }
    }

    /// Writes an RTCM 2 message's header as gpsd does (``JSONText/writeRTCM2(_:)``).
    public mutating func writeRTCM2(_ message: RTCM2Message) {
        write { $0.writeRTCM2(message) }
    }
}

extension JSONText {
    /// See ``JSONWriter/writeRTCM3(_:)``: the message through this text.
    public mutating func writeRTCM3(_ frame: RTCMFrame) {
        withUnsafeMutablePointer(to: &self) { writer in
            var sink = RTCMSink(target: writer)
            sink.writer.beginObject()
            sink.writer.key("class")
            sink.writer.string("RTCM3" as StaticString)
            sink.writer.key("type")
            sink.writer.number(frame.messageNumber)
            sink.writer.key("length")
            sink.writer.number(frame.length)
            frame.decode(into: &sink)
            sink.writer.endObject()
        }
    }

    private struct RTCMSink: RTCMFieldSink, RTCMMessageVisitor {
        /// The writer being written into, in place (a copy would copy its buffer, and a fresh one allocate).
        let target: UnsafeMutablePointer<JSONText>
        var writer: JSONText {
            unsafeAddress { UnsafePointer(target) }
            nonmutating unsafeMutableAddress { target }
        }

        mutating func visit<Message: RTCMMessageBody>(_ message: Message) { message.write(to: &self) }

        mutating func visitUndecoded(_ frame: RTCMFrame, malformed: Bool) {
            if malformed {
                writer.key("malformed")
                writer.bool(true)
            }
            writer.key("data")
            writer.beginArray()
            for byte in frame.payload.bytes {
                writer.asciiString { output in
                    output(UInt8(ascii: "0"))
                    output(UInt8(ascii: "x"))
                    output(Hex.digit(byte >> 4, uppercase: false))
                    output(Hex.digit(byte & 15, uppercase: false))
                }
            }
            writer.endArray()
        }

        mutating func integer(_ name: StaticString, _ value: Int64) {
            writer.key(name)
            writer.number(Int(value))
        }

        mutating func unsigned(_ name: StaticString, _ value: UInt64) {
            writer.key(name)
            writer.asciiNumber(value)
        }

        mutating func number(_ name: StaticString, _ value: Double, decimals: Int) {
            writer.key(name)
            writer.number(value, decimals: decimals)
        }

        mutating func bool(_ name: StaticString, _ value: Bool) {
            writer.key(name)
            writer.bool(value)
        }

        mutating func text(_ name: StaticString, _ value: String) {
            writer.key(name)
            writer.string(value)
        }

        mutating func characters(_ name: StaticString, count: Int, _ produce: ((UInt8) -> Void) -> Void) {
            writer.key(name)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            produce { bytes.append($0) }
            writer.string(String(decoding: bytes, as: UTF8.self))
        }

        mutating func beginList(_ name: StaticString) {
            writer.key(name)
            writer.beginArray()
        }

        mutating func beginItem() { writer.beginObject() }
        mutating func endItem() { writer.endObject() }
        mutating func endList() { writer.endArray() }

        mutating func textList(_ name: StaticString, _ values: [StaticString]) {
            writer.key(name)
            writer.beginArray()
            for value in values { writer.string(value) }
            writer.endArray()
        }
    }
}

extension JSONText {
    /// An unsigned 64-bit number in decimal (masks past `Int.max`).
    fileprivate mutating func asciiNumber(_ value: UInt64) {
        if value <= UInt64(Int.max) {
            number(Int(value))
            return
        }
        raw(String(value).utf8)
    }
}

extension JSONText {
    /// Writes an RTCM 2 message's header as gpsd does: `{"class":"RTCM2","type":9,"station_id":268,"zcount":252.0,
    /// "seqnum":3,"length":5,"station_health":0}` (the contents of the types are not decoded).
    public mutating func writeRTCM2(_ message: RTCM2Message) {
        beginObject()
        field("class", "RTCM2")
        field("type", message.messageType)
        field("station_id", message.stationID)
        field("zcount", message.zCount, decimals: 1)
        field("seqnum", message.sequenceNumber)
        field("length", message.length)
        field("station_health", message.stationHealth)
        endObject()
    }
}
