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
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.hbt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPHBT,60.0,A,7*0B"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Repeat interval, seconds (empty when sent on request only)
    public var intervalSeconds: FixedPoint?
    /// Equipment status: `A` operating normally, `V` not
    public var isNormal: Bool?
    /// Sequential message identifier (0 to 9, then 0 again)
    public var sequentialMessageID: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .gps, intervalSeconds: FixedPoint?, isNormal: Bool?, sequentialMessageID: Int?) {
        self.talker = talker
        self.intervalSeconds = intervalSeconds
        self.isNormal = isNormal
        self.sequentialMessageID = sequentialMessageID
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        intervalSeconds = fields.fixedPoint()
        isNormal = fields.status()
        sequentialMessageID = fields.integer(in: 0...9)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("interval_s", intervalSeconds)
        sink.field("normal", isNormal)
        sink.field("sequence", sequentialMessageID)
    }
}
