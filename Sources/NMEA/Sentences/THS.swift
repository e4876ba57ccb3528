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
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.ths) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPTHS,77.52,E*34"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var headingDegrees: FixedPoint?
    /// The mode letter (same letters as ``FAAMode``).
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .gps, headingDegrees: FixedPoint?, mode: FAAMode?) {
        self.talker = talker
        self.headingDegrees = headingDegrees
        self.mode = mode
    }

    /// `false` for mode `V`.
    public var isValid: Bool { mode != FAAMode(rawValue: UInt8(ascii: "V")) }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        headingDegrees = fields.fixedPoint()
        mode = fields.letter(in: "AEMSV").map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heading", headingDegrees)
        sink.field("mode", letter: mode?.rawValue)
    }
}
