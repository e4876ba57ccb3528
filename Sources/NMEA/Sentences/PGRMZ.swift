/// Garmin `$PGRMZ`, altitude.
///
///     $PGRMZ,246,f,3*1B
///
///           1 2 3
///     $PGRMZ,x,f,x*hh
///
/// 1. Altitude
/// 2. Unit: `f` feet (Garmin's usual) or `m` metres
/// 3. Fix dimension: 2 user altitude, 3 GPS altitude
public struct PGRMZ: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrmz) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRMZ,246,f,3*1B"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// The altitude in the sentence's unit.
    public var altitude: FixedPoint?
    /// `f` or `m` as sent.
    public var unit: UInt8?
    public var fixDimension: Int?

    public init(altitude: FixedPoint?, unit: UInt8?, fixDimension: Int?) {
        self.altitude = altitude
        self.unit = unit
        self.fixDimension = fixDimension
    }

    /// The altitude in metres (feet converted at 0.3048 m each).
    public var altitudeMeters: Double? {
        guard let altitude else { return nil }
        switch unit {
        case UInt8(ascii: "f"), UInt8(ascii: "F"): return altitude.doubleValue * 0.3048
        default: return altitude.doubleValue
        }
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        altitude = fields.fixedPoint()
        unit = fields.letter(in: "fmFM")
        fixDimension = fields.integer(in: 0...3)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("altitude", altitude)
        sink.field("unit", letter: unit)
        sink.field("fix_dimension", fixDimension)
    }
}
