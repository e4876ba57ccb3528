/// One field of an AIS message: where its bits are, what they mean, and its name as gpsd writes it (`"mmsi"`,
/// `"lat"`, `"shipname"`). Each message type, and each binary application of types 6 and 8, is a table of these
/// (``AISLayout``); reading, JSON and the typed accessors all walk the same tables.
public struct AISField: Sendable {
    /// gpsd's JSON name for the field.
    public let name: StaticString
    /// The first bit (0 is the first bit of the message).
    public let start: Int
    /// The number of bits (six per character for text).
    public let width: Int
    /// What the bits mean, as one byte: what readers switch on (``kind`` rebuilds the enum).
    let code: Code
    /// The repeated group's place in ``AISLayout/groups`` plus one, 0 for every other field: a number, not a
    /// reference, so that fields stay plain values, copied without reference counting as messages are read.
    let groupNumber: UInt8
    /// `true` for the fields of a group's elements: bits past the message's end read as zeros, as gpsd reads them.
    let readsPastEnd: Bool
    // (The three bytes above sit in the padding after `code`: a field stays 64 bytes, copied as it was.)
    /// `raw × scale` is the value in units; 1 for a number read as it is.
    let scale: Double
    /// The raw value that means "not available", or `Int.min` when every value is one.
    let notAvailable: Int

    /// What the bits mean.
    public var kind: Kind {
        let notAvailable = self.notAvailable == .min ? nil : self.notAvailable
        return switch code {
        case .unsigned: .unsigned(scale: scale, notAvailable: notAvailable)
        case .signed: .signed(scale: scale, notAvailable: notAvailable)
        case .bool: .bool
        case .text: .text
        case .data: .data
        case .timestamp: .timestamp
        case .monthDayTime: .monthDayTime
        case .monthDayTimeUnpadded: .monthDayTimeUnpadded
        case .dayMonthTime: .dayMonthTime
        case .dayTime: .dayTime
        case .rateOfTurn: .rateOfTurn
        case .decimalText: .decimalText
        case .group: .group(AISLayout.groups[Int(groupNumber) - 1])
        }
    }

    /// What a field's bits mean, and how they scale to units.
    public enum Kind: Sendable {
        /// An unsigned number; scaled, `raw × scale`, absent when it equals `notAvailable`.
        case unsigned(scale: Double = 1, notAvailable: Int? = nil)
        /// A two's-complement number; scaled, `raw × scale`, absent when it equals `notAvailable`.
        case signed(scale: Double = 1, notAvailable: Int? = nil)
        /// One bit.
        case bool
        /// Six-bit text of `width / 6` characters; with `width` 0, to the end of the message.
        case text
        /// The rest of the message from `start` (types 6, 8, 17, 25, 26 when no application decodes it), written
        /// as gpsd does: `"BITS:HEX"`.
        case data
        /// Year (14 bits), month, day, hour, minute, second (types 4 and 11): `YYYY-MM-DDTHH:MM:SSZ`.
        case timestamp
        /// Month (4 bits), day, hour, minute: `MM-DDTHH:MMZ` (an estimated time of arrival).
        case monthDayTime
        /// Month (4 bits), day, hour, minute, as gpsd writes a berth's arrival (DAC 1 FI 20): `M-DTH:M`, no zeros
        /// added, no `Z`.
        case monthDayTimeUnpadded
        /// Day (5 bits), month (4 bits), hour, minute (DAC 1 FI 13, a fairway's closure): `MM-DDTHH:MM`, no `Z`.
        case dayMonthTime
        /// Day (5 bits), hour, minute: `DDTHH:MMZ`.
        case dayTime
        /// The rate of turn indicator (8 bits, signed): degrees per minute, `(raw / 4.733)²` with its sign;
        /// absent for -128 (not available).
        case rateOfTurn
        /// An unsigned number that gpsd writes as a JSON string (`"mmsi":"244100001"` in a VTS target, DAC 1
        /// FI 17); its value is ``AISValue/integer(_:)``.
        case decimalText
        /// A repeated group of fields, gpsd's arrays (`"waypoints":[{"lon":…,"lat":…},…]`): its value is
        /// ``AISValue/group(count:)``, its elements' fields come from ``AISMessage/forEachField(of:element:_:)``.
        case group(AISGroup)
    }

    /// ``Kind`` without its values.
    enum Code: UInt8 {
        case unsigned, signed, bool, text, data, timestamp, monthDayTime, monthDayTimeUnpadded, dayMonthTime, dayTime
        case rateOfTurn, decimalText, group
    }

    @inline(__always)
    init(_ name: StaticString, _ start: Int, _ width: Int, _ kind: Kind = .unsigned()) {
        self.name = name
        self.start = start
        self.width = width
        readsPastEnd = false
        var scale = 1.0
        var notAvailable: Int?
        var groupNumber: UInt8 = 0
        switch kind {
        case .unsigned(let factor, let value):
            (code, scale, notAvailable) = (.unsigned, factor, value)
        case .signed(let factor, let value):
            (code, scale, notAvailable) = (.signed, factor, value)
        case .bool: code = .bool
        case .text: code = .text
        case .data: code = .data
        case .timestamp: code = .timestamp
        case .monthDayTime: code = .monthDayTime
        case .monthDayTimeUnpadded: code = .monthDayTimeUnpadded
        case .dayMonthTime: code = .dayMonthTime
        case .dayTime: code = .dayTime
        case .rateOfTurn: code = .rateOfTurn
        case .decimalText: code = .decimalText
        case .group(let group):
            code = .group
            let index = AISLayout.groups.firstIndex { $0 === group }
            groupNumber = UInt8(index.map { $0 + 1 } ?? 0)
            precondition(groupNumber > 0, "a group's table must be listed in AISLayout.groups")
        }
        self.scale = scale
        self.notAvailable = notAvailable ?? .min
        self.groupNumber = groupNumber
    }

    /// The field moved `offset` bits on, read as an element of a group (bits past the message's end are zeros).
    init(element field: AISField, offset: Int) {
        (name, start, width, code) = (field.name, field.start + offset, field.width, field.code)
        (scale, notAvailable, groupNumber, readsPastEnd) = (field.scale, field.notAvailable, 0, true)
    }

    /// `true` for a number gpsd writes as a JSON string (``Kind/decimalText``). Writers ask it of every number, so
    /// it is read from the field's one-byte code, not from a ``kind`` built each time (2% of `nmea parse`'s AIS JSON).
    public var isDecimalText: Bool { code == .decimalText }

    /// The elements of a repeated group (``Kind/group(_:)``); `nil` for every other field.
    public var group: AISGroup? { groupNumber == 0 ? nil : AISLayout.groups[Int(groupNumber) - 1] }
}

/// A field's value in units: what ``AISMessage/value(_:)`` gives.
public enum AISValue: Sendable, Equatable {
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case text(AISText)
    /// A full UTC time (types 4 and 11), as sent: 0 for a part not available.
    case timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
    /// A time of the year with no year (an estimated time of arrival).
    case monthDayTime(month: Int, day: Int, hour: Int, minute: Int)
    /// A day of the month and a time.
    case dayTime(day: Int, hour: Int, minute: Int)
    /// The bits of a data field: how many, from where.
    case data(start: Int, bitCount: Int)
    /// A repeated group's number of elements (``AISField/Kind/group(_:)``).
    case group(count: Int)
}
