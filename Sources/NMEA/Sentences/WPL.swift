/// WPL, a waypoint's position and identifier.
///
///     $GPWPL,4917.16,N,12310.64,W,003*65
///
///            1       2 3        4 5
///     $--WPL,llll.ll,a,yyyyy.yy,a,c--c*hh
///
/// 1. 2. Latitude, `N`/`S`
/// 3. 4. Longitude, `E`/`W`
/// 5. Waypoint identifier
public struct WPL: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.wpl) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPWPL,4917.16,N,12310.64,W,003*65"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Degrees, negative south (as ``GLL/latitude``).
    public var latitude: FixedPoint?
    /// Degrees, negative west.
    public var longitude: FixedPoint?
    public var id: WaypointID

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .gps, latitude: FixedPoint?, longitude: FixedPoint?, id: WaypointID) {
        self.talker = talker
        self.latitude = latitude
        self.longitude = longitude
        self.id = id
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        latitude = fields.latitude()
        longitude = fields.longitude()
        id = fields.waypointID()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("waypoint", letters: id.bytes)
    }
}
