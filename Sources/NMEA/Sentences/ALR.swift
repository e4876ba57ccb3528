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
    public static var address: SentenceAddress { .standard(.alr) }
    public static var sample: String {
        "$RAALR,092751.00,011,A,V,TARGET LOST*54"
    }

    public var talker: Talker
    public var time: UTCTime?
    public var alarmNumber: Int?
    public var isThresholdExceeded: Bool?
    public var isAcknowledged: Bool?
    public var text: ShortText

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("alarm", alarmNumber)
        sink.field("threshold_exceeded", isThresholdExceeded)
        sink.field("acknowledged", isAcknowledged)
        if !text.isEmpty { sink.field("text", text: text) }
    }
}
