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
    public static var address: SentenceAddress { .proprietary(.pgrmw) }
    public static var sample: String {
        "$PGRMW,N1CTF-3,45.7,0016,Home QTH*32"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var waypoint: WaypointID
    public var altitudeMeters: FixedPoint?
    public var symbol: Int?
    public var comment: ShortText

    public init(waypoint: WaypointID, altitudeMeters: FixedPoint?, symbol: Int?, comment: ShortText) {
        self.waypoint = waypoint
        self.altitudeMeters = altitudeMeters
        self.symbol = symbol
        self.comment = comment
    }

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("waypoint", letters: waypoint.bytes)
        sink.field("altitude", altitudeMeters)
        sink.field("symbol", symbol)
        if !comment.isEmpty { sink.field("comment", text: comment) }
    }
}
