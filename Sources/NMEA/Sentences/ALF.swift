/// ALF, alert sentence (NMEA 4.10, bridge alert management): one alert's category, priority, state and text.
///
///     $HEALF,1,1,3,081950.10,B,W,V,,3008,1,2,0,HEADING LOST*64
///
///            1 2 3 4         5 6 7 8   9    10   11 12 13
///     $--ALF,x,x,x,hhmmss.ss,a,a,a,aaa,x.x,x.x,x.x,x,c--c*hh
///
/// 1. Number of sentences in this message (1 or 2)
/// 2. This sentence's number
/// 3. Sequential message identifier (0 to 9)
/// 4. UTC time of the last change of the alert
/// 5. Category: `A`, `B` or `C`
/// 6. Priority: `E` emergency alarm, `A` alarm, `W` warning, `C` caution
/// 7. State: `V` active and not acknowledged, `S` silenced, `A` acknowledged, `O` responsibility transferred,
///    `U` rectified and not acknowledged, `N` normal
/// 8. Manufacturer mnemonic code, for proprietary alerts (empty for standard ones)
/// 9. Alert identifier
/// 10. Alert instance (tells apart alerts of the same type from one source)
/// 11. Revision counter (1 to 99)
/// 12. Escalation counter (0 to 9)
/// 13. Alert text (the rest of the sentence; a second sentence carries more text, with fields 4 to 7 empty)
public struct ALF: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.alf) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$HEALF,1,1,3,081950.10,B,W,V,,3008,1,2,0,HEADING LOST*64"
    }

    /// How an alert is to be handled (IEC 62923): `A` needs the information at the operator's position, `B` does
    /// not, `C` cannot be acknowledged on the bridge.
    public enum Category: UInt8, Hashable, Sendable {
        case a = 65  // A
        case b = 66  // B
        case c = 67  // C
    }

    public enum Priority: UInt8, Hashable, Sendable {
        /// `E`.
        case emergencyAlarm = 69  // E
        /// `A`.
        case alarm = 65  // A
        /// `W`.
        case warning = 87  // W
        /// `C`.
        case caution = 67  // C
    }

    public enum State: UInt8, Hashable, Sendable {
        /// `V`: active, not acknowledged.
        case activeUnacknowledged = 86  // V
        /// `S`: active, silenced.
        case silenced = 83  // S
        /// `A`: active, acknowledged.
        case acknowledged = 65  // A
        /// `O`: active, responsibility transferred.
        case responsibilityTransferred = 79  // O
        /// `U`: rectified, not acknowledged.
        case rectifiedUnacknowledged = 85  // U
        /// `N`: normal (no longer active).
        case normal = 78  // N
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var sentenceCount: Int?
    public var sentenceNumber: Int?
    public var sequentialMessageID: Int?
    public var time: UTCTime?
    public var category: Category?
    public var priority: Priority?
    public var state: State?
    /// Empty for a standard alert.
    public var manufacturer: ShortCode
    public var alertIdentifier: Int?
    public var alertInstance: Int?
    public var revisionCounter: Int?
    public var escalationCounter: Int?
    public var text: ShortText

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .integratedInstrumentation, sentenceCount: Int?, sentenceNumber: Int?,
        sequentialMessageID: Int?, time: UTCTime?, category: Category?, priority: Priority?, state: State?,
        manufacturer: ShortCode = ShortCode(rawValue: 0), alertIdentifier: Int?, alertInstance: Int?,
        revisionCounter: Int?, escalationCounter: Int?, text: ShortText = ""
    ) {
        self.talker = talker
        self.sentenceCount = sentenceCount
        self.sentenceNumber = sentenceNumber
        self.sequentialMessageID = sequentialMessageID
        self.time = time
        self.category = category
        self.priority = priority
        self.state = state
        self.manufacturer = manufacturer
        self.alertIdentifier = alertIdentifier
        self.alertInstance = alertInstance
        self.revisionCounter = revisionCounter
        self.escalationCounter = escalationCounter
        self.text = text
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        sentenceCount = fields.integer(in: 1...99)
        sentenceNumber = fields.integer(in: 1...99)
        sequentialMessageID = fields.integer(in: 0...9)
        time = fields.time()
        category = fields.letter(in: "ABC").flatMap(Category.init(rawValue:))
        priority = fields.letter(in: "EAWC").flatMap(Priority.init(rawValue:))
        state = fields.letter(in: "VSAOUN").flatMap(State.init(rawValue:))
        manufacturer = fields.code()
        alertIdentifier = fields.integer()
        alertInstance = fields.integer()
        revisionCounter = fields.integer(in: 1...99)
        escalationCounter = fields.integer(in: 0...9)
        text = ShortText(fields.remainder())
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("sentences", sentenceCount)
        sink.field("sentence", sentenceNumber)
        sink.field("sequence", sequentialMessageID)
        sink.field("time", time)
        sink.field("category", letter: category?.rawValue)
        sink.field("priority", letter: priority?.rawValue)
        sink.field("state", letter: state?.rawValue)
        if !manufacturer.isEmpty { sink.field("manufacturer", code: manufacturer) }
        sink.field("alert", alertIdentifier)
        sink.field("instance", alertInstance)
        sink.field("revision", revisionCounter)
        sink.field("escalation", escalationCounter)
        if !text.isEmpty { sink.field("text", text: text) }
    }
}
