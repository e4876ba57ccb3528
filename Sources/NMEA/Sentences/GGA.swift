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
public struct GGA: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .gga }

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

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        // Fast path for the usual forms, up to the stop byte the framer guarantees after the sentence; anything
        // else is read the careful way below, which gives the same values and the exact errors.
        fast: if sentence.isTerminated {
            var fields = TerminatedFieldReader(sentence)
            guard let time = fields.time(), let latitude = fields.latitude(), let longitude = fields.longitude(),
                  let quality = fields.small(0...9), !fields.pastEnd, let satellites = fields.small(0...99),
                  let hdop = fields.decimal(), let altitude = fields.decimal()
            else { break fast }
            fields.skip()
            guard let separation = fields.decimal() else { break fast }
            fields.skip()
            guard let age = fields.decimal(), let station = fields.small(0...9999) else { break fast }
            talker = sentence.talker
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.quality = quality.map { GGAQuality(rawValue: UInt8(truncatingIfNeeded: $0)) }
            satellitesUsed = satellites
            self.hdop = hdop
            altitudeMeters = altitude
            geoidSeparationMeters = separation
            differentialAgeSeconds = age
            differentialStationID = station
            return
        }
        self = try GGA(carefully: sentence)
    }

    /// Decodes any form, field by field, with exact errors.
    init(carefully sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        talker = sentence.talker
        time = try fields.time()
        latitude = try fields.latitude()
        longitude = try fields.longitude()
        quality = try fields.integer(in: 0...9).map { GGAQuality(rawValue: UInt8($0)) }
        satellitesUsed = try fields.integer(in: 0...99)
        hdop = try fields.fixedPoint()
        altitudeMeters = try fields.fixedPoint()
        fields.skip()
        geoidSeparationMeters = try fields.fixedPoint()
        fields.skip()
        differentialAgeSeconds = try fields.fixedPoint()
        differentialStationID = try fields.integer()
        try fields.requireRead(6)
    }
}
