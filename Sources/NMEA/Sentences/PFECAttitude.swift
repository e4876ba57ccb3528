/// Furuno `$PFEC,GPatt`, attitude from a satellite compass: true heading, pitch and roll.
///
///     $PFEC,GPatt,262.5,+1.2,-0.6*48
///
///           1     2   3   4
///     $PFEC,GPatt,x.x,x.x,x.x*hh
///
/// 1. Message ID `GPatt`
/// 2. Yaw: heading, degrees true
/// 3. Pitch, degrees
/// 4. Roll, degrees
///
/// Of Furuno's many `$PFEC` messages only this and ``PFECHeave`` (`GPhve`) are decoded; the others (`GPwpl`,
/// `AIcmd`…) stay unknown.
public struct PFECAttitude: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pfec, messageID: "G", "P", "a", "t", "t") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PFEC,GPatt,262.5,+1.2,-0.6*48"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Degrees from true north.
    public var headingDegrees: FixedPoint?
    public var pitchDegrees: FixedPoint?
    public var rollDegrees: FixedPoint?

    public init(headingDegrees: FixedPoint?, pitchDegrees: FixedPoint?, rollDegrees: FixedPoint?) {
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        headingDegrees = fields.fixedPoint()
        pitchDegrees = fields.fixedPoint()
        rollDegrees = fields.fixedPoint()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading_deg", headingDegrees)
        sink.field("pitch_deg", pitchDegrees)
        sink.field("roll_deg", rollDegrees)
    }
}
