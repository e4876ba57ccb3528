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
    public static var address: SentenceAddress { .standard(.txt) }
    public static var sample: String {
        "$GPTXT,01,01,02,ANTSTATUS=OK*3B"
    }

    public var talker: Talker
    public var totalMessages: Int?
    public var messageNumber: Int?
    public var identifier: Int?
    public var text: ShortText

    public init(talker: Talker = .gps, totalMessages: Int?, messageNumber: Int?, identifier: Int?, text: ShortText) {
        self.talker = talker
        self.totalMessages = totalMessages
        self.messageNumber = messageNumber
        self.identifier = identifier
        self.text = text
    }

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("total", totalMessages)
        sink.field("number", messageNumber)
        sink.field("id", identifier)
        sink.field("text", text: text)
    }
}
