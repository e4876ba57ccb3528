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
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.hdt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPHDT,274.07,T*03"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var headingDegrees: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .gps, headingDegrees: FixedPoint?) {
        self.talker = talker
        self.headingDegrees = headingDegrees
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingDegrees = fields.fixedPoint()
        fields.unit("T")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading", headingDegrees)
    }
}
