import AIS
import NMEA

extension JSONWriter {
    /// Writes an AIS message as gpsd does (``JSONText/writeAIS(_:scaled:)``), in one piece.
    public mutating func writeAIS(_ message: AISMessage, scaled: Bool) {
        write { $0.writeAIS(message, scaled: scaled) }
    }
}

extension JSONText {
    /// Writes an AIS message as gpsd does, one object with gpsd's names (`{"class":"AIS","type":1,"repeat":0,
    /// "mmsi":…,"scaled":false,"status":…}`):
    /// - `scaled: false`: every field as its raw number, "not available" values included (gpsd's default for its
    ///   clients, and its regression output);
    /// - `scaled: true`: values in units (degrees, knots, metres, degrees Celsius), "not available" values left
    ///   out.
    /// gpsd's arrays (a route's `"waypoints"`, the `"targets"` of a VTS message…) are arrays of objects, each
    /// element's fields as above. gpsd's `*_text` descriptions of codes are not written.
    public mutating func writeAIS(_ message: AISMessage, scaled: Bool) {
        writeAIS(message, scaled: scaled, throughPlans: true)
    }

    /// ``writeAIS(_:scaled:)``; with `throughPlans: false`, field by field (what a type without a plan takes) for
    /// every type: the reference its plan is tested against.
    mutating func writeAIS(_ message: AISMessage, scaled: Bool, throughPlans: Bool) {
        beginObject()
        member(#""class":"AIS""#)
        if throughPlans, let plan = AISJSONPlan.plans[message.type & 63] {
            writeAIS(message, plan, scaled: scaled)
        } else {
            message.forEachValue(raw: !scaled) { field, value in
                guard let value else { return }
                key(field.name)
                writeAIS(value, of: field, in: message, scaled: scaled)
                if AISJSONPlan.isMMSI(field) {
                    key("scaled")
                    bool(scaled)
                }
            }
        }
        endObject()
    }

    /// The fields of a type whose fields are fixed, through its plan: each key written as one piece, each raw
    /// number read straight as a number (what ``AISMessage/forEachValue(raw:_:)`` gives, without making a value).
    private mutating func writeAIS(_ message: AISMessage, _ plan: AISJSONPlan, scaled: Bool) {
        message.withFieldReader { fields in
            plan.keys.withUnsafeBufferPointer { keys in
                plan.entries.withUnsafeBufferPointer { entries in
                    for index in 0..<entries.count {
                        let entry = entries[index]
                        let keyText = UnsafeBufferPointer(
                            start: keys.baseAddress! + Int(entry.keyStart), count: Int(entry.keyCount))
                        if !scaled && entry.raw != .other {
                            let number = fields.integer(entry.field)
                            buffer.append(keyText)
                            structure.afterKey = true
                            if entry.raw == .bool { bool(number != 0) } else { self.number(number) }
                        } else {
                            // Scaled values, and texts, times and data as they are in both forms.
                            guard let value = fields.value(entry.field) else { continue }
                            buffer.append(keyText)
                            structure.afterKey = true
                            writeAIS(value, of: entry.field, in: message, scaled: scaled)
                        }
                        if entry.isMMSI {
                            key("scaled")
                            bool(scaled)
                        }
                    }
                }
            }
        }
    }

    /// A group's elements as gpsd writes them: an array of objects.
    private mutating func writeAISGroup(_ group: AISField, count: Int, in message: AISMessage, scaled: Bool) {
        beginArray()
        for element in 0..<count {
            beginObject()
            message.forEachValue(of: group, element: element, raw: !scaled) { field, value in
                guard let value else { return }
                key(field.name)
                writeAIS(value, of: field, in: message, scaled: scaled)
            }
            endObject()
        }
        endArray()
    }

    private mutating func writeAIS(_ value: AISValue, of field: AISField, in message: AISMessage, scaled: Bool) {
        switch value {
        case .integer(let value) where field.isDecimalText:
            asciiString { byte in DecimalFormatter.write(value) { byte($0) } }
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
            // gpsd writes a berth's arrival (FI 20) unpadded, a fairway's closure (FI 13) without its `Z`.
            let width = field.kind.isUnpadded ? 1 : 2
            asciiString { byte in
                AISTimeText.digits(month, width, byte, then: "-")
                AISTimeText.digits(day, width, byte, then: "T")
                AISTimeText.digits(hour, width, byte, then: ":")
                if field.kind.isZoneless {
                    DecimalFormatter.write(minute, minimumDigits: width) { byte($0) }
                } else {
                    AISTimeText.digits(minute, width, byte, then: "Z")
                }
            }
        case .group(let count):
            writeAISGroup(field, count: count, in: message, scaled: scaled)
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

/// The fields of an AIS message type whose fields are fixed (``AISLayout/fixedFields(ofType:)``), made once for
/// JSON: each field's key with its comma and colon (`,"mmsi":`), and how its raw value is read.
struct AISJSONPlan {
    /// Every field's key, one after the other.
    let keys: [UInt8]
    let entries: [Entry]

    struct Entry {
        let field: AISField
        let keyStart: Int32
        let keyCount: Int32
        let raw: RawForm
        /// The MMSI, after which gpsd writes `"scaled"`.
        let isMMSI: Bool
    }

    /// How a field's raw value (``AISMessage/forEachValue(raw:_:)``) is read.
    enum RawForm {
        /// A number as sent (``AISMessage/integer(_:)``).
        case integer
        /// One bit, `true` or `false`.
        case bool
        /// As its value in units (texts, times, data, decimal texts).
        case other
    }

    /// Each message type's plan (a type is six bits), `nil` for a type whose fields depend on its content.
    static let plans: [AISJSONPlan?] = (0..<64).map { type in
        AISLayout.fixedFields(ofType: type).map { AISJSONPlan(AISLayout.header + $0) }
    }

    init(_ fields: [AISField]) {
        var keys: [UInt8] = []
        var entries: [Entry] = []
        for field in fields {
            let start = keys.count
            keys.append(contentsOf: ",\"".utf8)
            keys.append(
                contentsOf: UnsafeBufferPointer(start: field.name.utf8Start, count: field.name.utf8CodeUnitCount))
            keys.append(contentsOf: "\":".utf8)
            let raw: RawForm =
                switch field.kind {
                case .unsigned, .signed, .rateOfTurn: .integer
                case .bool: .bool
                default: .other
                }
            entries.append(
                Entry(
                    field: field, keyStart: Int32(start), keyCount: Int32(keys.count - start), raw: raw,
                    isMMSI: Self.isMMSI(field)))
        }
        self.keys = keys
        self.entries = entries
    }

    /// The header's MMSI.
    static func isMMSI(_ field: AISField) -> Bool { field.start == 8 && field.width == 30 }
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

/// How gpsd writes the values of some kinds of fields.
extension AISField.Kind {
    /// A time without zeros added.
    fileprivate var isUnpadded: Bool { if case .monthDayTimeUnpadded = self { true } else { false } }
    /// A time without its `Z`.
    fileprivate var isZoneless: Bool {
        switch self {
        case .monthDayTimeUnpadded, .dayMonthTime: true
        default: false
        }
    }
}
