/// Trimble `$PTNL,VHD`, heading information: the direction, elevation and length of the vector from a static or
/// moving base to the receiver's antenna, and how fast each changes.
///
///     $PTNL,VHD,030556.00,093098,187.718,-22.138,-76.929,-5.015,0.033,0.006,3,07,2.4,M*22
///
///           1   2         3      4   5   6   7   8   9   10 11 12  13
///     $PTNL,VHD,hhmmss.ss,mmddyy,x.x,x.x,x.x,x.x,x.x,x.x, x,xx,x.x,M*hh
///
///  1. Message ID `VHD`
///  2. UTC time
///  3. UTC date, `mmddyy` (month first)
///  4. Azimuth, degrees
///  5. Rate of change of azimuth, degrees per second
///  6. Vertical angle, degrees
///  7. Rate of change of the vertical angle, degrees per second
///  8. Range, metres
///  9. Rate of change of range, metres per second
/// 10. GPS quality, Trimble's numbers as in ``PTNLGGK``
/// 11. Satellites used
/// 12. PDOP
/// 13. `M`: metres
///
/// The azimuth is the base-to-antenna vector's, not the vehicle's heading: it does not go into the fix.
public struct PTNLVHD: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "V", "H", "D") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,VHD,030556.00,093098,187.718,-22.138,-76.929,-5.015,0.033,0.006,3,07,2.4,M*22"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    public var azimuthDegrees: FixedPoint?
    public var azimuthRateDegreesPerSecond: FixedPoint?
    public var verticalAngleDegrees: FixedPoint?
    public var verticalAngleRateDegreesPerSecond: FixedPoint?
    public var rangeMeters: FixedPoint?
    /// Metres per second.
    public var rangeRate: FixedPoint?
    /// Trimble's quality number (see ``PTNLGGK``).
    public var quality: Int?
    public var satellitesUsed: Int?
    public var pdop: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, date: UTCDate?, azimuthDegrees: FixedPoint?, azimuthRateDegreesPerSecond: FixedPoint?,
        verticalAngleDegrees: FixedPoint?, verticalAngleRateDegreesPerSecond: FixedPoint?, rangeMeters: FixedPoint?,
        rangeRate: FixedPoint?, quality: Int?, satellitesUsed: Int?, pdop: FixedPoint?
    ) {
        self.time = time
        self.date = date
        self.azimuthDegrees = azimuthDegrees
        self.azimuthRateDegreesPerSecond = azimuthRateDegreesPerSecond
        self.verticalAngleDegrees = verticalAngleDegrees
        self.verticalAngleRateDegreesPerSecond = verticalAngleRateDegreesPerSecond
        self.rangeMeters = rangeMeters
        self.rangeRate = rangeRate
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.pdop = pdop
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        date = fields.monthFirstDate()
        azimuthDegrees = fields.fixedPoint()
        azimuthRateDegreesPerSecond = fields.fixedPoint()
        verticalAngleDegrees = fields.fixedPoint()
        verticalAngleRateDegreesPerSecond = fields.fixedPoint()
        rangeMeters = fields.fixedPoint()
        rangeRate = fields.fixedPoint()
        quality = fields.integer(in: 0...99)
        satellitesUsed = fields.integer(in: 0...999)
        pdop = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("azimuth_deg", azimuthDegrees)
        sink.field("azimuth_rate_deg_per_s", azimuthRateDegreesPerSecond)
        sink.field("vertical_angle_deg", verticalAngleDegrees)
        sink.field("vertical_angle_rate_deg_per_s", verticalAngleRateDegreesPerSecond)
        sink.field("range_m", rangeMeters)
        sink.field("range_rate_m_per_s", rangeRate)
        sink.field("quality", quality)
        sink.field("satellites", satellitesUsed)
        sink.field("pdop", pdop)
    }
}
