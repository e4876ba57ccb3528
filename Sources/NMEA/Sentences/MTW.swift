/// MTW, mean temperature of the water.
///
///     $IIMTW,18.6,C*1C
///
///            1   2
///     $--MTW,x.x,C*hh
///
/// 1. 2. Water temperature, degrees Celsius, `C`
public struct MTW: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.mtw) }
    public static var sample: String {
        "$IIMTW,18.6,C*1C"
    }

    public var talker: Talker
    public var temperatureCelsius: FixedPoint?

    public init(talker: Talker = .integratedInstrumentation, temperatureCelsius: FixedPoint?) {
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
        sink.field("water_temperature_c", temperatureCelsius)
    }
}
