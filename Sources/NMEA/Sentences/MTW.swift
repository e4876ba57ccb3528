/// MTW, mean temperature of the water.
///
///     $IIMTW,18.6,C*1C
///
///            1   2
///     $--MTW,x.x,C*hh
///
/// 1. 2. Water temperature, degrees Celsius, `C`
public struct MTW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.mtw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIMTW,18.6,C*1C"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Water temperature, degrees Celsius, `C`
    public var temperatureCelsius: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .integratedInstrumentation, temperatureCelsius: FixedPoint?) {
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
        sink.field("water_temperature_c", temperatureCelsius)
    }
}
