/// BWW, bearing from one waypoint (FROM) to another (TO).
///
///     $GPBWW,097.0,T,103.2,M,POINTB,POINTA*41
///
///            1   2 3   4 5    6
///     $--BWW,x.x,T,x.x,M,c--c,c--c*hh
///
/// 1. 2. Bearing, degrees true, `T`
/// 3. 4. Bearing, degrees magnetic, `M`
/// 5. TO waypoint
/// 6. FROM waypoint
public struct BWW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.bww) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPBWW,097.0,T,103.2,M,POINTB,POINTA*41"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Bearing, degrees true, `T`
    public var bearingTrueDegrees: FixedPoint?
    /// Bearing, degrees magnetic, `M`
    public var bearingMagneticDegrees: FixedPoint?
    /// TO waypoint
    public var toWaypoint: WaypointID
    /// FROM waypoint
    public var fromWaypoint: WaypointID

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, bearingTrueDegrees: FixedPoint?, bearingMagneticDegrees: FixedPoint?,
        toWaypoint: WaypointID, fromWaypoint: WaypointID
    ) {
        self.talker = talker
        self.bearingTrueDegrees = bearingTrueDegrees
        self.bearingMagneticDegrees = bearingMagneticDegrees
        self.toWaypoint = toWaypoint
        self.fromWaypoint = fromWaypoint
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        bearingTrueDegrees = fields.fixedPoint()
        fields.unit("T")
        bearingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        toWaypoint = fields.waypointID()
        fromWaypoint = fields.waypointID()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("bearing_true_deg", bearingTrueDegrees)
        sink.field("bearing_magnetic_deg", bearingMagneticDegrees)
        sink.field("to_waypoint", letters: toWaypoint.bytes)
        sink.field("from_waypoint", letters: fromWaypoint.bytes)
    }
}
