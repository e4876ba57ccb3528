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
    /// What the bits mean.
    public let kind: Kind

    /// What a field's bits mean, and how they scale to units.
    public enum Kind: Sendable {
        /// An unsigned number; scaled, `raw × scale`, absent when it equals `notAvailable`.
        case unsigned(scale: Double = 1, notAvailable: Int? = nil)
        /// A two's-complement number; scaled, `raw × scale`, absent when it equals `notAvailable`.
        case signed(scale: Double = 1, notAvailable: Int? = nil)
        /// One bit.
        case bool
        /// Six-bit text of `width / 6` characters.
        case text
        /// The rest of the message from `start` (types 6, 8, 17, 25, 26 when no application decodes it), written
        /// as gpsd does: `"BITS:HEX"`.
        case data
        /// Year (14 bits), month, day, hour, minute, second (types 4 and 11): `YYYY-MM-DDTHH:MM:SSZ`.
        case timestamp
        /// Month (4 bits), day, hour, minute: `MM-DDTHH:MMZ` (an estimated time of arrival).
        case monthDayTime
        /// Day (5 bits), hour, minute: `DDTHH:MMZ`.
        case dayTime
        /// The rate of turn indicator (8 bits, signed): degrees per minute, `(raw / 4.733)²` with its sign;
        /// absent for -128 (not available).
        case rateOfTurn
    }

    init(_ name: StaticString, _ start: Int, _ width: Int, _ kind: Kind = .unsigned()) {
        self.name = name
        self.start = start
        self.width = width
        self.kind = kind
    }
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
}
