/// Trimble `$PTNL,BPQ`, base station position and quality: where the moving base antenna of a receiver in heading
/// mode is, and how good that position is, sent on one port beside the heading message.
///
///     $PTNL,BPQ,224445.06,021207,3723.09383914,N,12200.32620132,W,EHT-5.923,M,5*60
///
///           1   2         3      4       5 6        7 8      9 10
///     $PTNL,BPQ,hhmmss.ss,ddmmyy,ddmm.mm,a,dddmm.mm,a,EHTx.x,M,x*hh
///
///  1. Message ID `BPQ`
///  2. UTC time of the position
///  3. UTC date, `ddmmyy` (day first, unlike the month-first dates of ``PTNLGGK`` and ``PTNLPJK``)
///  4. 5. Latitude and `N`/`S`
///  6. 7. Longitude and `E`/`W`
///  8. Ellipsoidal height of the antenna, metres, after `EHT`
///  9. `M`: metres
/// 10. GPS quality: 0 no fix, 1 autonomous, 2 differential (SBAS, OmniSTAR VBS), 4 RTK fixed, 5 OmniSTAR XP/HP,
///     CenterPoint RTX, RTK float or location RTK (always 0 when CMRx corrections are received)
///
/// The layout is Trimble's receiver help ("NMEA-0183 message: PTNL,BPQ", OEM receivers v4.44 and Alloy) and the SPSx51
/// user guide; its example is the sample. pynmea2 and pynmeagps read it alike (pynmea2 lists a satellite count after
/// the quality that no Trimble document has: it is not read).
public struct PTNLBPQ: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "B", "P", "Q") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,BPQ,224445.06,021207,3723.09383914,N,12200.32620132,W,EHT-5.923,M,5*60"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    /// Metres above the ellipsoid (not mean sea level).
    public var ellipsoidHeightMeters: FixedPoint?
    /// Trimble's quality number (see the list above).
    public var quality: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, date: UTCDate?, latitude: FixedPoint?, longitude: FixedPoint?,
        ellipsoidHeightMeters: FixedPoint?, quality: Int?
    ) {
        self.time = time
        self.date = date
        self.latitude = latitude
        self.longitude = longitude
        self.ellipsoidHeightMeters = ellipsoidHeightMeters
        self.quality = quality
    }

    /// `false` for quality 0 (no fix); `true` for another, or none sent.
    public var isValid: Bool { quality != 0 }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        date = fields.date()
        latitude = fields.latitude()
        longitude = fields.longitude()
        ellipsoidHeightMeters = fields.labelledFixedPoint(labels: "EHT").value
        fields.unit("M")
        quality = fields.integer(in: 0...99)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("altitude_ellipsoid", ellipsoidHeightMeters)
        sink.field("quality", quality)
    }
}
