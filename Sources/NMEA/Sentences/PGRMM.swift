/// Garmin `$PGRMM`, map datum: the name of the datum positions are given in.
///
///     $PGRMM,WGS 84*06
///
///           1
///     $PGRMM,c--c*hh
///
/// 1. Datum name
public struct PGRMM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrmm) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRMM,WGS 84*06"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Datum name
    public var datum: ShortText

    public init(datum: ShortText) { self.datum = datum }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        datum = fields.text()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("datum", text: datum)
    }
}
