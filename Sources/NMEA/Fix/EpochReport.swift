/// What one binary navigation message (u-blox UBX NAV-PVT, NAV-SOL, NAV-POSLLH…) tells about its epoch, in units:
/// the `UBX` module's decoders fill one in for ``FixAssembler/add(_:_:)``, and facts a message does not carry stay
/// `nil`. Messages of one epoch share its GPS time of week (``timeOfWeekMilliseconds``), which keys the epoch as the
/// time of day keys an NMEA one; an epoch of both (a receiver sending UBX and NMEA) is one epoch.
public struct EpochReport: Sendable {
    /// The message's identity for learning the receiver's cycle (``SentenceSignature/init(binaryMessage:)``).
    public var signature: SentenceSignature
    /// GPS time of week, milliseconds (UBX iTOW); `nil` for messages of no epoch.
    public var timeOfWeekMilliseconds: Int64?
    /// The GPS week (UBX NAV-SOL, NAV-TIMEGPS), when the message gives it valid.
    public var week: Int?
    /// GPS time minus UTC in whole seconds (the leap seconds), when the message gives it valid.
    public var leapSeconds: Int?
    /// The UTC date the message gives itself (NAV-PVT, NAV-TIMEUTC), when valid.
    public var date: UTCDate?
    /// The UTC time of day the message gives itself, when valid.
    public var time: UTCTime?
    /// `true` when the message says whether there is a fix (then ``mode`` says which).
    public var reportsFix = false
    /// The fix's dimension; ``FixMode/none`` for no fix.
    public var mode: FixMode?
    /// How the position was found (autonomous, differential, RTK float or fixed, dead reckoning).
    public var quality: FixQuality?
    /// WGS 84 latitude, degrees.
    public var latitude: Double?
    /// WGS 84 longitude, degrees.
    public var longitude: Double?
    /// Height above mean sea level, metres.
    public var altitudeMeters: Double?
    /// Height above the WGS 84 ellipsoid, metres.
    public var ellipsoidHeightMeters: Double?
    /// The sines and cosines of the latitude and longitude of an Earth-centred position (UBX NAV-POSECEF,
    /// NAV-SOL), for turning an Earth-centred velocity of the same epoch (``earthCentredVelocity``) into speed,
    /// course and climb.
    public var localFrame: (sinLatitude: Double, cosLatitude: Double, sinLongitude: Double, cosLongitude: Double)?
    /// An Earth-centred velocity, m/s (UBX NAV-VELECEF): turned into speed, course and climb with the epoch's
    /// ``localFrame``.
    public var earthCentredVelocity: (x: Double, y: Double, z: Double)?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var courseDegrees: Double?
    /// Vertical speed, m/s, up positive.
    public var climb: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Position dilution of precision.
    public var pdop: Double?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// The receiver's own horizontal accuracy estimate (1 sigma), metres.
    public var horizontalAccuracyMeters: Double?
    /// Its vertical accuracy estimate, metres.
    public var verticalAccuracyMeters: Double?
    /// Its speed accuracy estimate, m/s.
    public var speedAccuracyMetersPerSecond: Double?
    /// Its time accuracy estimate, seconds.
    public var timeAccuracySeconds: Double?
    /// The satellites in view, when the message lists them (NAV-SAT, NAV-SVINFO): ``hasSky`` says so.
    public var satellites = FixedList<64, SatelliteInView>()
    /// `true` when ``satellites`` is the sky of this message (possibly empty).
    public var hasSky = false
    /// The receiver's own end of the epoch (UBX NAV-EOE): the epoch is handed out at once.
    public var endsEpoch = false

    /// An empty report for a message with `signature`.
    public init(signature: SentenceSignature) {
        self.signature = signature
    }
}
