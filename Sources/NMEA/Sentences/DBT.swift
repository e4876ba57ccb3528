/// DBT, depth below the transducer, in feet, metres and fathoms.
///
///     $SDDBT,7.8,f,2.4,M,1.3,F*0D
///
///            1   2 3   4 5   6
///     $--DBT,x.x,f,x.x,M,x.x,F*hh
///
/// 1. 2. Depth, feet, `f`
/// 3. 4. Depth, metres, `M`
/// 5. 6. Depth, fathoms, `F`
///
/// Sounders often fill only the metres; each unit's value is kept as sent.
public struct DBT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.dbt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$SDDBT,7.8,f,2.4,M,1.3,F*0D"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var depth: WaterDepth

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .depthSounder, depth: WaterDepth) {
        self.talker = talker
        self.depth = depth
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        depth = fields.waterDepth()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        depth.describe(to: &sink)
    }
}
