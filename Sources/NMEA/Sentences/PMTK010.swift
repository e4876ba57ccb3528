/// MediaTek `$PMTK010`, system message: what a MediaTek receiver says about itself, at start-up first of all.
///
///     $PMTK010,001*2E
///
///              1
///     $PMTK010,xxx*hh
///
/// 1. Message: `000` unknown, `001` start-up (ready for commands), `002` the host may now send EPO aiding data,
///    `003` the switch to normal mode is done
public struct PMTK010: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pmtk010) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PMTK010,001*2E"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Message: `000` unknown, `001` start-up (ready for commands), `002` the host may now send EPO aiding data,
    /// `003` the switch to normal mode is done
    public var message: Int?

    public init(message: Int?) {
        self.message = message
    }

    /// `true` for message 1, start-up.
    public var isStartup: Bool { message == 1 }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        message = fields.integer(in: 0...999)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("message", message)
    }
}
