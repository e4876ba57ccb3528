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
    public static var address: SentenceAddress { .standard(.dpt) }
    public static var sample: String {
        "$SDDPT,2.4,-1.0,100*60"
    }

    public var talker: Talker
    public var depthMeters: FixedPoint?
    public var offsetMeters: FixedPoint?
    public var maximumRangeMeters: FixedPoint?

    public init(
        talker: Talker = .depthSounder, depthMeters: FixedPoint?, offsetMeters: FixedPoint? = nil,
        maximumRangeMeters: FixedPoint? = nil
    ) {
        self.talker = talker
        self.depthMeters = depthMeters
        self.offsetMeters = offsetMeters
        self.maximumRangeMeters = maximumRangeMeters
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        depthMeters = fields.fixedPoint()
        offsetMeters = fields.fixedPoint()
        maximumRangeMeters = fields.fixedPoint()
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("depth_m", depthMeters)
        sink.field("offset_m", offsetMeters)
        sink.field("max_range_m", maximumRangeMeters)
    }
}
