/// `$PRDID`, attitude in RD Instruments' form, which inertial and heading sensors (Applanix POS MV, Sonardyne's
/// attitude and heading sensors) send to current profilers and sonars: pitch, roll and heading.
///
///     $PRDID,-1.35,+0.82,187.45*7D
///
///            1   2   3
///     $PRDID,x.x,x.x,x.x*hh
///
/// 1. Pitch, degrees
/// 2. Roll, degrees
/// 3. Heading, degrees (from north-seeking sensors: true)
///
/// Applanix sends pitch and roll as Tait-Bryan or TSS angles, as configured; the sentence does not say which.
public struct PRDID: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.prdid) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PRDID,-1.35,+0.82,187.45*7D"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var pitchDegrees: FixedPoint?
    public var rollDegrees: FixedPoint?
    /// Degrees from true north.
    public var headingDegrees: FixedPoint?

    public init(pitchDegrees: FixedPoint?, rollDegrees: FixedPoint?, headingDegrees: FixedPoint?) {
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.headingDegrees = headingDegrees
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        pitchDegrees = fields.fixedPoint()
        rollDegrees = fields.fixedPoint()
        headingDegrees = fields.fixedPoint()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("pitch_deg", pitchDegrees)
        sink.field("roll_deg", rollDegrees)
        sink.field("heading_deg", headingDegrees)
    }
}
