/// VPW, speed measured parallel to the wind: the vessel's velocity made good toward (or away from) the wind.
///
///     $IIVPW,4.5,N,2.3,M*52
///
///            1   2 3   4
///     $--VPW,x.x,N,x.x,M*hh
///
/// 1. 2. Speed parallel to the wind, knots, `N`; negative: downwind
/// 3. 4. Speed parallel to the wind, m/s, `M`; negative: downwind
public struct VPW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vpw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVPW,4.5,N,2.3,M*52"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Negative downwind.
    public var speedKnots: FixedPoint?
    /// Negative downwind.
    public var speedMetersPerSecond: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .integratedInstrumentation, speedKnots: FixedPoint?, speedMetersPerSecond: FixedPoint? = nil
    ) {
        self.talker = talker
        self.speedKnots = speedKnots
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        speedKnots = fields.fixedPoint()
        fields.unit("N")
        speedMetersPerSecond = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("speed_to_wind_knots", speedKnots)
        sink.field("speed_to_wind_mps", speedMetersPerSecond)
    }
}
