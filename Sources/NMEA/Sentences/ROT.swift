/// ROT, rate of turn.
///
///     $TIROT,-35.6,A*26
///
///            1   2
///     $--ROT,x.x,A*hh
///
/// 1. Rate of turn, degrees per minute; negative: the bow turns to port
/// 2. Status: `A` valid, `V` not valid
public struct ROT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rot) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$TIROT,-35.6,A*26"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var degreesPerMinute: FixedPoint?
    /// `true` for `A`, `false` for `V`, `nil` when the status was left off.
    public var isValid: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = Talker("TI"), degreesPerMinute: FixedPoint?, isValid: Bool?) {
        self.talker = talker
        self.degreesPerMinute = degreesPerMinute
        self.isValid = isValid
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        degreesPerMinute = fields.fixedPoint()
        isValid = fields.letter(in: "AV").map { $0 == UInt8(ascii: "A") }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("rate_of_turn_deg_per_min", degreesPerMinute)
        sink.field("valid", isValid)
    }
}
