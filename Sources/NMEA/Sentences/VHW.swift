/// VHW, water speed and heading: the vessel's heading and its speed through the water.
///
///     $IIVHW,245.1,T,243.0,M,6.4,N,11.9,K*69
///
///            1   2 3   4 5   6 7   8
///     $--VHW,x.x,T,x.x,M,x.x,N,x.x,K*hh
///
/// 1. 2. Heading, degrees true, `T`
/// 3. 4. Heading, degrees magnetic, `M`
/// 5. 6. Speed through the water, knots, `N`
/// 7. 8. Speed through the water, km/h, `K`
///
/// Speed logs without a compass leave the headings empty.
public struct VHW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vhw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVHW,245.1,T,243.0,M,6.4,N,11.9,K*69"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Heading, degrees true, `T`
    public var headingTrueDegrees: FixedPoint?
    /// Heading, degrees magnetic, `M`
    public var headingMagneticDegrees: FixedPoint?
    /// Speed through the water, knots, `N`
    public var speedKnots: FixedPoint?
    /// Speed through the water, km/h, `K`
    public var speedKilometersPerHour: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .integratedInstrumentation, headingTrueDegrees: FixedPoint? = nil,
        headingMagneticDegrees: FixedPoint? = nil, speedKnots: FixedPoint?, speedKilometersPerHour: FixedPoint? = nil
    ) {
        self.talker = talker
        self.headingTrueDegrees = headingTrueDegrees
        self.headingMagneticDegrees = headingMagneticDegrees
        self.speedKnots = speedKnots
        self.speedKilometersPerHour = speedKilometersPerHour
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingTrueDegrees = fields.fixedPoint()
        fields.unit("T")
        headingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        speedKnots = fields.fixedPoint()
        fields.unit("N")
        speedKilometersPerHour = fields.fixedPoint()
        fields.unit("K")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading_true_deg", headingTrueDegrees)
        sink.field("heading_magnetic_deg", headingMagneticDegrees)
        sink.field("water_speed_knots", speedKnots)
        sink.field("water_speed_kmh", speedKilometersPerHour)
    }
}
