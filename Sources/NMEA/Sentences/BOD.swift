/// BOD, bearing from the origin waypoint to the destination waypoint.
///
///     $GPBOD,097.0,T,103.2,M,POINTB,POINTA*4A
///
///            1   2 3   4 5    6
///     $--BOD,x.x,T,x.x,M,c--c,c--c*hh
///
/// 1. 2. Bearing, degrees true, `T`
/// 3. 4. Bearing, degrees magnetic, `M`
/// 5. Destination waypoint
/// 6. Origin waypoint (left empty while steering from the present position)
public struct BOD: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.bod) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPBOD,097.0,T,103.2,M,POINTB,POINTA*4A"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Bearing, degrees true, `T`
    public var bearingTrueDegrees: FixedPoint?
    /// Bearing, degrees magnetic, `M`
    public var bearingMagneticDegrees: FixedPoint?
    /// Destination waypoint
    public var destinationWaypoint: WaypointID
    /// Origin waypoint (left empty while steering from the present position)
    public var originWaypoint: WaypointID

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, bearingTrueDegrees: FixedPoint?, bearingMagneticDegrees: FixedPoint?,
        destinationWaypoint: WaypointID, originWaypoint: WaypointID
    ) {
        self.talker = talker
        self.bearingTrueDegrees = bearingTrueDegrees
        self.bearingMagneticDegrees = bearingMagneticDegrees
        self.destinationWaypoint = destinationWaypoint
        self.originWaypoint = originWaypoint
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        bearingTrueDegrees = fields.fixedPoint()
        fields.unit("T")
        bearingMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        destinationWaypoint = fields.waypointID()
        originWaypoint = fields.waypointID()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("bearing_true_deg", bearingTrueDegrees)
        sink.field("bearing_magnetic_deg", bearingMagneticDegrees)
        sink.field("destination_waypoint", letters: destinationWaypoint.bytes)
        sink.field("origin_waypoint", letters: originWaypoint.bytes)
    }
}
