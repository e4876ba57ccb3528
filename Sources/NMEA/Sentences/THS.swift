/// THS, true heading and status.
///
///     $GPTHS,77.52,E*34
///
///            1   2
///     $--THS,x.x,a*hh
///
/// 1. Heading, degrees true
/// 2. Mode: `A` autonomous, `E` estimated (dead reckoning), `M` manual, `S` simulator, `V` not valid
public struct THS: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.ths) }
    public static var sample: String {
        "$GPTHS,77.52,E*34"
    }

    public var talker: Talker
    public var headingDegrees: FixedPoint?
    /// The mode letter (same letters as ``FAAMode``).
    public var mode: FAAMode?

    public init(talker: Talker = .gps, headingDegrees: FixedPoint?, mode: FAAMode?) {
        self.talker = talker
        self.headingDegrees = headingDegrees
        self.mode = mode
    }

    /// `false` for mode `V`.
    public var isValid: Bool { mode != FAAMode(rawValue: UInt8(ascii: "V")) }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingDegrees = fields.fixedPoint()
        mode = fields.letter(in: "AEMSV").map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading", headingDegrees)
        sink.field("mode", letter: mode?.rawValue)
    }
}
