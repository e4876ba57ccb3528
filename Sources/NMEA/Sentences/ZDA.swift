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
public struct ZDA: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .zda }

    public var talker: Talker
    public var time: UTCTime?
    /// `nil` unless day, month and year are all present.
    public var date: UTCDate?
    public var localZoneHours: Int?
    public var localZoneMinutes: Int?

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

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        // Fast path for the usual forms (no negative zone), up to the stop byte the framer guarantees after the
        // sentence; anything else is read the careful way below, which gives the same values and the exact errors.
        fast: if sentence.isTerminated {
            var fields = TerminatedFieldReader(sentence)
            guard let time = fields.time(), let day = fields.small(1...31), let month = fields.small(1...12),
                  let year = fields.small(0...9999), !fields.pastEnd, let zoneHours = fields.small(0...13),
                  let zoneMinutes = fields.small(0...59)
            else { break fast }
            talker = sentence.talker
            self.time = time
            if let day, let month, let year {
                date = UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day))
            } else {
                date = nil
            }
            localZoneHours = zoneHours
            localZoneMinutes = zoneMinutes
            return
        }
        self = try ZDA(carefully: sentence)
    }

    /// Decodes any form, field by field, with exact errors.
    init(carefully sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        talker = sentence.talker
        time = try fields.time()
        let day = try fields.integer(in: 1...31)
        let month = try fields.integer(in: 1...12)
        let year = try fields.integer(in: 0...9999)
        if let day, let month, let year {
            date = UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day))
        } else {
            date = nil
        }
        localZoneHours = try fields.integer(in: -13...13)
        localZoneMinutes = try fields.integer(in: -59...59)
        try fields.requireRead(4)
    }
}
