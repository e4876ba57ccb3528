import Geodesy
import Glibc
import NMEA
import Simulation
import Testing

@testable import Trips

/// Days of driving with known stops, written as NMEA by the simulator and read back: the trips and stops found
/// must be the scenario's, to the minute.
@Suite struct TripDetectorTests {
    /// `nmea simulate --route commute`.
    static let commute = Scenario.commuteLegs
    /// 50 km/h for 600 s, 90 for 900, 40 for 300.
    static let commuteLegMeters = 50 / 3.6 * 600 + 90 / 3.6 * 900 + 40 / 3.6 * 300

    static func expectNear(
        _ timestamp: Int64, _ expected: Int64, within seconds: Double = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let difference = Double(timestamp - expected) / 1e9
        #expect(
            abs(difference) <= seconds, "off by \(difference) s: \(ISO8601.string(timestamp))",
            sourceLocation: sourceLocation)
    }

    func checkCommute(_ outcome: Journey.Outcome, _ scenario: Scenario, measuredSpeed: Bool) {
        #expect(outcome.trips.count == 2)
        guard outcome.trips.count == 2 else { return }
        let hour = 3600.0
        Self.expectNear(outcome.trips[0].start.timestamp, Journey.time(scenario, plus: hour))
        Self.expectNear(outcome.trips[0].end.timestamp, Journey.time(scenario, plus: 1.5 * hour))
        Self.expectNear(outcome.trips[1].start.timestamp, Journey.time(scenario, plus: 9.5 * hour))
        Self.expectNear(outcome.trips[1].end.timestamp, Journey.time(scenario, plus: 10 * hour))
        // Much closer than a minute, in fact: seconds.
        Self.expectNear(outcome.trips[0].start.timestamp, Journey.time(scenario, plus: hour), within: 5)
        Self.expectNear(outcome.trips[0].end.timestamp, Journey.time(scenario, plus: 1.5 * hour), within: 5)
        for trip in outcome.trips {
            #expect(
                abs(trip.distanceMeters - Self.commuteLegMeters) < 0.01 * Self.commuteLegMeters,
                "\(trip.distanceMeters) m")
            #expect(abs(trip.durationSeconds - 1800) < 10)
            #expect(abs(trip.averageSpeedKmh - Self.commuteLegMeters / 1800 * 3.6) < 1)
            #expect(abs(trip.maximumSpeedKmh - 90) < (measuredSpeed ? 0.05 : 1), "\(trip.maximumSpeedKmh) km/h")
            #expect(trip.ending == .stop)
        }
        // The drive home ends at home, where the day began (issue 12, item 15: it ended 17 km away, near Dachau).
        let home = outcome.trips[0].start
        let back = outcome.trips[1].end
        #expect(Geodesy.distanceMeters(home.latitude, home.longitude, back.latitude, back.longitude) < 100)
        // The stop at work between the trips, and the open ones at home before and after.
        let between = outcome.stopsBetweenTrips
        #expect(between.count == 1)
        if let work = between.first {
            Self.expectNear(work.start.timestamp, Journey.time(scenario, plus: 1.5 * hour))
            Self.expectNear(work.endTimestamp, Journey.time(scenario, plus: 9.5 * hour))
            #expect(abs(work.durationSeconds - 8 * hour) < 60)
            #expect(!work.openStart && !work.openEnd)
            // The stop's position is where the vehicle stood, the trip's end where it came to rest: metres apart.
            let end = outcome.trips[0].end
            #expect(Geodesy.distanceMeters(work.latitude, work.longitude, end.latitude, end.longitude) < 60)
        }
        #expect(outcome.stops.count == 3)
        if outcome.stops.count == 3 {
            #expect(outcome.stops[0].openStart && !outcome.stops[0].openEnd)
            #expect(outcome.stops[0].start.timestamp == scenario.startNanoseconds)
            #expect(!outcome.stops[2].openStart && outcome.stops[2].openEnd)
            #expect(abs(outcome.stops[2].durationSeconds - 1800) < 60)
        }
    }

    @Test func commuteDayFromRMCAndGGA() {
        let scenario = Scenario(legs: Self.commute)
        checkCommute(Journey.detect(scenario, profile: .rmcGGA), scenario, measuredSpeed: true)
    }

    @Test func commuteDayFromAMultiGNSSReceiver() {
        let scenario = Scenario(legs: Self.commute, seed: 3)
        checkCommute(Journey.detect(scenario, profile: .multiGNSS), scenario, measuredSpeed: true)
    }

    @Test func commuteDayFromGGAOnlyWithAGivenDate() {
        let scenario = Scenario(legs: Self.commute, seed: 5)
        let outcome = Journey.detect(
            scenario, profile: .ggaOnly,
            fallbackDate: UTCDate(year: 2026, month: 11, day: 30))
        checkCommute(outcome, scenario, measuredSpeed: false)
        #expect(outcome.statistics.withoutTime == 0)
    }

    @Test func ggaOnlyWithoutADateGivesNothingButCountsWhy() {
        let scenario = Scenario(legs: Self.commute)
        let outcome = Journey.detect(scenario, profile: .ggaOnly)
        #expect(outcome.trips.isEmpty && outcome.stops.isEmpty)
        #expect(outcome.statistics.withoutTime == 37_800)
    }

    @Test(arguments: [EpochWriter.Profile.rmcGGA, .ggaOnly])
    func tripAcrossMidnight(profile: EpochWriter.Profile) {
        // Potsdam, 23:00: parked 20 minutes, an hour's drive through midnight, parked 20 minutes.
        let scenario = Scenario(
            latitude: 52.39886, longitude: 13.06566, start: DateTime(2026, 12, 31, 23, 0, 0),
            legs: [
                .park(seconds: 1200),
                .drive(
                    seconds: 3600, speedKmh: 60,
                    turnDegreesPerSecond: 0.02),
                .park(seconds: 1200),
            ])
        let outcome = Journey.detect(
            scenario, profile: profile,
            fallbackDate: UTCDate(year: 2026, month: 12, day: 31))
        #expect(outcome.trips.count == 1)
        guard let trip = outcome.trips.first else { return }
        #expect(ISO8601.string(trip.start.timestamp).hasPrefix("2026-12-31T23:"))
        #expect(ISO8601.string(trip.end.timestamp).hasPrefix("2027-01-01T00:"))
        Self.expectNear(trip.start.timestamp, Journey.time(scenario, plus: 1200))
        Self.expectNear(trip.end.timestamp, Journey.time(scenario, plus: 4800))
        #expect(abs(trip.distanceMeters - 60_000) < 600)
        #expect(abs(trip.durationSeconds - 3600) < 60)
    }

    @Test func aGapLongerThanAnHourEndsATrip() {
        // Driving, 90 minutes of silence (the journey stands still meanwhile), driving on.
        let scenario = Scenario(legs: [
            .drive(seconds: 600, speedKmh: 50), .silence(seconds: 5400),
            .drive(seconds: 600, speedKmh: 50), .park(seconds: 300),
        ])
        let outcome = Journey.detect(scenario)
        #expect(outcome.trips.count == 2)
        guard outcome.trips.count == 2 else { return }
        #expect(outcome.trips[0].ending == .gap)
        #expect(outcome.trips[0].start.timestamp == scenario.startNanoseconds)
        Self.expectNear(outcome.trips[0].end.timestamp, Journey.time(scenario, plus: 600), within: 2)
        Self.expectNear(outcome.trips[1].start.timestamp, Journey.time(scenario, plus: 6000), within: 2)
        Self.expectNear(outcome.trips[1].end.timestamp, Journey.time(scenario, plus: 6600), within: 5)
        #expect(outcome.trips[1].ending == .stop)
        // The vehicle resumed where it was: one stop across the gap.
        let between = outcome.stopsBetweenTrips
        #expect(between.count == 1)
        #expect(abs((between.first?.durationSeconds ?? 0) - 5400) < 5)
        #expect(outcome.statistics.gaps == 1)
    }

    @Test func aGapShorterThanTheLimitIsBridged() {
        // 10 minutes' drive; 30 minutes without data, 25 km on (a tunnel, a dead receiver); 10 minutes more.
        let first = Scenario(courseDegrees: 90, legs: [.park(seconds: 300), .drive(seconds: 600, speedKmh: 50)])
        let end = first.fixes().reduce(nil) { _, fix in fix }!
        let second = Scenario(
            latitude: end.latitude,
            longitude: end.longitude + 25_000 / (111_195 * cos(end.latitude * .pi / 180)),
            start: DateTime(nanosecondsSinceEpoch: end.nanosecondsSinceEpoch + 1_801_000_000_000),
            courseDegrees: 90, legs: [.drive(seconds: 600, speedKmh: 50), .park(seconds: 300)])
        let bytes = Journey.nmea(first, profile: .rmcGGA) + Journey.nmea(second, profile: .rmcGGA)
        let outcome = Journey.detect(bytes)
        #expect(outcome.trips.count == 1)
        #expect(abs((outcome.trips.first?.durationSeconds ?? 0) - 3000) < 10)
        #expect(abs((outcome.trips.first?.distanceMeters ?? 0) - (2 * 8333 + 25_000)) < 150)
        #expect(outcome.statistics.gaps == 0)
        // With the limit below the gap, it splits.
        let strict = Journey.detect(bytes, options: .init(maximumGapSeconds: 1200))
        #expect(strict.trips.count == 2)
        #expect(strict.trips.first?.ending == .gap)
    }

    @Test func aPauseWithoutMovementIsAStop() {
        // Driving, 30 minutes of silence without moving (parked with the receiver off), driving on.
        let scenario = Scenario(legs: [
            .drive(seconds: 600, speedKmh: 50), .silence(seconds: 1800),
            .drive(seconds: 600, speedKmh: 50), .park(seconds: 300),
        ])
        let outcome = Journey.detect(scenario)
        #expect(outcome.trips.count == 2)
        guard outcome.trips.count == 2 else { return }
        #expect(outcome.trips[0].ending == .stop)
        Self.expectNear(outcome.trips[0].end.timestamp, Journey.time(scenario, plus: 600), within: 2)
        Self.expectNear(outcome.trips[1].start.timestamp, Journey.time(scenario, plus: 2400), within: 2)
        #expect(abs((outcome.stopsBetweenTrips.first?.durationSeconds ?? 0) - 1800) < 5)
        #expect(outcome.statistics.gaps == 0)
    }

    @Test func aLoggerThatStopsWithTheEngine() {
        // Parked a minute, driven, parked a minute (too short to confirm a stop), three hours without power,
        // a minute, driven back, parked.
        let scenario = Scenario(
            latitude: 55.9001, longitude: 37.42848, start: DateTime(2026, 3, 2, 6, 0, 0),
            legs: [
                .park(seconds: 60), .drive(seconds: 900, speedKmh: 60), .park(seconds: 60),
                .silence(seconds: 3 * 3600), .park(seconds: 60), .course(degrees: 225),
                .drive(seconds: 900, speedKmh: 60), .park(seconds: 300),
            ])
        let outcome = Journey.detect(scenario)
        #expect(outcome.trips.count == 2)
        guard outcome.trips.count == 2 else { return }
        #expect(outcome.trips[0].ending == .gap)
        Self.expectNear(outcome.trips[0].start.timestamp, Journey.time(scenario, plus: 60), within: 2)
        Self.expectNear(outcome.trips[0].end.timestamp, Journey.time(scenario, plus: 960), within: 2)
        Self.expectNear(
            outcome.trips[1].start.timestamp, Journey.time(scenario, plus: 1020 + 3 * 3600 + 60),
            within: 2)
        let between = outcome.stopsBetweenTrips
        #expect(between.count == 1)
        #expect(abs((between.first?.durationSeconds ?? 0) - (3 * 3600 + 120)) < 5)
    }

    @Test func dataThatResumesElsewhereAfterAGapInventsNoTrip() {
        let first = Scenario(
            latitude: 52.39886, longitude: 13.06566, start: DateTime(2026, 5, 1, 8, 0, 0),
            legs: [.park(seconds: 300), .drive(seconds: 600, speedKmh: 50), .park(seconds: 300)])
        let second = Scenario(
            latitude: 52.37874, longitude: 12.934, start: DateTime(2026, 5, 1, 12, 0, 0),
            legs: [.park(seconds: 300), .drive(seconds: 600, speedKmh: 50), .park(seconds: 300)])
        let outcome = Journey.detect(Journey.nmea(first, profile: .rmcGGA) + Journey.nmea(second, profile: .rmcGGA))
        #expect(outcome.trips.count == 2)
        #expect(outcome.trips.allSatisfy { $0.ending == .stop && abs($0.durationSeconds - 600) < 10 })
        // Potsdam's stop ends with the data before the gap; Werder's begins with the data after it.
        let between = outcome.stopsBetweenTrips
        #expect(between.count == 2)
        if between.count == 2 {
            #expect(!between[0].openStart && between[0].openEnd)
            #expect(between[1].openStart && !between[1].openEnd)
            Self.expectNear(between[1].start.timestamp, second.startNanoseconds, within: 1)
        }
    }

    @Test(arguments: [(EpochWriter.Profile.rmcGGA, 4.0), (.ggaOnly, 4.0), (.rmcGGA, 40.0), (.ggaOnly, 40.0)])
    func parkedJitterNeverMakesATrip(profile: EpochWriter.Profile, jitter: Double) {
        let scenario = Scenario(legs: [.park(seconds: 8 * 3600, jitterMeters: jitter)], seed: 11)
        let outcome = Journey.detect(
            scenario, profile: profile,
            fallbackDate: UTCDate(year: 2026, month: 11, day: 30))
        #expect(outcome.trips.isEmpty)
        #expect(outcome.stops.count == 1)
        #expect(abs((outcome.stops.first?.durationSeconds ?? 0) - 8 * 3600) < 2)
        #expect(outcome.stops.first?.openStart == true && outcome.stops.first?.openEnd == true)
    }

    @Test func trafficLightsDoNotSplitATrip() {
        // `nmea simulate --route drive`: stops of 30 s and 120 s at lights and in traffic, 10 minutes in all.
        let legs: [Scenario.Leg] = [
            .park(seconds: 300),
            .drive(seconds: 90, speedKmh: 45), .drive(seconds: 15, speedKmh: 20, turnDegreesPerSecond: 6),
            .drive(seconds: 60, speedKmh: 50), .park(seconds: 30, jitterMeters: 1),
            .drive(seconds: 120, speedKmh: 70, turnDegreesPerSecond: -0.5), .park(seconds: 120),
            .drive(seconds: 20, speedKmh: 25, turnDegreesPerSecond: -4.5), .drive(seconds: 165, speedKmh: 55),
            .park(seconds: 600),
        ]
        let scenario = Scenario(legs: legs)
        let outcome = Journey.detect(scenario)
        #expect(outcome.trips.count == 1)
        Self.expectNear(outcome.trips.first?.start.timestamp ?? 0, Journey.time(scenario, plus: 300), within: 2)
        Self.expectNear(outcome.trips.first?.end.timestamp ?? 0, Journey.time(scenario, plus: 920), within: 2)
        // A shorter stop time makes the two long halts stops, and three trips.
        let strict = Journey.detect(scenario, options: .init(minimumDistanceMeters: 50, stopSeconds: 25))
        #expect(strict.trips.count == 3)
        // A longer minimum distance than the whole drive: no trip at all.
        let wide = Journey.detect(scenario, options: .init(minimumDistanceMeters: 20_000))
        #expect(wide.trips.isEmpty)
    }

    @Test func aSingleWildPositionIsDroppedAsAGlitch() {
        let scenario = Scenario(legs: [.park(seconds: 1800)])
        var detector = TripDetector()
        var events: [TripDetector.Event] = []
        for (index, simulated) in scenario.fixes().enumerated() {
            var fix = Journey.fix(simulated)
            if index == 900 { fix.latitude! += 0.5 }  // 55 km north, for one second
            events += detector.add(fix)
        }
        events += detector.finish()
        #expect(events.count == 1)  // the one stop
        #expect(detector.statistics.glitches == 1)
        #expect(detector.statistics.fixes == 1799)
    }

    @Test func fixesOutOfOrderOrRepeatedAreDroppedAndCounted() {
        let scenario = Scenario(legs: [.park(seconds: 60), .drive(seconds: 300, speedKmh: 50), .park(seconds: 300)])
        let fixes = scenario.fixes().map { Journey.fix($0) }
        var detector = TripDetector()
        var trips = 0
        for (index, fix) in fixes.enumerated() {
            detector.add(fix) { if case .trip = $0 { trips += 1 } }
            if index == 100 {
                detector.add(fixes[50]) { _ in }
                detector.add(fix) { _ in }
            }
        }
        detector.add(Fix(date: nil, time: fixes[0].time, latitude: 1, longitude: 1, mode: .threeD)) { _ in }
        detector.add(Fix(date: fixes[0].date, time: fixes[0].time)) { _ in }
        detector.finish { if case .trip = $0 { trips += 1 } }
        #expect(trips == 1)
        #expect(detector.statistics.outOfOrder == 1)
        #expect(detector.statistics.duplicates == 1)
        #expect(detector.statistics.withoutTime == 1)
        #expect(detector.statistics.withoutPosition == 1)
        #expect(detector.statistics.fixes == fixes.count)
    }

    @Test func aTripIsHandedOutWhenItsStopIsConfirmed() {
        let scenario = Scenario(legs: [
            .park(seconds: 300), .drive(seconds: 600, speedKmh: 50),
            .park(seconds: 900),
        ])
        var detector = TripDetector()
        var emitted: [(Int64, TripDetector.Event)] = []
        for simulated in scenario.fixes() {
            let fix = Journey.fix(simulated)
            for event in detector.add(fix) { emitted.append((fix.timestamp!, event)) }
            if case .moving(let since, let distance) = detector.state {
                #expect(since <= fix.timestamp! && distance >= 0)
            }
        }
        #expect(emitted.count == 2)
        guard emitted.count == 2, case .stop(let home) = emitted[0].1, case .trip(let trip) = emitted[1].1 else {
            return
        }
        // The stop at home ends as the trip leaves it (a few seconds after it began); the trip comes out the
        // stop time (180 s) after it arrived.
        #expect(home.endTimestamp == trip.start.timestamp)
        // The stop ends when the trip has gone 200 m (14.4 s at 50 km/h); the trip comes out when every fix of the
        // last 180 s is within 200 m: 180 s after arrival, less the last 200 m of the approach.
        #expect(emitted[0].0 - trip.start.timestamp == 16_000_000_000)
        let delay = Double(emitted[1].0 - trip.end.timestamp) / 1e9
        #expect(delay >= 165 && delay <= 167, "\(delay) s")
        guard case .stopped(let since, _, _) = detector.state else {
            Issue.record("not stopped: \(detector.state)")
            return
        }
        #expect(since == trip.end.timestamp)
        let rest = detector.finish()
        #expect(rest.count == 1)
        #expect(detector.state == .waiting)
    }

    @Test func memoryIsBoundedWhateverTheRateAndLength() {
        // Ten fixes a second for three hours of stop-and-go: the window never holds more than the stop time's worth.
        var legs: [Scenario.Leg] = []
        for _ in 0..<30 { legs += [.drive(seconds: 240, speedKmh: 60, turnDegreesPerSecond: 1), .park(seconds: 120)] }
        let scenario = Scenario(rateHz: 10, legs: legs)
        var detector = TripDetector()
        let capacity = detector.windowCapacity
        var largest = 0
        var trips = 0
        for simulated in scenario.fixes() {
            detector.add(Journey.fix(simulated)) { if case .trip = $0 { trips += 1 } }
            largest = max(largest, detector.windowCount)
        }
        detector.finish { if case .trip = $0 { trips += 1 } }
        #expect(detector.windowCapacity == capacity)
        #expect(capacity == 243)
        #expect(TripDetector(options: .init(stopSeconds: 3600)).windowCapacity == 323)
        #expect(largest <= capacity && largest >= 180)
        #expect(trips == 1)  // two-minute halts are not stops
        #expect(detector.statistics.fixes == 30 * 360 * 10)
    }

    @Test func speedsWithoutAReceiverSpeedComeFromPositions() {
        let scenario = Scenario(legs: [
            .park(seconds: 300), .drive(seconds: 600, speedKmh: 72),
            .park(seconds: 300),
        ])
        var detector = TripDetector()
        var trips: [Trip] = []
        for simulated in scenario.fixes() {
            detector.add(Journey.fix(simulated, withSpeed: false)) {
                if case .trip(let trip) = $0 { trips.append(trip) }
            }
        }
        detector.finish { if case .trip(let trip) = $0 { trips.append(trip) } }
        #expect(trips.count == 1)
        #expect(abs((trips.first?.maximumSpeedKmh ?? 0) - 72) < 0.5)
        // Without the receiver's speed, the positions tell when the vehicle left and when it stood (issue 25, item 8:
        // they were placed where it left and reached the rest radius, 50 m, so the trip was 80 m shorter than with
        // speeds): the whole drive, 600 s at 20 m/s.
        #expect(abs((trips.first?.distanceMeters ?? 0) - 12_000) < 20)
    }
}
