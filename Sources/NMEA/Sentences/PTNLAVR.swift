/// Trimble `$PTNL,AVR`, time, yaw, tilt or roll, and range for moving-baseline RTK: the attitude of the vector
/// between a two-antenna receiver's antennas.
///
///     $PTNL,AVR,181059.6,+149.4688,Yaw,+0.0134,Tilt,,,60.191,3,2.5,6*00
///
///           1   2         3   4   5   6    7   8    9   10 11  12
///     $PTNL,AVR,hhmmss.ss,x.x,Yaw,x.x,Tilt,x.x,Roll,x.x, x,x.x,xx*hh
///
///  1. Message ID `AVR`
///  2. UTC time of the vector
///  3. 4. Yaw: the vector's direction from true north, degrees, and the word `Yaw`
///  5. 6. Tilt: the vector's angle above the horizontal, degrees, and the word `Tilt`
///  7. 8. Roll, degrees, and the word `Roll` (older receivers leave both empty, as reserved)
///  9. Range: the length of the vector between the antennas, metres
/// 10. GPS quality: 0 no fix, 1 autonomous, 2 RTK float, 3 RTK fixed, 4 DGPS
/// 11. PDOP
/// 12. Satellites used
///
/// Which of tilt and roll a receiver sends depends on how its antennas are mounted: along the vehicle the vector's
/// tilt is its pitch, across it its roll. A label word other than the expected one is an error; so is a quality
/// above 99.
public struct PTNLAVR: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "A", "V", "R") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,AVR,181059.6,+149.4688,Yaw,+0.0134,Tilt,,,60.191,3,2.5,6*00"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    /// Degrees from true north.
    public var yawDegrees: FixedPoint?
    /// Degrees, positive up.
    public var tiltDegrees: FixedPoint?
    public var rollDegrees: FixedPoint?
    public var rangeMeters: FixedPoint?
    /// 0 no fix, 1 autonomous, 2 RTK float, 3 RTK fixed, 4 DGPS.
    public var quality: Int?
    public var pdop: FixedPoint?
    public var satellitesUsed: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, yawDegrees: FixedPoint?, tiltDegrees: FixedPoint?, rollDegrees: FixedPoint? = nil,
        rangeMeters: FixedPoint?, quality: Int?, pdop: FixedPoint?, satellitesUsed: Int?
    ) {
        self.time = time
        self.yawDegrees = yawDegrees
        self.tiltDegrees = tiltDegrees
        self.rollDegrees = rollDegrees
        self.rangeMeters = rangeMeters
        self.quality = quality
        self.pdop = pdop
        self.satellitesUsed = satellitesUsed
    }

    /// `false` for quality 0 (no fix); `true` for another, or none sent.
    public var isValid: Bool { quality != 0 }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        yawDegrees = fields.fixedPoint()
        _ = fields.code(in: "Yaw")
        tiltDegrees = fields.fixedPoint()
        _ = fields.code(in: "Tilt")
        rollDegrees = fields.fixedPoint()
        _ = fields.code(in: "Roll")
        rangeMeters = fields.fixedPoint()
        quality = fields.integer(in: 0...99)
        pdop = fields.fixedPoint()
        satellitesUsed = fields.integer(in: 0...999)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("yaw_deg", yawDegrees)
        sink.field("tilt_deg", tiltDegrees)
        sink.field("roll_deg", rollDegrees)
        sink.field("range_m", rangeMeters)
        sink.field("quality", quality)
        sink.field("pdop", pdop)
        sink.field("satellites", satellitesUsed)
    }
}
