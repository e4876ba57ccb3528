/// GNS, GNSS fix data: like GGA, with a mode letter per satellite system.
///
///     $GNGNS,122310.2,3722.425671,N,12258.856215,W,DAAA,14,0.9,1005.543,6.5,,,V*0B
///
///            1         2       3 4        5 6    7  8   9   10  11  12   13
///     $--GNS,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,c--c,xx,x.x,x.x,x.x,x.x,xxxx,a*hh
///
///  1. UTC time
///  2. 3. Latitude, `N`/`S`
///  4. 5. Longitude, `E`/`W`
///  6. Mode indicators, one FAA mode letter per system in the order GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC
///  7. Satellites used
///  8. HDOP
///  9. Altitude above mean sea level, metres
/// 10. Geoid separation, metres
/// 11. Age of differential data, seconds
/// 12. Differential reference station ID
/// 13. Navigational status (NMEA 4.10)
public struct GNS: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gns) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GNGNS,122310.2,3722.425671,N,12258.856215,W,DAAA,14,0.9,1005.543,6.5,,,V*0B"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var time: UTCTime?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    /// One mode per system, in the order GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC (at most eight kept).
    public var modes: FixedList<8, FAAMode>
    public var satellitesUsed: Int?
    public var hdop: FixedPoint?
    public var altitudeMeters: FixedPoint?
    public var geoidSeparationMeters: FixedPoint?
    public var differentialAgeSeconds: FixedPoint?
    public var differentialStationID: Int?
    public var navigationalStatus: NavigationalStatus?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gnss, time: UTCTime?, latitude: FixedPoint?, longitude: FixedPoint?,
        modes: FixedList<8, FAAMode>, satellitesUsed: Int?, hdop: FixedPoint?, altitudeMeters: FixedPoint?,
        geoidSeparationMeters: FixedPoint?, differentialAgeSeconds: FixedPoint? = nil,
        differentialStationID: Int? = nil, navigationalStatus: NavigationalStatus? = nil
    ) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.modes = modes
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitudeMeters = altitudeMeters
        self.geoidSeparationMeters = geoidSeparationMeters
        self.differentialAgeSeconds = differentialAgeSeconds
        self.differentialStationID = differentialStationID
        self.navigationalStatus = navigationalStatus
    }

    /// `true` when any system's mode is other than `N` (no fix).
    public var hasFix: Bool { modes.contains { $0 != .notValid } }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        latitude = fields.latitude()
        longitude = fields.longitude()
        modes = FixedList()
        if let field = fields.letters(in: FAAMode.letters) {
            for letter in field.bytes { modes.append(FAAMode(rawValue: letter)) }
        }
        satellitesUsed = fields.integer(in: 0...999)
        hdop = fields.fixedPoint()
        altitudeMeters = fields.fixedPoint()
        geoidSeparationMeters = fields.fixedPoint()
        differentialAgeSeconds = fields.fixedPoint()
        differentialStationID = fields.integer()
        navigationalStatus = fields.letter(in: NavigationalStatus.letters).map(NavigationalStatus.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("modes", letters: modes.lazy.map(\.rawValue))
        sink.field("satellites", satellitesUsed)
        sink.field("hdop", hdop)
        sink.field("altitude", altitudeMeters)
        sink.field("geoid_separation", geoidSeparationMeters)
        sink.field("dgps_age", differentialAgeSeconds)
        sink.field("dgps_station", differentialStationID)
        sink.field("nav_status", letter: navigationalStatus?.rawValue)
    }
}
