/// GGA, global positioning system fix data: time, position, fix quality, satellites, HDOP, altitude.
///
///     $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
///
///            1         2       3 4        5 6 7  8   9   10 11  12 13  14
///     $--GGA,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,x,xx,x.x,x.x,M, x.x,M, x.x,xxxx*hh
///
///  1. UTC time
///  2. 3. Latitude, `N`/`S`
///  4. 5. Longitude, `E`/`W`
///  6. Fix quality (see ``GGAQuality``)
///  7. Satellites used
///  8. HDOP
///  9. 10. Altitude above mean sea level, `M`
/// 11. 12. Geoid separation (geoid above the WGS 84 ellipsoid), `M`
/// 13. Age of differential corrections, seconds
/// 14. Differential reference station ID
public struct GGA: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gga) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var time: UTCTime?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    /// `nil` when the field is empty.
    public var quality: GGAQuality?
    public var satellitesUsed: Int?
    public var hdop: FixedPoint?
    /// Metres above mean sea level.
    public var altitudeMeters: FixedPoint?
    /// Metres from the WGS 84 ellipsoid up to the geoid.
    public var geoidSeparationMeters: FixedPoint?
    public var differentialAgeSeconds: FixedPoint?
    public var differentialStationID: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, latitude: FixedPoint?, longitude: FixedPoint?, quality: GGAQuality?,
        satellitesUsed: Int? = nil, hdop: FixedPoint? = nil, altitudeMeters: FixedPoint? = nil,
        geoidSeparationMeters: FixedPoint? = nil, differentialAgeSeconds: FixedPoint? = nil,
        differentialStationID: Int? = nil
    ) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitudeMeters = altitudeMeters
        self.geoidSeparationMeters = geoidSeparationMeters
        self.differentialAgeSeconds = differentialAgeSeconds
        self.differentialStationID = differentialStationID
    }

    /// The one decoding body: any form, field by field, with exact errors.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        latitude = fields.latitude()
        longitude = fields.longitude()
        quality = fields.integer(in: 0...9).map { GGAQuality(rawValue: UInt8($0)) }
        satellitesUsed = fields.integer(in: 0...99)
        hdop = fields.fixedPoint()
        altitudeMeters = fields.fixedPoint()
        fields.unit("M")
        geoidSeparationMeters = fields.fixedPoint()
        fields.unit("M")
        differentialAgeSeconds = fields.fixedPoint()
        differentialStationID = fields.integer()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("quality", quality.map { Int($0.rawValue) })
        sink.field("satellites", satellitesUsed)
        sink.field("hdop", hdop)
        sink.field("altitude", altitudeMeters)
        sink.field("geoid_separation", geoidSeparationMeters)
        sink.field("dgps_age", differentialAgeSeconds)
        sink.field("dgps_station", differentialStationID)
    }
}
