/// MWD, wind direction and speed over the ground: where the wind blows from, relative to north.
///
///     $WIMWD,270.5,T,268.1,M,14.2,N,7.3,M*64
///
///            1   2 3   4 5   6 7   8
///     $--MWD,x.x,T,x.x,M,x.x,N,x.x,M*hh
///
/// 1. 2. Wind direction, degrees true, `T`
/// 3. 4. Wind direction, degrees magnetic, `M`
/// 5. 6. Wind speed, knots, `N`
/// 7. 8. Wind speed, m/s, `M`
public struct MWD: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.mwd) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$WIMWD,270.5,T,268.1,M,14.2,N,7.3,M*64"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var wind: WindDirectionAndSpeed

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .weatherInstruments, wind: WindDirectionAndSpeed) {
        self.talker = talker
        self.wind = wind
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        wind = fields.windDirectionAndSpeed()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        wind.describe(to: &sink)
    }
}
