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
    public static var address: SentenceAddress { .standard(.tll) }
    public static var sample: String {
        "$RATLL,11,4807.038,N,01131.000,E,TGT11,100021.00,T,*6D"
    }

    public var talker: Talker
    public var targetNumber: Int?
    public var latitude: FixedPoint?
    public var longitude: FixedPoint?
    public var name: WaypointID
    public var time: UTCTime?
    public var status: TargetStatus?
    public var isReferenceTarget: Bool

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
