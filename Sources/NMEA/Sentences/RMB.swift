/// RMB, recommended minimum navigation information: steering to a destination waypoint.
///
///     $GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V*20
///
///            1 2   3 4    5    6       7 8        9 10  11  12  13 14
///     $--RMB,A,x.x,a,c--c,c--c,llll.ll,a,yyyyy.yy,a,x.x,x.x,x.x,A,m*hh
///
/// 1. Status: `A` valid, `V` navigation receiver warning
/// 2. Cross-track error, nautical miles (9.99 at most)
/// 3. Direction to steer: `L`/`R`
/// 4. Origin waypoint
/// 5. Destination waypoint
/// 6. 7. Destination latitude, `N`/`S`
/// 8. 9. Destination longitude, `E`/`W`
/// 10. Range to the destination, nautical miles
/// 11. Bearing to the destination, degrees true
/// 12. Closing velocity toward the destination, knots
/// 13. Arrival status: `A` arrival circle entered or perpendicular passed, `V` not yet
/// 14. FAA mode indicator (NMEA 2.3 and later)
public struct RMB: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rmb) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V*20"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Status: `A` valid, `V` navigation receiver warning
    public var isValid: Bool?
    /// Cross-track error, nautical miles (9.99 at most)
    public var crossTrackErrorNauticalMiles: FixedPoint?
    /// Direction to steer: `L`/`R`
    public var steer: SteeringDirection?
    /// Origin waypoint
    public var originWaypoint: WaypointID
    /// Destination waypoint
    public var destinationWaypoint: WaypointID
    /// Destination latitude, `N`/`S`
    public var destinationLatitude: FixedPoint?
    /// Destination longitude, `E`/`W`
    public var destinationLongitude: FixedPoint?
    /// Range to the destination, nautical miles
    public var rangeNauticalMiles: FixedPoint?
    /// Bearing to the destination, degrees true
    public var bearingTrueDegrees: FixedPoint?
    /// Closing velocity toward the destination, knots
    public var closingVelocityKnots: FixedPoint?
    /// Arrival status: `A` arrival circle entered or perpendicular passed, `V` not yet
    public var hasArrived: Bool?
    /// FAA mode indicator (NMEA 2.3 and later)
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, isValid: Bool?, crossTrackErrorNauticalMiles: FixedPoint?, steer: SteeringDirection?,
        originWaypoint: WaypointID, destinationWaypoint: WaypointID, destinationLatitude: FixedPoint?,
        destinationLongitude: FixedPoint?, rangeNauticalMiles: FixedPoint?, bearingTrueDegrees: FixedPoint?,
        closingVelocityKnots: FixedPoint?, hasArrived: Bool?, mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.isValid = isValid
        self.crossTrackErrorNauticalMiles = crossTrackErrorNauticalMiles
        self.steer = steer
        self.originWaypoint = originWaypoint
        self.destinationWaypoint = destinationWaypoint
        self.destinationLatitude = destinationLatitude
        self.destinationLongitude = destinationLongitude
        self.rangeNauticalMiles = rangeNauticalMiles
        self.bearingTrueDegrees = bearingTrueDegrees
        self.closingVelocityKnots = closingVelocityKnots
        self.hasArrived = hasArrived
        self.mode = mode
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        isValid = fields.status()
        crossTrackErrorNauticalMiles = fields.fixedPoint()
        steer = fields.steeringDirection()
        originWaypoint = fields.waypointID()
        destinationWaypoint = fields.waypointID()
        destinationLatitude = fields.latitude()
        destinationLongitude = fields.longitude()
        rangeNauticalMiles = fields.fixedPoint()
        bearingTrueDegrees = fields.fixedPoint()
        closingVelocityKnots = fields.fixedPoint()
        hasArrived = fields.status()
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("valid", isValid)
        sink.field("cross_track_error_nm", crossTrackErrorNauticalMiles)
        sink.field("steer", letter: steer?.rawValue)
        sink.field("origin_waypoint", letters: originWaypoint.bytes)
        sink.field("destination_waypoint", letters: destinationWaypoint.bytes)
        sink.field("destination_lat", destinationLatitude)
        sink.field("destination_lon", destinationLongitude)
        sink.field("range_nm", rangeNauticalMiles)
        sink.field("bearing_true_deg", bearingTrueDegrees)
        sink.field("closing_velocity_knots", closingVelocityKnots)
        sink.field("arrived", hasArrived)
        sink.field("mode", letter: mode?.rawValue)
    }
}
