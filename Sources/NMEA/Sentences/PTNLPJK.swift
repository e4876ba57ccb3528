/// Trimble `$PTNL,PJK`, local coordinate position: a fix as northing and easting on the receiver's configured map
/// projection (named by `$PTNL,PJT`), with its height.
///
///     $PTNL,PJK,010717.00,081796,+732646.511,N,+1731051.091,E,1,05,2.7,EHT-28.345,M*7C
///
///           1   2         3      4   5 6   7 8 9  10  11     12
///     $PTNL,PJK,hhmmss.ss,mmddyy,x.x,N,x.x,E,x,xx,x.x,EHTx.x,M*hh
///
///  1. Message ID `PJK`
///  2. UTC time
///  3. UTC date, `mmddyy` (month first)
///  4. 5. Northing, metres, and `N`
///  6. 7. Easting, metres, and `E`
///  8. GPS quality, Trimble's numbers as in ``PTNLGGK``
///  9. Satellites used
/// 10. DOP
/// 11. Height, metres, after `EHT` (above the ellipsoid) or `GHT` (above the geoid)
/// 12. `M`: metres
public struct PTNLPJK: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "P", "J", "K") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,PJK,010717.00,081796,+732646.511,N,+1731051.091,E,1,05,2.7,EHT-28.345,M*7C"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    public var northingMeters: FixedPoint?
    public var eastingMeters: FixedPoint?
    /// Trimble's quality number (see ``PTNLGGK``).
    public var quality: Int?
    public var satellitesUsed: Int?
    public var dop: FixedPoint?
    public var heightMeters: FixedPoint?
    /// `true` when the height is above the ellipsoid (`EHT`), `false` above the geoid (`GHT`), `nil` unlabelled.
    public var heightIsEllipsoidal: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, date: UTCDate?, northingMeters: FixedPoint?, eastingMeters: FixedPoint?, quality: Int?,
        satellitesUsed: Int?, dop: FixedPoint?, heightMeters: FixedPoint?, heightIsEllipsoidal: Bool?
    ) {
        self.time = time
        self.date = date
        self.northingMeters = northingMeters
        self.eastingMeters = eastingMeters
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.dop = dop
        self.heightMeters = heightMeters
        self.heightIsEllipsoidal = heightIsEllipsoidal
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        date = fields.monthFirstDate()
        northingMeters = fields.fixedPoint()
        fields.unit("N")
        eastingMeters = fields.fixedPoint()
        fields.unit("E")
        quality = fields.integer(in: 0...99)
        satellitesUsed = fields.integer(in: 0...999)
        dop = fields.fixedPoint()
        let height = fields.labelledFixedPoint(labels: "EHT,GHT")
        heightMeters = height.value
        heightIsEllipsoidal = height.label.isEmpty ? nil : height.label == "EHT"
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("northing_m", northingMeters)
        sink.field("easting_m", eastingMeters)
        sink.field("quality", quality)
        sink.field("satellites", satellitesUsed)
        sink.field("dop", dop)
        sink.field("height_m", heightMeters)
        sink.field("height_ellipsoidal", heightIsEllipsoidal)
    }
}
