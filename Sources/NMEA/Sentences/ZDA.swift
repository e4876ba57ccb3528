/// ZDA, time and date: UTC time, a four-digit year, and the local time zone.
///
///     $GPZDA,201530.00,04,07,2002,00,00*60
///
///            1         2  3  4    5  6
///     $--ZDA,hhmmss.ss,xx,xx,xxxx,xx,xx*hh
///
/// 1. UTC time
/// 2. Day, 01…31
/// 3. Month, 01…12
/// 4. Year, four digits
/// 5. Local zone hours, −13…13
/// 6. Local zone minutes, 0…59 (same sign as the hours)
public struct ZDA: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.zda) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPZDA,201530.00,04,07,2002,00,00*60"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var time: UTCTime?
    /// `nil` unless day, month and year are all present.
    public var date: UTCDate?
    public var localZoneHours: Int?
    public var localZoneMinutes: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, date: UTCDate?, localZoneHours: Int? = nil,
        localZoneMinutes: Int? = nil
    ) {
        self.talker = talker
        self.time = time
        self.date = date
        self.localZoneHours = localZoneHours
        self.localZoneMinutes = localZoneMinutes
    }

    /// The one decoding body: any form, field by field, with exact errors.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        let day = fields.integer(in: 1...31)
        let month = fields.integer(in: 1...12)
        let year = fields.integer(in: 0...9999)
        if let day, let month, let year {
            date = UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day))
        } else {
            date = nil
        }
        localZoneHours = fields.integer(in: -13...13)
        localZoneMinutes = fields.integer(in: -59...59)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("zone_hours", localZoneHours)
        sink.field("zone_minutes", localZoneMinutes)
    }
}
