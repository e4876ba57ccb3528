/// BWC, bearing and distance to a waypoint along the great circle.
///
///     $GPBWC,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM*21
///
///            1         2       3 4        5 6   7 8   9 10  11 12   13
///     $--BWC,hhmmss.ss,llll.ll,a,yyyyy.yy,a,x.x,T,x.x,M,x.x,N,c--c,m*hh
///
/// 1. UTC time of the observation
/// 2. 3. Waypoint latitude, `N`/`S`
/// 4. 5. Waypoint longitude, `E`/`W`
/// 6. 7. Bearing, degrees true, `T`
/// 8. 9. Bearing, degrees magnetic, `M`
/// 10. 11. Distance, nautical miles, `N`
/// 12. Waypoint identifier
/// 13. FAA mode indicator (NMEA 2.3 and later)
public struct BWC: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.bwc) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPBWC,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM*21"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// UTC time of the observation
    public var time: UTCTime?
    /// Waypoint latitude, `N`/`S`
    public var latitude: FixedPoint?
    /// Waypoint longitude, `E`/`W`
    public var longitude: FixedPoint?
    /// Bearing, degrees true, `T`
    public var bearingTrueDegrees: FixedPoint?
    /// Bearing, degrees magnetic, `M`
    public var bearingMagneticDegrees: FixedPoint?
    /// Distance, nautical miles, `N`
    public var distanceNauticalMiles: FixedPoint?
    /// Waypoint identifier
    public var waypoint: WaypointID
    /// FAA mode indicator (NMEA 2.3 and later)
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, latitude: FixedPoint?, longitude: FixedPoint?,
        bearingTrueDegrees: FixedPoint?, bearingMagneticDegrees: FixedPoint?, distanceNauticalMiles: FixedPoint?,
        waypoint: WaypointID, mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.bearingTrueDegrees = bearingTrueDegrees
        self.bearingMagneticDegrees = bearingMagneticDegrees
        self.distanceNauticalMiles = distanceNauticalMiles
        self.waypoint = waypoint
        self.mode = mode
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        latitude = fields.latitude()
        longitude = fields.longitude()
        bearingTrueDegrees = fields.fixedPoint()
        fields.unit("T")
        bearingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        distanceNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        waypoint = fields.waypointID()
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("bearing_true_deg", bearingTrueDegrees)
        sink.field("bearing_magnetic_deg", bearingMagneticDegrees)
        sink.field("distance_nm", distanceNauticalMiles)
        sink.field("waypoint", letters: waypoint.bytes)
        sink.field("mode", letter: mode?.rawValue)
    }
}
