import NMEA
import Simulation

/// The journey of the crash tests: drives, a lost fix, a silent gap longer than the split gap, a stop.
/// (The same function is in TracksTests/Journey.swift: the tests compute what the child writes.)
func crashScenario() -> Scenario {
    var legs: [Scenario.Leg] = []
    for _ in 0..<50 {
        legs += [.drive(seconds: 40, speedKmh: 50, turnDegreesPerSecond: 2), .noFix(seconds: 3),
                 .drive(seconds: 30, speedKmh: 30), .silence(seconds: 90), .park(seconds: 20, jitterMeters: 2)]
    }
    return Scenario(start: DateTime(2026, 11, 30, 8, 0, 0), legs: legs, seed: 7)
}

extension Fix {
    /// The fix a receiver would report for a simulated epoch.
    init(_ simulated: SimulatedFix) {
        let moment = simulated.dateTime
        self.init(date: moment.date, time: moment.time)
        guard simulated.hasFix else { return }
        latitude = simulated.latitude
        longitude = simulated.longitude
        altitudeMeters = simulated.altitudeMeters
        speed = simulated.speedMetersPerSecond
        courseDegrees = simulated.courseDegrees
        quality = .gps
        mode = .threeD
        hdop = 0.9
        satellitesUsed = simulated.satellites.filter(\.used).count
    }
}
