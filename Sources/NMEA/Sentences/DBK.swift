/// DBK, depth below the keel, in feet, metres and fathoms.
///
///     $SDDBK,4.5,f,1.4,M,0.7,F*1A
///
///            1   2 3   4 5   6
///     $--DBK,x.x,f,x.x,M,x.x,F*hh
///
/// 1. 2. Depth, feet, `f`
/// 3. 4. Depth, metres, `M`
/// 5. 6. Depth, fathoms, `F`
///
/// Sounders often fill only the metres; each unit's value is kept as sent.
public struct DBK: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.dbk) }
    public static var sample: String {
        "$SDDBK,4.5,f,1.4,M,0.7,F*1A"
    }

    public var talker: Talker
    public var depth: WaterDepth

    public init(talker: Talker = .depthSounder, depth: WaterDepth) {
        self.talker = talker
        self.depth = depth
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        depth = fields.waterDepth()
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        depth.describe(to: &sink)
    }
}
