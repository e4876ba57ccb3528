/// DBS, depth below the surface, in feet, metres and fathoms.
///
///     $SDDBS,11.1,f,3.4,M,1.8,F*3E
///
///            1   2 3   4 5   6
///     $--DBS,x.x,f,x.x,M,x.x,F*hh
///
/// 1. 2. Depth, feet, `f`
/// 3. 4. Depth, metres, `M`
/// 5. 6. Depth, fathoms, `F`
///
/// Sounders often fill only the metres; each unit's value is kept as sent.
public struct DBS: DecodableSentence, Hashable, Sendable {
    public static var address: SentenceAddress { .standard(.dbs) }
    public static var sample: String {
        "$SDDBS,11.1,f,3.4,M,1.8,F*3E"
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
