/// Garmin `$PGRMM`, map datum: the name of the datum positions are given in.
///
///     $PGRMM,WGS 84*06
///
///           1
///     $PGRMM,c--c*hh
///
/// 1. Datum name
public struct PGRMM: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .pgrmm }

    public var datum: ShortText

    public init(datum: ShortText) { self.datum = datum }

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        datum = fields.text()
        try fields.requireRead(1)
    }
}
