/// TXT, text transmission: receiver messages such as firmware versions and antenna status.
///
///     $GPTXT,01,01,02,ANTSTATUS=OK*3B
///
///            1  2  3  4
///     $--TXT,xx,xx,xx,c--c*hh
///
/// 1. Number of sentences in this message
/// 2. This sentence's number
/// 3. Text identifier (u-blox: 00 error, 01 warning, 02 notice, 07 user)
/// 4. Text (NMEA escapes such as `^2C` are left as sent)
public struct TXT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.txt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPTXT,01,01,02,ANTSTATUS=OK*3B"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Number of sentences in this message
    public var totalMessages: Int?
    /// This sentence's number
    public var messageNumber: Int?
    /// Text identifier (u-blox: 00 error, 01 warning, 02 notice, 07 user)
    public var identifier: Int?
    /// Text (NMEA escapes such as `^2C` are left as sent)
    public var text: ShortText

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .gps, totalMessages: Int?, messageNumber: Int?, identifier: Int?, text: ShortText) {
        self.talker = talker
        self.totalMessages = totalMessages
        self.messageNumber = messageNumber
        self.identifier = identifier
        self.text = text
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        totalMessages = fields.integer()
        messageNumber = fields.integer()
        identifier = fields.integer()
        // The text is the rest of the sentence, commas and all.
        text = ShortText(fields.remainder())
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("total", totalMessages)
        sink.field("number", messageNumber)
        sink.field("id", identifier)
        sink.field("text", text: text)
    }
}
