/// ALR, set alarm state: one local alarm, whether its threshold is exceeded and whether it is acknowledged.
///
///     $RAALR,092751.00,011,A,V,TARGET LOST*54
///
///            1         2   3 4 5
///     $--ALR,hhmmss.ss,xxx,A,A,c--c*hh
///
/// 1. UTC time of the last change of the alarm condition
/// 2. Alarm number (its identifier at the alarm source)
/// 3. Condition: `A` threshold exceeded, `V` not exceeded
/// 4. Acknowledgement: `A` acknowledged, `V` not acknowledged
/// 5. Description text (the rest of the sentence)
public struct ALR: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.alr) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$RAALR,092751.00,011,A,V,TARGET LOST*54"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// UTC time of the last change of the alarm condition
    public var time: UTCTime?
    /// Alarm number (its identifier at the alarm source)
    public var alarmNumber: Int?
    /// Condition: `A` threshold exceeded, `V` not exceeded
    public var isThresholdExceeded: Bool?
    /// Acknowledgement: `A` acknowledged, `V` not acknowledged
    public var isAcknowledged: Bool?
    /// Description text (the rest of the sentence)
    public var text: ShortText

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .radar, time: UTCTime?, alarmNumber: Int?, isThresholdExceeded: Bool?, isAcknowledged: Bool?,
        text: ShortText = ""
    ) {
        self.talker = talker
        self.time = time
        self.alarmNumber = alarmNumber
        self.isThresholdExceeded = isThresholdExceeded
        self.isAcknowledged = isAcknowledged
        self.text = text
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        alarmNumber = fields.integer()
        isThresholdExceeded = fields.status()
        isAcknowledged = fields.status()
        text = ShortText(fields.remainder())
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("alarm", alarmNumber)
        sink.field("threshold_exceeded", isThresholdExceeded)
        sink.field("acknowledged", isAcknowledged)
        if !text.isEmpty { sink.field("text", text: text) }
    }
}
