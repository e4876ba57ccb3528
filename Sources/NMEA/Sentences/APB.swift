/// APB, heading and track information for an autopilot.
///
///     $GPAPB,A,A,0.10,R,N,V,V,011,M,DEST,011,M,011,M*3C
///
///            1 2 3   4 5 6 7 8   9 10   11  12 13  14 15
///     $--APB,A,A,x.x,a,N,A,A,x.x,a,c--c,x.x,a,x.x,a,m*hh
///
/// 1. Status: `A` valid, `V` Loran-C blink or SNR warning (general warning)
/// 2. Status: `A` valid, `V` Loran-C cycle lock warning
/// 3. Cross-track error, magnitude
/// 4. Direction to steer: `L`/`R`
/// 5. Cross-track units: `N` nautical miles (`K` kilometres, sent by some)
/// 6. Arrival circle entered: `A`/`V`
/// 7. Perpendicular passed at the waypoint: `A`/`V`
/// 8. 9. Bearing from origin to destination, degrees, `M` magnetic or `T` true
/// 10. Destination waypoint
/// 11. 12. Bearing from the present position to the destination, degrees, `M`/`T`
/// 13. 14. Heading to steer to the destination, degrees, `M`/`T`
/// 15. FAA mode indicator (NMEA 2.3 and later)
public struct APB: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.apb) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPAPB,A,A,0.10,R,N,V,V,011,M,DEST,011,M,011,M*3C"
    }

    /// A bearing and whether it is magnetic (`M`) or true (`T`); `nil` when the letter was left off.
    public struct Bearing: Hashable, Sendable {
        public var degrees: FixedPoint?
        public var isMagnetic: Bool?

        public init(degrees: FixedPoint?, isMagnetic: Bool?) {
            self.degrees = degrees
            self.isMagnetic = isMagnetic
        }
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var isValid: Bool?
    public var isCycleLocked: Bool?
    public var crossTrackError: FixedPoint?
    public var steer: SteeringDirection?
    /// `N` or `K`.
    public var crossTrackUnits: UInt8?
    public var arrivalCircleEntered: Bool?
    public var perpendicularPassed: Bool?
    public var bearingOriginToDestination: Bearing
    public var destinationWaypoint: WaypointID
    public var bearingToDestination: Bearing
    public var headingToSteer: Bearing
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, isValid: Bool?, isCycleLocked: Bool?, crossTrackError: FixedPoint?,
        steer: SteeringDirection?, crossTrackUnits: UInt8?, arrivalCircleEntered: Bool?, perpendicularPassed: Bool?,
        bearingOriginToDestination: Bearing, destinationWaypoint: WaypointID, bearingToDestination: Bearing,
        headingToSteer: Bearing, mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.isValid = isValid
        self.isCycleLocked = isCycleLocked
        self.crossTrackError = crossTrackError
        self.steer = steer
        self.crossTrackUnits = crossTrackUnits
        self.arrivalCircleEntered = arrivalCircleEntered
        self.perpendicularPassed = perpendicularPassed
        self.bearingOriginToDestination = bearingOriginToDestination
        self.destinationWaypoint = destinationWaypoint
        self.bearingToDestination = bearingToDestination
        self.headingToSteer = headingToSteer
        self.mode = mode
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        isValid = fields.status()
        isCycleLocked = fields.status()
        crossTrackError = fields.fixedPoint()
        steer = fields.steeringDirection()
        crossTrackUnits = fields.letter(in: "NK")
        arrivalCircleEntered = fields.status()
        perpendicularPassed = fields.status()
        bearingOriginToDestination = fields.apbBearing()
        destinationWaypoint = fields.waypointID()
        bearingToDestination = fields.apbBearing()
        headingToSteer = fields.apbBearing()
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("valid", isValid)
        sink.field("cycle_lock", isCycleLocked)
        if crossTrackUnits == UInt8(ascii: "K") {
            sink.field("cross_track_error_km", crossTrackError)
        } else {
            sink.field("cross_track_error_nm", crossTrackError)
        }
        sink.field("steer", letter: steer?.rawValue)
        sink.field("arrival_circle_entered", arrivalCircleEntered)
        sink.field("perpendicular_passed", perpendicularPassed)
        sink.field("origin_to_destination_bearing_deg", bearingOriginToDestination.degrees)
        sink.field("origin_to_destination_bearing_magnetic", bearingOriginToDestination.isMagnetic)
        sink.field("destination_waypoint", letters: destinationWaypoint.bytes)
        sink.field("bearing_to_destination_deg", bearingToDestination.degrees)
        sink.field("bearing_to_destination_magnetic", bearingToDestination.isMagnetic)
        sink.field("heading_to_steer_deg", headingToSteer.degrees)
        sink.field("heading_to_steer_magnetic", headingToSteer.isMagnetic)
        sink.field("mode", letter: mode?.rawValue)
    }
}

extension FieldReader {
    /// `x.x,a`: degrees and `M` (magnetic) or `T` (true).
    @inline(__always)
    mutating func apbBearing() -> APB.Bearing {
        let degrees = fixedPoint()
        let isMagnetic = letter(in: "MT").map { $0 == UInt8(ascii: "M") }
        return APB.Bearing(degrees: degrees, isMagnetic: isMagnetic)
    }
}
