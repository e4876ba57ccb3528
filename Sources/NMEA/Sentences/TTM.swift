/// TTM, tracked target message: a radar (ARPA) target's range, bearing, motion and closest point of approach.
///
///     $RATTM,11,11.4,13.6,T,7.0,20.0,T,0.5,0.9,N,TGT11,T,,100021.00,A*7B
///
///            1  2   3   4 5   6   7 8   9   10 11   12 13 14        15
///     $--TTM,xx,x.x,x.x,a,x.x,x.x,a,x.x,x.x,a,c--c,a,a,hhmmss.ss,a*hh
///
/// 1. Target number (00 to 99; up to 999 from NMEA 4.10)
/// 2. Distance of the target from own ship, in the ``units``
/// 3. 4. Bearing from own ship, degrees, `T` true or `R` relative to own heading
/// 5. Target speed, in the ``units``
/// 6. 7. Target course, degrees, `T` true or `R` relative to own heading
/// 8. Distance of the closest point of approach, in the ``units``
/// 9. Time until the closest point of approach, minutes; negative: the distance is increasing
/// 10. Units of distance and speed: `K` kilometres and km/h, `N` nautical miles and knots, `S` statute miles and mph
/// 11. Target name
/// 12. Target status: `L` lost, `Q` being acquired, `T` tracked
/// 13. `R` for the reference target, empty otherwise
/// 14. UTC time of the data (NMEA 3.0 and later)
/// 15. Acquisition: `A` automatic, `M` manual, `R` reported (NMEA 3.0 and later)
///
/// The JSON names of the distances and the speed say the unit (`distance_nm`, `speed_knots`, `cpa_distance_nm`;
/// `_km`/`_kmh`, `_mi`/`_mph`; no suffix when the unit was left empty).
public struct TTM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.ttm) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$RATTM,11,11.4,13.6,T,7.0,20.0,T,0.5,0.9,N,TGT11,T,,100021.00,A*7B"
    }

    /// What a bearing or course is measured from.
    public enum Reference: UInt8, Hashable, Sendable {
        /// `T`: degrees true, from north.
        case trueNorth = 84  // T
        /// `R`: relative to own ship's heading.
        case relative = 82  // R
    }

    /// How the target was acquired.
    public enum Acquisition: UInt8, Hashable, Sendable {
        /// `A`: automatically.
        case automatic = 65  // A
        /// `M`: manually.
        case manual = 77  // M
        /// `R`: reported (by AIS, for one).
        case reported = 82  // R
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var targetNumber: Int?
    /// In ``units``.
    public var distance: FixedPoint?
    public var bearingDegrees: FixedPoint?
    public var bearingReference: Reference?
    /// In ``units`` (per hour).
    public var speed: FixedPoint?
    public var courseDegrees: FixedPoint?
    public var courseReference: Reference?
    /// In ``units``.
    public var closestApproachDistance: FixedPoint?
    /// Negative: the distance is increasing.
    public var timeToClosestApproachMinutes: FixedPoint?
    public var units: SpeedUnit?
    public var name: WaypointID
    public var status: TargetStatus?
    public var isReferenceTarget: Bool
    public var time: UTCTime?
    public var acquisition: Acquisition?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .radar, targetNumber: Int?, distance: FixedPoint?, bearingDegrees: FixedPoint?,
        bearingReference: Reference?, speed: FixedPoint?, courseDegrees: FixedPoint?, courseReference: Reference?,
        closestApproachDistance: FixedPoint?, timeToClosestApproachMinutes: FixedPoint?, units: SpeedUnit?,
        name: WaypointID = "", status: TargetStatus?, isReferenceTarget: Bool = false, time: UTCTime? = nil,
        acquisition: Acquisition? = nil
    ) {
        self.talker = talker
        self.targetNumber = targetNumber
        self.distance = distance
        self.bearingDegrees = bearingDegrees
        self.bearingReference = bearingReference
        self.speed = speed
        self.courseDegrees = courseDegrees
        self.courseReference = courseReference
        self.closestApproachDistance = closestApproachDistance
        self.timeToClosestApproachMinutes = timeToClosestApproachMinutes
        self.units = units
        self.name = name
        self.status = status
        self.isReferenceTarget = isReferenceTarget
        self.time = time
        self.acquisition = acquisition
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        targetNumber = fields.integer(in: 0...999)
        distance = fields.fixedPoint()
        bearingDegrees = fields.fixedPoint()
        bearingReference = fields.letter(in: "TR").flatMap(Reference.init(rawValue:))
        speed = fields.fixedPoint()
        courseDegrees = fields.fixedPoint()
        courseReference = fields.letter(in: "TR").flatMap(Reference.init(rawValue:))
        closestApproachDistance = fields.fixedPoint()
        timeToClosestApproachMinutes = fields.fixedPoint()
        units = fields.letter(in: "KNS").flatMap(SpeedUnit.init(rawValue:))
        name = fields.waypointID()
        status = fields.targetStatus()
        isReferenceTarget = fields.isReferenceTarget()
        time = fields.time()
        acquisition = fields.letter(in: "AMR").flatMap(Acquisition.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        let names: (distance: StaticString, speed: StaticString, closestApproach: StaticString) =
            switch units {
            case .knots: ("distance_nm", "speed_knots", "cpa_distance_nm")
            case .kilometersPerHour: ("distance_km", "speed_kmh", "cpa_distance_km")
            case .statuteMilesPerHour: ("distance_mi", "speed_mph", "cpa_distance_mi")
            case .metersPerSecond, nil: ("distance", "speed", "cpa_distance")
            }
        sink.field("target", targetNumber)
        sink.field(names.distance, distance)
        sink.field("bearing_deg", bearingDegrees)
        sink.field("bearing_reference", letter: bearingReference?.rawValue)
        sink.field(names.speed, speed)
        sink.field("course_deg", courseDegrees)
        sink.field("course_reference", letter: courseReference?.rawValue)
        sink.field(names.closestApproach, closestApproachDistance)
        sink.field("tcpa_min", timeToClosestApproachMinutes)
        if !name.isEmpty { sink.field("name", letters: name.bytes) }
        sink.field("status", letter: status?.rawValue)
        if isReferenceTarget { sink.field("reference_target", true) }
        sink.field("time", time)
        sink.field("acquisition", letter: acquisition?.rawValue)
    }
}
