/// AAM, waypoint arrival alarm.
///
///     $GPAAM,A,A,0.10,N,WPTNME*32
///
///            1 2 3   4 5
///     $--AAM,A,A,x.x,N,c--c*hh
///
/// 1. Arrival circle entered: `A` yes, `V` no
/// 2. Perpendicular passed at the waypoint: `A` yes, `V` no
/// 3. 4. Arrival circle radius, nautical miles, `N`
/// 5. Waypoint identifier
public struct AAM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.aam) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPAAM,A,A,0.10,N,WPTNME*32"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Arrival circle entered: `A` yes, `V` no
    public var arrivalCircleEntered: Bool?
    /// Perpendicular passed at the waypoint: `A` yes, `V` no
    public var perpendicularPassed: Bool?
    /// Arrival circle radius, nautical miles, `N`
    public var radiusNauticalMiles: FixedPoint?
    /// Waypoint identifier
    public var waypoint: WaypointID

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, arrivalCircleEntered: Bool?, perpendicularPassed: Bool?,
        radiusNauticalMiles: FixedPoint?, waypoint: WaypointID
    ) {
        self.talker = talker
        self.arrivalCircleEntered = arrivalCircleEntered
        self.perpendicularPassed = perpendicularPassed
        self.radiusNauticalMiles = radiusNauticalMiles
        self.waypoint = waypoint
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        arrivalCircleEntered = fields.status()
        perpendicularPassed = fields.status()
        radiusNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        waypoint = fields.waypointID()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("arrival_circle_entered", arrivalCircleEntered)
        sink.field("perpendicular_passed", perpendicularPassed)
        sink.field("arrival_radius_nm", radiusNauticalMiles)
        sink.field("waypoint", letters: waypoint.bytes)
    }
}
