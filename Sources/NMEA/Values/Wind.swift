/// Which wind an MWV angle and speed describe.
public enum WindReference: UInt8, Hashable, Sendable {
    /// `R`: the relative (apparent) wind, as felt on the moving vessel.
    case relative = 82  // R
    /// `T`: the theoretical (true) wind, as if the vessel stood still; its angle is still off the bow.
    case theoretical = 84  // T
}

/// The unit letter of a speed (MWV), or of a distance and a speed together (TTM: kilometres and km/h, nautical miles
/// and knots, statute miles and miles per hour).
public enum SpeedUnit: UInt8, Hashable, Sendable {
    /// `K`: km/h (and kilometres).
    case kilometersPerHour = 75  // K
    /// `M`: m/s.
    case metersPerSecond = 77  // M
    /// `N`: knots (and nautical miles).
    case knots = 78  // N
    /// `S`: statute miles per hour (and statute miles).
    case statuteMilesPerHour = 83  // S

    /// The letters NMEA 0183 4.11 defines for MWV: `K M N S`.
    public static let letters: StaticString = "KMNS"

    /// How many metres per second one of this unit is.
    public var metersPerSecond: Double {
        switch self {
        case .kilometersPerHour: 1 / 3.6
        case .metersPerSecond: 1
        case .knots: 1852 / 3600
        case .statuteMilesPerHour: 1609.344 / 3600
        }
    }
}

/// A wind angle off the bow, left or right, and its speed in three units, as VWR and VWT send them.
public struct WindAngleAndSpeeds: Hashable, Sendable {
    /// Degrees off the bow, 0 to 180; negative when the wind comes from the left (port, `L`).
    public var angleDegrees: FixedPoint?
    /// Speed in knots, as sent.
    public var speedKnots: FixedPoint?
    /// Speed in metres per second, as sent.
    public var speedMetersPerSecond: FixedPoint?
    /// Speed in kilometres per hour, as sent.
    public var speedKilometersPerHour: FixedPoint?

    /// A value in the units given.
    public init(
        angleDegrees: FixedPoint?, speedKnots: FixedPoint? = nil, speedMetersPerSecond: FixedPoint? = nil,
        speedKilometersPerHour: FixedPoint? = nil
    ) {
        self.angleDegrees = angleDegrees
        self.speedKnots = speedKnots
        self.speedMetersPerSecond = speedMetersPerSecond
        self.speedKilometersPerHour = speedKilometersPerHour
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("wind_angle_deg", angleDegrees)
        sink.field("wind_speed_knots", speedKnots)
        sink.field("wind_speed_mps", speedMetersPerSecond)
        sink.field("wind_speed_kmh", speedKilometersPerHour)
    }
}

/// A wind's direction (where it blows from, degrees true and magnetic) and its speed in knots and m/s, as MWD and MDA
/// send them.
public struct WindDirectionAndSpeed: Hashable, Sendable {
    /// Direction, degrees true.
    public var directionTrueDegrees: FixedPoint?
    /// Direction, degrees magnetic.
    public var directionMagneticDegrees: FixedPoint?
    /// Speed in knots, as sent.
    public var speedKnots: FixedPoint?
    /// Speed in metres per second, as sent.
    public var speedMetersPerSecond: FixedPoint?

    /// A value in the units given.
    public init(
        directionTrueDegrees: FixedPoint? = nil, directionMagneticDegrees: FixedPoint? = nil,
        speedKnots: FixedPoint? = nil, speedMetersPerSecond: FixedPoint? = nil
    ) {
        self.directionTrueDegrees = directionTrueDegrees
        self.directionMagneticDegrees = directionMagneticDegrees
        self.speedKnots = speedKnots
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("wind_direction_true_deg", directionTrueDegrees)
        sink.field("wind_direction_magnetic_deg", directionMagneticDegrees)
        sink.field("wind_speed_knots", speedKnots)
        sink.field("wind_speed_mps", speedMetersPerSecond)
    }
}

extension FieldReader {
    /// Reads `x.x,a,x.x,N,x.x,M,x.x,K`: an angle with `L`/`R`, then knots, m/s and km/h, each with its unit letter.
    @inline(__always)
    mutating func windAngleAndSpeeds() -> WindAngleAndSpeeds {
        let angle = signed(positive: "R", negative: "L")
        let knots = fixedPoint()
        unit("N")
        let metersPerSecond = fixedPoint()
        unit("M")
        let kilometersPerHour = fixedPoint()
        unit("K")
        return WindAngleAndSpeeds(
            angleDegrees: angle, speedKnots: knots, speedMetersPerSecond: metersPerSecond,
            speedKilometersPerHour: kilometersPerHour)
    }

    /// Reads `x.x,T,x.x,M,x.x,N,x.x,M`: directions true and magnetic, speeds in knots and m/s, each with its letter.
    @inline(__always)
    mutating func windDirectionAndSpeed() -> WindDirectionAndSpeed {
        let directionTrue = fixedPoint()
        unit("T")
        let directionMagnetic = fixedPoint()
        unit("M")
        let knots = fixedPoint()
        unit("N")
        let metersPerSecond = fixedPoint()
        unit("M")
        return WindDirectionAndSpeed(
            directionTrueDegrees: directionTrue, directionMagneticDegrees: directionMagnetic, speedKnots: knots,
            speedMetersPerSecond: metersPerSecond)
    }
}
