import NMEA

extension Scenario {
    /// A working day (`nmea simulate --route commute`): an hour parked at home, 30 minutes' drive (50 km/h for
    /// 600 s, 90 for 900, 40 for 300), 8 hours parked at work, the same drive back, half an hour at home.
    public static let commuteLegs: [Leg] = [
        .park(seconds: 3600, jitterMeters: 4),
        .course(degrees: 20), .drive(seconds: 600, speedKmh: 50, turnDegreesPerSecond: 0.05),
        .drive(seconds: 900, speedKmh: 90), .drive(seconds: 300, speedKmh: 40, turnDegreesPerSecond: -0.2),
        .park(seconds: 8 * 3600, jitterMeters: 4),
        .course(degrees: 170), .drive(seconds: 300, speedKmh: 40, turnDegreesPerSecond: 0.2),
        .drive(seconds: 900, speedKmh: 90), .drive(seconds: 600, speedKmh: 50, turnDegreesPerSecond: -0.05),
        .park(seconds: 1800, jitterMeters: 4),
    ]

    /// The journey of the track writers' crash tests, and of the child process they kill: 50 rounds of a drive, a
    /// lost fix, a silent gap longer than the default split gap, and a stop.
    public static func crashTest() -> Scenario {
        var legs: [Leg] = []
        for _ in 0..<50 {
            legs += [
                .drive(seconds: 40, speedKmh: 50, turnDegreesPerSecond: 2), .noFix(seconds: 3),
                .drive(seconds: 30, speedKmh: 30), .silence(seconds: 90), .park(seconds: 20, jitterMeters: 2),
            ]
        }
        return Scenario(start: DateTime(2026, 11, 30, 8, 0, 0), legs: legs, seed: 7)
    }
}

extension Fix {
    /// The fix a receiver would report for a simulated epoch (no fix: only the date and time).
    public init(_ simulated: SimulatedFix) {
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
