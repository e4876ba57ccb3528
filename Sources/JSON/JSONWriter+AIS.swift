import AIS
import NMEA

extension JSONWriter {
    /// Writes an AIS message as gpsd does, one object with gpsd's names (`{"class":"AIS","type":1,"repeat":0,
    /// "mmsi":…,"scaled":false,"status":…}`):
    /// - `scaled: false`: every field as its raw number, "not available" values included (gpsd's default for its
    ///   clients, and its regression output);
    /// - `scaled: true`: values in units (degrees, knots, metres, degrees Celsius), "not available" values left
    ///   out.
    /// gpsd's `*_text` descriptions of codes are not written.
    public mutating func writeAIS(_ message: AISMessage, scaled: Bool) {
        beginObject()
        key("class")
        string("AIS" as StaticString)
        message.forEachValue(raw: !scaled) { field, value in
            guard let value else { return }
            key(field.name)
            writeAIS(value, of: message)
            if field.start == 8, field.width == 30 {  // after the MMSI
                key("scaled")
                bool(scaled)
            }
        }
        endObject()
    }

    private mutating func writeAIS(_ value: AISValue, of message: AISMessage) {
        switch value {
        case .integer(let value): number(value)
        case .number(let value): number(value, maximumDecimals: 6)
        case .bool(let value): bool(value)
        case .text(let text): asciiString { byte in message.forEachCharacter(of: text, byte) }
        case .timestamp(let year, let month, let day, let hour, let minute, let second):
            asciiString { byte in
                AISTimeText.digits(year, 4, byte, then: "-")
                AISTimeText.digits(month, 2, byte, then: "-")
                AISTimeText.digits(day, 2, byte, then: "T")
                AISTimeText.digits(hour, 2, byte, then: ":")
                AISTimeText.digits(minute, 2, byte, then: ":")
                AISTimeText.digits(second, 2, byte, then: "Z")
            }
        case .monthDayTime(let month, let day, let hour, let minute):
            asciiString { byte in
                AISTimeText.digits(month, 2, byte, then: "-")
                AISTimeText.digits(day, 2, byte, then: "T")
                AISTimeText.digits(hour, 2, byte, then: ":")
                AISTimeText.digits(minute, 2, byte, then: "Z")
            }
        case .dayTime(let day, let hour, let minute):
            asciiString { byte in
                AISTimeText.digits(day, 2, byte, then: "T")
                AISTimeText.digits(hour, 2, byte, then: ":")
                AISTimeText.digits(minute, 2, byte, then: "Z")
            }
        case .data(let start, let bitCount):
            asciiString { byte in
                DecimalFormatter.write(bitCount) { byte($0) }
                byte(UInt8(ascii: ":"))
                message.forEachByte(start: start, bitCount: bitCount) { Hex.write($0, uppercase: false, to: byte) }
            }
        }
    }
}

/// The parts of an AIS time as gpsd writes them: `2018-08-10T08:01:20Z`, `05-15T08:00Z`, `10T08:01Z`.
enum AISTimeText {
    /// `value` in at least `width` digits, then `separator`.
    static func digits(_ value: Int, _ width: Int, _ byte: (UInt8) -> Void, then separator: Unicode.Scalar) {
        DecimalFormatter.write(value, minimumDigits: width) { byte($0) }
        byte(UInt8(ascii: separator))
    }
}

extension JSONWriter {
    /// A station as `nmea ais --json` and the page list it: `{"mmsi":…,"name":…,"callsign":…,"shiptype":…,
    /// "length_m":…,"beam_m":…,"destination":…,"lat":…,"lon":…,"course":…,"speed_knots":…,"heading":…,
    /// "messages":…}`; with `now` (the clock of ``Vessel/lastSeen``) also `"age_s"`, seconds since it was heard.
    public mutating func writeVessel(_ vessel: Vessel, now: Int64? = nil) {
        beginObject()
        field("mmsi", vessel.mmsi)
        field("name", vessel.name)
        field("callsign", vessel.callSign)
        field("shiptype", vessel.shipType)
        field("length_m", vessel.dimensions?.length)
        field("beam_m", vessel.dimensions?.beam)
        field("destination", vessel.destination)
        field("lat", vessel.position?.latitude, maximumDecimals: 6)
        field("lon", vessel.position?.longitude, maximumDecimals: 6)
        field("course", vessel.course, maximumDecimals: 1)
        field("speed_knots", vessel.speed, maximumDecimals: 1)
        field("heading", vessel.heading)
        field("messages", vessel.messages)
        if let now { field("age_s", Double(max(0, now - vessel.lastSeen)) / 1e9, maximumDecimals: 1) }
        endObject()
    }
}
