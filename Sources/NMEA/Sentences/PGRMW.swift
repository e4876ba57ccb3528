/// Garmin `$PGRMW`, additional waypoint information: the altitude, symbol and comment of a waypoint that a `$GPWPL`
/// names (Garmin handhelds and APRS trackers exchange the two).
///
///     $PGRMW,N1CTF-3,45.7,0016,Home QTH*32
///
///            1    2   3    4
///     $PGRMW,c--c,x.x,hhhh,c--c*hh
///
/// 1. Waypoint identifier
/// 2. Altitude, metres
/// 3. Symbol number, hexadecimal (up to `FFFF`; Garmin's `symbol_type` numbers)
/// 4. Comment
public struct PGRMW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrmw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRMW,N1CTF-3,45.7,0016,Home QTH*32"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Waypoint identifier
    public var waypoint: WaypointID
    /// Altitude, metres
    public var altitudeMeters: FixedPoint?
    /// Symbol number, hexadecimal (up to `FFFF`; Garmin's `symbol_type` numbers)
    public var symbol: Int?
    /// Comment
    public var comment: ShortText

    public init(waypoint: WaypointID, altitudeMeters: FixedPoint?, symbol: Int?, comment: ShortText) {
        self.waypoint = waypoint
        self.altitudeMeters = altitudeMeters
        self.symbol = symbol
        self.comment = comment
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        waypoint = fields.waypointID()
        altitudeMeters = fields.fixedPoint()
        let symbolStart = fields.position
        symbol = fields.hexadecimal().map(Int.init)
        if let value = symbol, value > 0xFFFF {
            symbol = nil
            fields.reject(.outOfRange, fieldAt: symbolStart)
        }
        comment = fields.text()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("waypoint", letters: waypoint.bytes)
        sink.field("altitude", altitudeMeters)
        sink.field("symbol", symbol)
        if !comment.isEmpty { sink.field("comment", text: comment) }
    }
}
