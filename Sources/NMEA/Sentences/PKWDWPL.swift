/// Kenwood `$PKWDWPL`, a waypoint: the position of an APRS station or object that a Kenwood amateur radio heard,
/// sent on to a GPS receiver or map to show (Dire Wolf writes it too).
///
///     $PKWDWPL,150803,A,4237.14,N,07120.83,W,173.8,231.8,190316,1120,test,/'*39
///
///              1      2 3       4 5        6 7   8   9      10  11   12
///     $PKWDWPL,hhmmss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,c--c,ts*hh
///
///  1. UTC time (from the radio's clock)
///  2. Status: `A` valid, `V` not valid (radios send `V`)
///  3. 4. Latitude, `N`/`S`
///  5. 6. Longitude, `E`/`W`
///  7. Speed, knots
///  8. Course, degrees true
///  9. UTC date, `ddmmyy`
/// 10. Altitude, metres (Kenwood does not say; Dire Wolf and others write metres)
/// 11. Waypoint name: the station's call sign or the object's name
/// 12. APRS symbol: the table character (`/` or `\`) and the symbol character
///
/// No specification has been published; the layout is the one radios send and Dire Wolf documents. A symbol that is
/// itself a comma (the Boy Scouts one) splits field 12 in two: the table character is then all there is.
public struct PKWDWPL: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pkwdwpl) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PKWDWPL,150803,A,4237.14,N,07120.83,W,173.8,231.8,190316,1120,test,/'*39"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 9, as ``PKLDS``'s.
    public var fix: KenwoodFix
    public var altitudeMeters: FixedPoint?
    public var name: WaypointID
    /// Table and symbol characters, as sent.
    public var symbol: ShortCode

    public init(fix: KenwoodFix, altitudeMeters: FixedPoint?, name: WaypointID, symbol: ShortCode) {
        self.fix = fix
        self.altitudeMeters = altitudeMeters
        self.name = name
        self.symbol = symbol
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodFix(reading: &fields)
        altitudeMeters = fields.fixedPoint()
        name = fields.waypointID()
        symbol = fields.code()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("altitude", altitudeMeters)
        sink.field("name", letters: name.bytes)
        if !symbol.isEmpty { sink.field("symbol", code: symbol) }
    }
}
