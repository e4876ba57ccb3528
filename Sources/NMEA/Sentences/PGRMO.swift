/// Garmin `$PGRMO`, output sentence enable: a command to a Garmin sensor that turns one of its output sentences, or
/// all of them, on or off (seen in logs where it is echoed, or sent by the host beside the receiver's output).
///
///     $PGRMO,GPGSV,0*22
///
///            1    2
///     $PGRMO,c--c,a*hh
///
/// 1. Target sentence (`GPGSV`, `PGRMT`…); may be empty for modes 2, 3 and 4
/// 2. Mode: `0` disable the sentence, `1` enable it, `2` disable all, `3` enable all (but `GPALM`), `4` restore the
///    factory defaults, `G` switch the port to Garmin's binary protocol
public struct PGRMO: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrmo) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRMO,GPGSV,0*22"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Up to eight characters (sentence addresses have five or six).
    public var targetSentence: ShortCode
    /// The mode character: `0`…`4` or `G`.
    public var mode: UInt8?

    public init(targetSentence: ShortCode, mode: UInt8?) {
        self.targetSentence = targetSentence
        self.mode = mode
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        targetSentence = fields.code()
        mode = fields.letter(in: "01234G")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        if !targetSentence.isEmpty { sink.field("target", code: targetSentence) }
        sink.field("mode", letter: mode)
    }
}
