/// MTA, air temperature.
///
///     $WIMTA,21.4,C*1C
///
///            1   2
///     $--MTA,x.x,C*hh
///
/// 1. 2. Air temperature, degrees Celsius, `C`
///
/// Obsolete since NMEA 4.00 (XDR replaces it), still sent by weather stations.
public struct MTA: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.mta) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$WIMTA,21.4,C*1C"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Air temperature, degrees Celsius, `C`
    public var temperatureCelsius: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .weatherInstruments, temperatureCelsius: FixedPoint?) {
        self.talker = talker
        self.temperatureCelsius = temperatureCelsius
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        temperatureCelsius = fields.fixedPoint()
        fields.unit("C")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("air_temperature_c", temperatureCelsius)
    }
}
