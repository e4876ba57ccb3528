/// MWV, wind speed and angle, relative (apparent) or theoretical (true), off the bow.
///
///     $WIMWV,320.0,R,15.2,N,A*14
///
///            1   2 3   4 5
///     $--MWV,x.x,a,x.x,a,A*hh
///
/// 1. Wind angle off the bow, clockwise, degrees (0 to 359.9)
/// 2. Reference: `R` relative (apparent wind), `T` theoretical (true wind, as if the vessel stood still)
/// 3. Wind speed
/// 4. Wind speed unit: `K` km/h, `M` m/s, `N` knots, `S` statute miles per hour
/// 5. Status: `A` valid, `V` not valid
///
/// The speed is kept in the unit sent; ``speedMetersPerSecond`` converts it. Its JSON name says the unit
/// (`wind_speed_knots`, `wind_speed_kmh`, `wind_speed_mps`, `wind_speed_mph`; `wind_speed` when the unit was left
/// empty).
public struct MWV: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.mwv) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$WIMWV,320.0,R,15.2,N,A*14"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var angleDegrees: FixedPoint?
    public var reference: WindReference?
    /// In ``speedUnit``.
    public var speed: FixedPoint?
    public var speedUnit: SpeedUnit?
    public var isValid: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .weatherInstruments, angleDegrees: FixedPoint?, reference: WindReference?,
        speed: FixedPoint?, speedUnit: SpeedUnit?, isValid: Bool?
    ) {
        self.talker = talker
        self.angleDegrees = angleDegrees
        self.reference = reference
        self.speed = speed
        self.speedUnit = speedUnit
        self.isValid = isValid
    }

    /// The speed in m/s; `nil` without a speed or its unit.
    public var speedMetersPerSecond: Double? {
        guard let speed, let speedUnit else { return nil }
        return speed.doubleValue * speedUnit.metersPerSecond
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        angleDegrees = fields.fixedPoint()
        reference = fields.letter(in: "RT").flatMap(WindReference.init(rawValue:))
        speed = fields.fixedPoint()
        speedUnit = fields.letter(in: SpeedUnit.letters).flatMap(SpeedUnit.init(rawValue:))
        isValid = fields.status()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("wind_angle_deg", angleDegrees)
        sink.field("reference", letter: reference?.rawValue)
        switch speedUnit {
        case .knots: sink.field("wind_speed_knots", speed)
        case .kilometersPerHour: sink.field("wind_speed_kmh", speed)
        case .metersPerSecond: sink.field("wind_speed_mps", speed)
        case .statuteMilesPerHour: sink.field("wind_speed_mph", speed)
        case nil: sink.field("wind_speed", speed)
        }
        sink.field("valid", isValid)
    }
}
