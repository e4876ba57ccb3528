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
    public static var address: SentenceAddress { .standard(.hdm) }
    public static var sample: String {
        "$HCHDM,238.5,M*25"
    }

    public var talker: Talker
    public var headingMagneticDegrees: FixedPoint?

    public init(talker: Talker = .magneticCompass, headingMagneticDegrees: FixedPoint?) {
        self.talker = talker
        self.headingMagneticDegrees = headingMagneticDegrees
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading_magnetic_deg", headingMagneticDegrees)
    }
}
