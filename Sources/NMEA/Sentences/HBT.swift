/// HBT, heartbeat supervision: a device says at a set interval that it is running, and whether normally.
///
///     $GPHBT,60.0,A,7*0B
///
///            1   2 3
///     $--HBT,x.x,A,x*hh
///
/// 1. Repeat interval, seconds (empty when sent on request only)
/// 2. Equipment status: `A` operating normally, `V` not
/// 3. Sequential message identifier (0 to 9, then 0 again)
public struct HBT: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.hbt) }
    public static var sample: String {
        "$GPHBT,60.0,A,7*0B"
    }

    public var talker: Talker
    public var intervalSeconds: FixedPoint?
    public var isNormal: Bool?
    public var sequentialMessageID: Int?

    public init(talker: Talker = .gps, intervalSeconds: FixedPoint?, isNormal: Bool?, sequentialMessageID: Int?) {
        self.talker = talker
        self.intervalSeconds = intervalSeconds
        self.isNormal = isNormal
        self.sequentialMessageID = sequentialMessageID
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        intervalSeconds = fields.fixedPoint()
        isNormal = fields.status()
        sequentialMessageID = fields.integer(in: 0...9)
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("interval_s", intervalSeconds)
        sink.field("normal", isNormal)
        sink.field("sequence", sequentialMessageID)
    }
}
