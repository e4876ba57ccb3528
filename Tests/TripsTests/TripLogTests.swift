import NMEA
import Simulation
import Testing

@testable import Trips

/// The one rule's figures of a track: its trips, the stops between them and its distance, live and at the end.
@Suite struct TripLogTests {
    /// The commute (`nmea simulate --route commute`), as fixes: an hour at home, a trip, eight hours at work, a trip,
    /// half an hour at home.
    static let commute = Scenario(start: DateTime(2026, 11, 30, 8, 0, 0), legs: Scenario.commuteLegs, seed: 3)
    static var fixes: [Fix] { commute.fixes().map { Journey.fix($0) } }

    @Test func stopsBetweenTripsAndTheDistanceOfTheTrips() {
        var log = TripLog()
        for fix in Self.fixes { log.add(fix) }
        log.finish()
        #expect(log.trips.count == 2)
        // Only the stop at work: the hour at home before the first trip and the half hour after the last are where
        // the track begins and ends.
        #expect(log.stops.count == 1)
        #expect(abs((log.stops.first?.durationSeconds ?? 0) - 8 * 3600) < 60)
        #expect(log.distanceMeters == log.trips[0].distanceMeters + log.trips[1].distanceMeters)
        #expect(abs(log.distanceMeters - 2 * TripDetectorTests.commuteLegMeters) < 0.01 * log.distanceMeters)
        #expect(
            log.summary
                == TripLog.Summary(
                    trips: 2, distanceMeters: log.distanceMeters,
                    durationSeconds: log.trips[0].durationSeconds + log.trips[1].durationSeconds, stops: 1))
        #expect(TripText.summary(log.summary).hasSuffix("; 1 stop between them"))
    }

    /// Live, the summary is what finishing there would give: a view shows what `nmea trips` of the log so far prints.
    @Test func theSummaryIsWhatFinishingNowWouldGive() {
        var log = TripLog()
        var checked = 0
        var sawTripInProgress = false
        for (index, fix) in Self.fixes.enumerated() {
            log.add(fix)
            guard index % 97 == 0 else { continue }
            var finished = log
            finished.finish()
            let live = log.summary
            #expect(live.trips == finished.trips.count, "at fix \(index)")
            #expect(live.stops == finished.stops.count, "at fix \(index)")
            #expect(live.distanceMeters == finished.distanceMeters, "at fix \(index)")
            if case .moving = log.state, live.distanceMeters > 0 { sawTripInProgress = true }
            checked += 1
        }
        #expect(checked > 300)
        #expect(sawTripInProgress)
    }

    /// A log without dates (GGA only) timed by the time of day, across midnight, gives the figures of the same log
    /// with its dates; without that, its fixes have no time and are counted as such.
    @Test func undatedFixesByTheTimeOfDay() {
        let late = Scenario(start: DateTime(2026, 11, 30, 23, 20, 0), legs: Scenario.commuteLegs, seed: 5)
        var dated = TripLog()
        var undated = TripLog(undatedFixes: .timeOfDay)
        var ignored = TripLog()
        var times: [Int64] = []
        for simulated in late.fixes() {
            let fix = Journey.fix(simulated)
            var withoutDate = fix
            withoutDate.date = nil
            dated.add(fix)
            if let time = undated.add(withoutDate) { times.append(time) }
            #expect(ignored.add(withoutDate) == nil)
        }
        dated.finish()
        undated.finish()
        ignored.finish()
        #expect(dated.trips.count == 2 && undated.trips.count == 2)
        #expect(undated.distanceMeters == dated.distanceMeters)
        #expect(undated.stops.map(\.durationSeconds) == dated.stops.map(\.durationSeconds))
        // Times of day carried over midnight: the first at 23:20, the last 10.5 hours later.
        let first: Int64 = (23 * 3600 + 20 * 60) * 1_000_000_000
        let span = Int64(10.5 * 3600 - 1) * 1_000_000_000
        #expect(times.first == first)
        #expect(times.last == first + span)
        #expect(undated.isDated == false && dated.isDated == true)
        #expect(ignored.trips.isEmpty)
        #expect(ignored.statistics.withoutTime == Int(10.5 * 3600))
    }

    @Test func aDatedTrackLeavesUndatedFixesUntimed() {
        var clock = TrackClock(undatedFixes: .timeOfDay)
        let date = UTCDate(year: 2026, month: 11, day: 30)
        let time = UTCTime(hour: 8, minute: 0, second: 0)
        #expect(clock.timestamp(of: Fix(date: date, time: time)) == 1_796_025_600_000_000_000)
        #expect(clock.timestamp(of: Fix(time: time)) == nil)
        #expect(clock.isDated == true)
        var undated = TrackClock(undatedFixes: .timeOfDay)
        #expect(undated.timestamp(of: Fix()) == nil)
        #expect(undated.isDated == nil)
        #expect(undated.timestamp(of: Fix(time: UTCTime(hour: 23, minute: 59, second: 59))) == 86_399_000_000_000)
        // A date later on does not change the clock: still the time of day, the next day.
        #expect(
            undated.timestamp(of: Fix(date: date, time: UTCTime(hour: 0, minute: 0, second: 1)))
                == 86_401_000_000_000)
    }

    @Test func distancesAndDurationsAsEveryCommandWritesThem() {
        #expect(TripText.distance(849.6) == "850 m")
        #expect(TripText.distance(999.4) == "999 m")
        #expect(TripText.distance(6_915.2) == "6.92 km")
        #expect(TripText.duration(3909) == "1:05:09")
        #expect(
            TripText.summary(.init(trips: 1, distanceMeters: 6_915.2, durationSeconds: 599, stops: 0))
                == "1 trip, 6.92 km in 0:09:59")
    }
}
