/// TLL, target latitude and longitude: where a radar (ARPA) target is.
///
///     $RATLL,11,4807.038,N,01131.000,E,TGT11,100021.00,T,*6D
///
///            1  2       3 4        5 6    7         8 9
///     $--TLL,xx,llll.ll,a,yyyyy.yy,a,c--c,hhmmss.ss,a,a*hh
///
/// 1. Target number (00 to 99; up to 999 from NMEA 4.10)
/// 2. 3. Target latitude, `N`/`S`
/// 4. 5. Target longitude, `E`/`W`
/// 6. Target name
/// 7. UTC time of the data
/// 8. Target status: `L` lost, `Q` being acquired, `T` tracked
/// 9. `R` for the reference target, empty otherwise
public struct TLL: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.tll) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$RATLL,11,4807.038,N,01131.000,E,TGT11,100021.00,T,*6D"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Target number (00 to 99; up to 999 from NMEA 4.10)
    public var targetNumber: Int?
    /// Target latitude, `N`/`S`
    public var latitude: FixedPoint?
    /// Target longitude, `E`/`W`
    public var longitude: FixedPoint?
    /// Target name
    public var name: WaypointID
    /// UTC time of the data
    public var time: UTCTime?
    /// Target status: `L` lost, `Q` being acquired, `T` tracked
    public var status: TargetStatus?
    /// `R` for the reference target, empty otherwise
    public var isReferenceTarget: Bool

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .radar, targetNumber: Int?, latitude: FixedPoint?, longitude: FixedPoint?,
        name: WaypointID = "", time: UTCTime?, status: TargetStatus?, isReferenceTarget: Bool = false
    ) {
        self.talker = talker
        self.targetNumber = targetNumber
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.time = time
        self.status = status
        self.isReferenceTarget = isReferenceTarget
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        targetNumber = fields.integer(in: 0...999)
        latitude = fields.latitude()
        longitude = fields.longitude()
        name = fields.waypointID()
        time = fields.time()
        status = fields.targetStatus()
        isReferenceTarget = fields.isReferenceTarget()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("target", targetNumber)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        if !name.isEmpty { sink.field("name", letters: name.bytes) }
        sink.field("time", time)
        sink.field("status", letter: status?.rawValue)
        if isReferenceTarget { sink.field("reference_target", true) }
    }
}
