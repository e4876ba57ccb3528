/// Trimble `$PTNL,VGK`, vector information: the east, north and up components of the vector from a base station
/// (or moving base) to the receiver.
///
///     $PTNL,VGK,160159.00,010997,-0000.161,00009.985,-0000.002,3,07,1.4,M*0B
///
///           1   2         3      4   5   6   7 8  9   10
///     $PTNL,VGK,hhmmss.ss,mmddyy,x.x,x.x,x.x,x,xx,x.x,M*hh
///
///  1. Message ID `VGK`
///  2. UTC time of the vector
///  3. UTC date, `mmddyy` (month first)
///  4. East component, metres
///  5. North component, metres
///  6. Up component, metres
///  7. GPS quality, Trimble's numbers as in ``PTNLGGK``
///  8. Satellites used
///  9. DOP of the vector
/// 10. `M`: the components are in metres
///
/// Trimble's manuals print their example with the DOP as `1,4`, one field too many: decoded as it stands, the DOP is
/// 1 and field 10 is a bad unit.
public struct PTNLVGK: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "V", "G", "K") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,VGK,160159.00,010997,-0000.161,00009.985,-0000.002,3,07,1.4,M*0B"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    public var eastMeters: FixedPoint?
    public var northMeters: FixedPoint?
    public var upMeters: FixedPoint?
    /// Trimble's quality number (see ``PTNLGGK``).
    public var quality: Int?
    public var satellitesUsed: Int?
    public var dop: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, date: UTCDate?, eastMeters: FixedPoint?, northMeters: FixedPoint?, upMeters: FixedPoint?,
        quality: Int?, satellitesUsed: Int?, dop: FixedPoint?
    ) {
        self.time = time
        self.date = date
        self.eastMeters = eastMeters
        self.northMeters = northMeters
        self.upMeters = upMeters
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.dop = dop
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        time = fields.time()
        date = fields.monthFirstDate()
        eastMeters = fields.fixedPoint()
        northMeters = fields.fixedPoint()
        upMeters = fields.fixedPoint()
        quality = fields.integer(in: 0...99)
        satellitesUsed = fields.integer(in: 0...999)
        dop = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("east_m", eastMeters)
        sink.field("north_m", northMeters)
        sink.field("up_m", upMeters)
        sink.field("quality", quality)
        sink.field("satellites", satellitesUsed)
        sink.field("dop", dop)
    }
}
