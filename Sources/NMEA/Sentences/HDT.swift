/// HDT, true heading, from a gyrocompass or a dual-antenna GNSS receiver.
///
///     $GPHDT,274.07,T*03
///
///            1   2
///     $--HDT,x.x,T*hh
///
/// 1. Heading, degrees true
/// 2. `T`
public struct HDT: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.hdt) }
    public static var sample: String {
        "$GPHDT,274.07,T*03"
    }

    public var talker: Talker
    public var headingDegrees: FixedPoint?

    public init(talker: Talker = .gps, headingDegrees: FixedPoint?) {
        self.talker = talker
        self.headingDegrees = headingDegrees
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingDegrees = fields.fixedPoint()
        fields.unit("T")
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading", headingDegrees)
    }
}
