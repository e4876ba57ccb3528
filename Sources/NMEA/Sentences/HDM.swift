/// HDM, magnetic heading.
///
///     $HCHDM,238.5,M*25
///
///            1   2
///     $--HDM,x.x,M*hh
///
/// 1. Heading, degrees magnetic
/// 2. `M`
///
/// Deprecated since NMEA 3.0 in favour of HDG, and still sent by many compasses and autopilots.
public struct HDM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.hdm) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$HCHDM,238.5,M*25"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var headingMagneticDegrees: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .magneticCompass, headingMagneticDegrees: FixedPoint?) {
        self.talker = talker
        self.headingMagneticDegrees = headingMagneticDegrees
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading_magnetic_deg", headingMagneticDegrees)
    }
}
