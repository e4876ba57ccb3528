import Glibc
import NMEA

/// A deterministic journey to simulate: where it starts, and a list of legs (drive, park, lose the fix, go silent).
///
///     let scenario = Scenario(latitude: 48.1374, longitude: 11.5755, start: .init(2026, 11, 30, 8, 0, 0),
///                             legs: [.drive(seconds: 600, speedKmh: 50), .park(seconds: 900)])
///     for fix in scenario.fixes() { … }
///
/// The same scenario and seed give the same fixes, byte for byte, on every machine.
public struct Scenario: Sendable {
    /// One part of the journey.
    public enum Leg: Sendable, Hashable {
        /// Move at `speedKmh` along the current course, turning `turnDegreesPerSecond` (positive is clockwise).
        case drive(seconds: Double, speedKmh: Double, turnDegreesPerSecond: Double = 0)
        /// Stand still; the position wanders within `jitterMeters` and the speed reads 0.1–0.5 knots, as a parked
        /// receiver's does.
        case park(seconds: Double, jitterMeters: Double = 3)
        /// Keep sending sentences, with no fix (RMC status V, GGA quality 0).
        case noFix(seconds: Double)
        /// Send nothing at all (the receiver is off or unplugged); the journey does not move.
        case silence(seconds: Double)
        /// Set the course to `degrees` (true) instantly.
        case course(degrees: Double)
    }

    public var latitude: Double
    public var longitude: Double
    public var altitudeMeters: Double
    /// Nanoseconds since 1970-01-01 UTC of the first fix.
    public var startNanoseconds: Int64
    /// Fixes per second.
    public var rateHz: Double
    public var legs: [Leg]
    public var seed: UInt64
    /// The initial course, degrees true.
    public var courseDegrees: Double

    public init(
        latitude: Double = 48.137_40, longitude: Double = 11.575_50, altitudeMeters: Double = 520,
        start: DateTime = DateTime(2026, 11, 30, 8, 0, 0), rateHz: Double = 1, courseDegrees: Double = 45,
        legs: [Leg], seed: UInt64 = 1
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        startNanoseconds = start.nanosecondsSinceEpoch
        self.rateHz = rateHz
        self.courseDegrees = courseDegrees
        self.legs = legs
        self.seed = seed
    }

    /// The total duration of the legs, seconds.
    public var durationSeconds: Double {
        legs.reduce(0) { total, leg in
            switch leg {
            case .drive(let seconds, _, _), .park(let seconds, _), .noFix(let seconds), .silence(let seconds):
                total + seconds
            case .course: total
            }
        }
    }

    /// The fixes of the journey, one per epoch, in time order (silent legs produce none).
    public func fixes() -> FixSequence { FixSequence(scenario: self) }

    /// The fixes, generated as they are iterated (a day at 10 Hz is 864,000 of them).
    public struct FixSequence: Sequence {
        let scenario: Scenario

        public func makeIterator() -> Iterator { Iterator(scenario: scenario) }

        public struct Iterator: IteratorProtocol {
            let scenario: Scenario
            var random: SplitMix64
            var legIndex = 0
            var legElapsed = 0.0
            var epoch: Int64 = 0
            var latitude: Double
            var longitude: Double
            var course: Double
            var parkedAt: (Double, Double)?

            init(scenario: Scenario) {
                self.scenario = scenario
                random = SplitMix64(seed: scenario.seed)
                latitude = scenario.latitude
                longitude = scenario.longitude
                course = scenario.courseDegrees
            }

            public mutating func next() -> SimulatedFix? {
                let step = 1 / scenario.rateHz
                while legIndex < scenario.legs.count {
                    let leg = scenario.legs[legIndex]
                    let legSeconds: Double
                    switch leg {
                    case .course(let degrees):
                        course = degrees
                        legIndex += 1
                        continue
                    case .drive(let seconds, _, _), .park(let seconds, _), .noFix(let seconds), .silence(let seconds):
                        legSeconds = seconds
                    }
                    if legElapsed >= legSeconds - 1e-9 {
                        legIndex += 1
                        legElapsed = 0
                        parkedAt = nil
                        continue
                    }
                    let time = scenario.startNanoseconds + Int64((Double(epoch) * step * 1e9).rounded())
                    epoch += 1
                    legElapsed += step
                    switch leg {
                    case .drive(_, let speedKmh, let turn):
                        let speed = speedKmh / 3.6
                        let result = fix(time: time, speed: speed, hasFix: true)
                        move(meters: speed * step)
                        course = (course + turn * step).truncatingRemainder(dividingBy: 360)
                        if course < 0 { course += 360 }
                        return result
                    case .park(_, let jitter):
                        let center = parkedAt ?? (latitude, longitude)
                        parkedAt = center
                        let north = random.nextSigned() * jitter / 2
                        let east = random.nextSigned() * jitter / 2
                        let jittered = offset(center, north: north, east: east)
                        let knots = 0.1 + random.nextUnit() * 0.4
                        var result = fix(time: time, speed: knots * 1852 / 3600, hasFix: true)
                        result.latitude = jittered.0
                        result.longitude = jittered.1
                        result.courseDegrees = random.nextUnit() * 360
                        return result
                    case .noFix:
                        return fix(time: time, speed: 0, hasFix: false)
                    case .silence:
                        continue
                    case .course:
                        continue
                    }
                }
                return nil
            }

            private mutating func move(meters: Double) {
                let radians = course * .pi / 180
                (latitude, longitude) = offset(
                    (latitude, longitude), north: meters * cos(radians),
                    east: meters * sin(radians))
            }

            private mutating func fix(time: Int64, speed: Double, hasFix: Bool) -> SimulatedFix {
                // A gentle altitude profile so tracks have some relief.
                let seconds = Double(time - scenario.startNanoseconds) / 1e9
                let altitude = scenario.altitudeMeters + 15 * sin(seconds / 300)
                return SimulatedFix(
                    nanosecondsSinceEpoch: time, latitude: latitude, longitude: longitude, altitudeMeters: altitude,
                    speedMetersPerSecond: speed, courseDegrees: course, hasFix: hasFix,
                    satellites: Satellites.inView(atSecond: Double(time / 1_000_000_000), random: &random))
            }
        }
    }
}

/// `(latitude, longitude)` moved `north` and `east` metres (a local flat-earth step, exact enough per epoch).
func offset(_ position: (Double, Double), north: Double, east: Double) -> (Double, Double) {
    let radius = 6_371_008.8
    let latitude = position.0 + north / radius * 180 / .pi
    let longitude = position.1 + east / (radius * cos(position.0 * .pi / 180)) * 180 / .pi
    return (latitude, longitude)
}

/// The ground truth of one simulated epoch.
public struct SimulatedFix: Sendable, Hashable {
    public var nanosecondsSinceEpoch: Int64
    public var latitude: Double
    public var longitude: Double
    public var altitudeMeters: Double
    public var speedMetersPerSecond: Double
    public var courseDegrees: Double
    public var hasFix: Bool
    public var satellites: [SimulatedSatellite]

    /// The UTC date and time of the fix.
    public var dateTime: DateTime { DateTime(nanosecondsSinceEpoch: nanosecondsSinceEpoch) }
}

/// A satellite in view in a simulated epoch.
public struct SimulatedSatellite: Sendable, Hashable {
    public var system: GNSSSystem
    public var prn: Int
    public var elevation: Int
    public var azimuth: Int
    public var snr: Int?
    public var used: Bool
}

/// A UTC date and time with nanoseconds, for scenarios and output.
public struct DateTime: Sendable, Hashable {
    public var date: UTCDate
    public var time: UTCTime

    public init(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
        nanoseconds: Int = 0
    ) {
        date = UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day))
        time = UTCTime(
            hour: UInt8(hour), minute: UInt8(minute), second: UInt8(second),
            nanoseconds: UInt32(nanoseconds), fractionDigits: 0)
    }

    public init(nanosecondsSinceEpoch: Int64) {
        (date, time) = UTCDate.moment(nanosecondsSinceEpoch: nanosecondsSinceEpoch)
    }

    public var nanosecondsSinceEpoch: Int64 {
        date.startNanoseconds + time.nanosecondsSinceMidnight
    }
}

/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [-1, 1).
    public mutating func nextSigned() -> Double { nextUnit() * 2 - 1 }
}
