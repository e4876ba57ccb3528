/// Trimble `$PTNL,GGK`, time, position, position type and DOP: a fix with the height above the ellipsoid, to more
/// decimals than GGA.
///
///     $PTNL,GGK,172814.00,071296,3723.46587704,N,12202.26957864,W,3,06,1.7,EHT-6.777,M*4B
///
///           1   2         3      4       5 6        7 8 9  10  11     12
///     $PTNL,GGK,hhmmss.ss,mmddyy,ddmm.mm,a,dddmm.mm,a,x,xx,x.x,EHTx.x,M*hh
///
///  1. Message ID `GGK`
///  2. UTC time
///  3. UTC date, `mmddyy` (month first)
///  4. 5. Latitude, `N`/`S`
///  6. 7. Longitude, `E`/`W`
///  8. GPS quality: 0 no fix, 1 autonomous, 2 RTK float, 3 RTK fixed, 4 DGPS (code phase), 5 SBAS, 6 RTK float
///     (network 3D), 7 RTK fixed (network 3D), 8 RTK float (network 2D), 9 RTK fixed (network 2D), 10 OmniSTAR
///     HP/XP, 11 OmniSTAR VBS, 12 Location RTK, 13 beacon DGPS, 14 CenterPoint RTX, 15 xFill
///  9. Satellites used
/// 10. PDOP
/// 11. Height of the antenna above the ellipsoid, metres, after the letters `EHT`
/// 12. `M`: metres
///
/// The quality numbers are Trimble's, not GGA's: 3 is RTK fixed here, where GGA's 3 is PPS.
public struct PTNLGGK: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "G", "G", "K") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,GGK,172814.00,071296,3723.46587704,N,12202.26957864,W,3,06,1.7,EHT-6.777,M*4B"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    /// Trimble's quality number (see the list above).
    public var quality: Int?
    public var satellitesUsed: Int?
    public var pdop: FixedPoint?
    /// Metres above the ellipsoid (not mean sea level).
    public var ellipsoidHeightMeters: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, date: UTCDate?, latitude: FixedPoint?, longitude: FixedPoint?, quality: Int?,
        satellitesUsed: Int?, pdop: FixedPoint?, ellipsoidHeightMeters: FixedPoint?
    ) {
        self.time = time
        self.date = date
        self.latitude = latitude
        self.longitude = longitude
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.pdop = pdop
        self.ellipsoidHeightMeters = ellipsoidHeightMeters
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        date = fields.monthFirstDate()
        latitude = fields.latitude()
        longitude = fields.longitude()
        quality = fields.integer(in: 0...99)
        satellitesUsed = fields.integer(in: 0...999)
        pdop = fields.fixedPoint()
        ellipsoidHeightMeters = fields.labelledFixedPoint(labels: "EHT").value
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("quality", quality)
        sink.field("satellites", satellitesUsed)
        sink.field("pdop", pdop)
        sink.field("altitude_ellipsoid", ellipsoidHeightMeters)
    }
}
