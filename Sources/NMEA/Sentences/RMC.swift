/// RMC, recommended minimum specific GNSS data: time, date, position, speed and course in one sentence.
///
///     $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
///     $GNRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A,V*33
///
///            1         2 3       4 5        6 7   8   9      10  11 12 13
///     $--RMC,hhmmss.ss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,a, m, s*hh
///
///  1. UTC time
///  2. Status: `A` valid, `V` warning (no fix)
///  3. 4. Latitude, `N`/`S`
///  5. 6. Longitude, `E`/`W`
///  7. Speed over ground, knots
///  8. Course over ground, degrees true
///  9. Date, `ddmmyy`
/// 10. 11. Magnetic variation, degrees, `E`/`W` (west is negative)
/// 12. FAA mode indicator (NMEA 2.3 and later)
/// 13. Navigational status (NMEA 4.10 and later)
public struct RMC: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rmc) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var time: UTCTime?
    /// `true` for status `A`; `false` for `V` (the receiver has no valid fix) or no status.
    public var isValid: Bool
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var speedKnots: FixedPoint?
    /// Degrees from true north.
    public var courseDegrees: FixedPoint?
    public var date: UTCDate?
    /// Degrees; negative west.
    public var magneticVariationDegrees: FixedPoint?
    public var mode: FAAMode?
    public var navigationalStatus: NavigationalStatus?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, isValid: Bool, latitude: FixedPoint?, longitude: FixedPoint?,
        speedKnots: FixedPoint? = nil, courseDegrees: FixedPoint? = nil, date: UTCDate?,
        magneticVariationDegrees: FixedPoint? = nil, mode: FAAMode? = nil,
        navigationalStatus: NavigationalStatus? = nil
    ) {
        self.talker = talker
        self.time = time
        self.isValid = isValid
        self.latitude = latitude
        self.longitude = longitude
        self.speedKnots = speedKnots
        self.courseDegrees = courseDegrees
        self.date = date
        self.magneticVariationDegrees = magneticVariationDegrees
        self.mode = mode
        self.navigationalStatus = navigationalStatus
    }

    /// The one decoding body: any form, field by field, with exact errors.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        isValid = fields.letter(in: "AV") == UInt8(ascii: "A")
        latitude = fields.latitude()
        longitude = fields.longitude()
        speedKnots = fields.fixedPoint()
        courseDegrees = fields.fixedPoint()
        date = fields.date()
        magneticVariationDegrees = fields.signed(positive: "E", negative: "W")
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        navigationalStatus = fields.letter(in: NavigationalStatus.letters).map(NavigationalStatus.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("status", letter: UInt8(ascii: isValid ? "A" : "V"))
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("speed_knots", speedKnots)
        sink.field("course", courseDegrees)
        sink.field("date", date)
        sink.field("magnetic_variation", magneticVariationDegrees)
        sink.field("mode", letter: mode?.rawValue)
        sink.field("nav_status", letter: navigationalStatus?.rawValue)
    }
}
