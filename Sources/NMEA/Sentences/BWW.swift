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
    public static var address: SentenceAddress { .standard(.bww) }
    public static var sample: String {
        "$GPBWW,097.0,T,103.2,M,POINTB,POINTA*41"
    }

    public var talker: Talker
    public var bearingTrueDegrees: FixedPoint?
    public var bearingMagneticDegrees: FixedPoint?
    public var toWaypoint: WaypointID
    public var fromWaypoint: WaypointID

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("bearing_true_deg", bearingTrueDegrees)
        sink.field("bearing_magnetic_deg", bearingMagneticDegrees)
        sink.field("to_waypoint", letters: toWaypoint.bytes)
        sink.field("from_waypoint", letters: fromWaypoint.bytes)
    }
}
