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
    public static var address: SentenceAddress { .standard(.mta) }
    public static var sample: String {
        "$WIMTA,21.4,C*1C"
    }

    public var talker: Talker
    public var temperatureCelsius: FixedPoint?

    public init(talker: Talker = .weatherInstruments, temperatureCelsius: FixedPoint?) {
        self.talker = talker
        self.temperatureCelsius = temperatureCelsius
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        temperatureCelsius = fields.fixedPoint()
        fields.unit("C")
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("air_temperature_c", temperatureCelsius)
    }
}
