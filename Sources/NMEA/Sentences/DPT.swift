/// DPT, depth of water.
///
///     $SDDPT,2.4,-1.0,100*60
///     $INDPT,2.3,0.0*46
///
///            1   2   3
///     $--DPT,x.x,x.x,x.x*hh
///
/// 1. Water depth below the transducer, metres
/// 2. Offset from the transducer, metres: positive to the waterline, negative to the keel
/// 3. Maximum range scale in use, metres (NMEA 3.0 and later)
public struct DPT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.dpt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$SDDPT,2.4,-1.0,100*60"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Water depth below the transducer, metres
    public var depthMeters: FixedPoint?
    /// Offset from the transducer, metres: positive to the waterline, negative to the keel
    public var offsetMeters: FixedPoint?
    /// Maximum range scale in use, metres (NMEA 3.0 and later)
    public var maximumRangeMeters: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .depthSounder, depthMeters: FixedPoint?, offsetMeters: FixedPoint? = nil,
        maximumRangeMeters: FixedPoint? = nil
    ) {
        self.talker = talker
        self.depthMeters = depthMeters
        self.offsetMeters = offsetMeters
        self.maximumRangeMeters = maximumRangeMeters
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        depthMeters = fields.fixedPoint()
        offsetMeters = fields.fixedPoint()
        maximumRangeMeters = fields.fixedPoint()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("depth_m", depthMeters)
        sink.field("offset_m", offsetMeters)
        sink.field("max_range_m", maximumRangeMeters)
    }
}
