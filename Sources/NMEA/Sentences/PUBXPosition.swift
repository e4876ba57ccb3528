/// u-blox `$PUBX,00`, lat/long position data: a fix with accuracy estimates in one sentence.
///
///     $PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0*5F
///
///          1  2         3       4 5        6 7   8  9   10  11  12  13  14  15  16  17  18 19 20
///     $PUBX,00,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,x.x,cc,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,xx,xx,x*hh
///
///  1. Message ID `00`
///  2. UTC time
///  3. 4. Latitude, `N`/`S`
///  5. 6. Longitude, `E`/`W`
///  7. Altitude above the WGS 84 ellipsoid, metres
///  8. Navigation status: `NF` no fix, `DR` dead reckoning, `G2`/`G3` 2D/3D, `D2`/`D3` differential, `RK` combined
///     GNSS and dead reckoning, `TT` time only
///  9. Horizontal accuracy estimate, metres
/// 10. Vertical accuracy estimate, metres
/// 11. Speed over ground, km/h
/// 12. Course over ground, degrees
/// 13. Vertical velocity, m/s, positive downwards
/// 14. Age of differential corrections, seconds
/// 15. HDOP
/// 16. VDOP
/// 17. TDOP
/// 18. Satellites used
/// 19. Reserved
/// 20. Dead reckoning used (0/1)
public struct PUBXPosition: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pubx, messageID: "0", "0") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0*5F"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    /// Metres above the WGS 84 ellipsoid (not mean sea level).
    public var altitudeEllipsoidMeters: FixedPoint?
    /// Two letters: `NF`, `DR`, `G2`, `G3`, `D2`, `D3`, `RK`, `TT`.
    public var navigationStatus: ShortCode
    public var horizontalAccuracyMeters: FixedPoint?
    public var verticalAccuracyMeters: FixedPoint?
    public var speedKilometersPerHour: FixedPoint?
    public var courseDegrees: FixedPoint?
    /// Metres per second, positive downwards.
    public var verticalVelocity: FixedPoint?
    public var differentialAgeSeconds: FixedPoint?
    public var hdop: FixedPoint?
    public var vdop: FixedPoint?
    public var tdop: FixedPoint?
    public var satellitesUsed: Int?
    public var deadReckoning: Bool?

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectPUBXMessage(0)
        time = fields.time()
        latitude = fields.latitude()
        longitude = fields.longitude()
        altitudeEllipsoidMeters = fields.fixedPoint()
        navigationStatus = fields.code(in: "NF,DR,G2,G3,D2,D3,RK,TT")
        horizontalAccuracyMeters = fields.fixedPoint()
        verticalAccuracyMeters = fields.fixedPoint()
        speedKilometersPerHour = fields.fixedPoint()
        courseDegrees = fields.fixedPoint()
        verticalVelocity = fields.fixedPoint()
        differentialAgeSeconds = fields.fixedPoint()
        hdop = fields.fixedPoint()
        vdop = fields.fixedPoint()
        tdop = fields.fixedPoint()
        satellitesUsed = fields.integer(in: 0...999)
        fields.skip()
        deadReckoning = fields.integer(in: 0...1).map { $0 == 1 }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("altitude_ellipsoid", altitudeEllipsoidMeters)
        sink.field("nav_status", code: navigationStatus)
        sink.field("h_accuracy", horizontalAccuracyMeters)
        sink.field("v_accuracy", verticalAccuracyMeters)
        sink.field("speed_kmh", speedKilometersPerHour)
        sink.field("course", courseDegrees)
        sink.field("vertical_velocity_down", verticalVelocity)
        sink.field("dgps_age", differentialAgeSeconds)
        sink.field("hdop", hdop)
        sink.field("vdop", vdop)
        sink.field("tdop", tdop)
        sink.field("satellites", satellitesUsed)
        sink.field("dead_reckoning", deadReckoning)
    }
}

extension FieldReader {
    /// Reads the message ID of a `$PUBX` sentence and checks it is `expected`.
    @inlinable
    mutating func expectPUBXMessage(_ expected: Int) throws(NMEAError) {
        let found = integer()
        guard found == expected else { throw .badField(index: 1, reason: .unexpectedCharacter) }
    }
}
