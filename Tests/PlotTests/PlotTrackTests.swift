import Foundation
import NMEA
import Testing
import Trips

@testable import Plot

/// A point `meters` east of (48°, 11°), at `time`.
private func point(
    time: Double?, east meters: Double = 0, north: Double = 0, speed: Double? = nil,
    altitude: Double? = nil
) -> TrackPoint {
    let latitude = 48 + north / 111_195
    let longitude = 11 + meters / (111_195 * cos(48 * Double.pi / 180))
    return TrackPoint(time: time, latitude: latitude, longitude: longitude, speed: speed, altitudeMeters: altitude)
}

@Suite struct PlotTrackTests {
    @Test func keepsEveryPointUpToItsCapacityThenThinsEvenly() {
        var track = PlotTrack(options: .init(capacity: 1000))
        for second in 0..<10_000 {
            track.add(
                point(
                    time: Double(second), east: Double(second) * 10, speed: 10,
                    altitude: second == 7777 ? 900 : 500))
        }
        track.finish()
        #expect(track.count == 10_000)
        #expect(track.stride == 16)
        #expect(track.points.count <= 1001)
        #expect(track.points.count > 500)
        // First and last are exact; totals come from every point, not the kept ones.
        #expect(track.points.first?.time == 0)
        #expect(track.points.last?.time == 9999)
        #expect(abs(track.distanceMeters - 99_990) < 1)
        #expect(track.highestAltitude == 900)
        #expect(track.earliestTime == 0 && track.latestTime == 9999)
        // Evenly: kept times are equally spaced.
        let times: [Double] = track.points.map { $0.time ?? -1 }
        let steps = Set(zip(times.dropLast(2), times.dropFirst().dropLast()).map { $1 - $0 })
        #expect(steps == [16])
    }

    @Test func segmentStartsSurviveThinning() {
        var track = PlotTrack(options: .init(capacity: 64))
        for second in 0..<2000 {
            // A gap of two minutes every 333 s.
            let time = Double(second) + Double(second / 333) * 120
            track.add(point(time: time, east: Double(second) * 10, speed: 10))
        }
        track.finish()
        let starts = track.points.filter(\.startsSegment).map { $0.time! }
        let expected: [Double] = (0..<7).map { (segment: Int) -> Double in Double(segment * 453) }
        #expect(starts == expected)
    }

    @Test func lostFixesAndBackwardTimesBreakTheLine() {
        var track = PlotTrack()
        track.add(point(time: 0, east: 0, speed: 1))
        track.add(point(time: 1, east: 1, speed: 1))
        track.breakSegment()
        track.add(point(time: 2, east: 2, speed: 1))
        track.add(point(time: 3, east: 3, speed: 1))
        track.add(point(time: 1.5, east: 4, speed: 1))
        track.finish()
        #expect(track.points.map(\.startsSegment) == [true, false, true, false, true])
        // Four metres is no trip by the trip rule (the minimum distance is 200 m), so no distance; the breaks are
        // the drawing's. (The plot's own rule counted 2 m here, between the breaks.)
        #expect(track.distanceMeters == 0)
    }

    @Test func speedIsDerivedWhenNotSent() {
        var track = PlotTrack()
        track.add(point(time: 0, east: 0))
        track.add(point(time: 2, east: 30))
        track.finish()
        #expect(track.points[0].speed == nil)
        #expect(abs((track.points[1].speed ?? 0) - 15) < 0.01)
        #expect(abs((track.fastest?.speed ?? 0) - 15) < 0.01)
    }

    @Test func parkedJitterAddsNoDistance() {
        var track = PlotTrack()
        for second in 0..<600 {
            track.add(point(time: Double(second), east: second % 2 == 0 ? 0 : 3, speed: 0.1))
        }
        track.finish()
        #expect(track.distanceMeters == 0)
        // Standing all along is no trip, so no stop between trips (as `nmea trips` says: "No trips.").
        #expect(track.stops.isEmpty)
    }

    @Test func longitudesUnwrapAcrossTheAntimeridian() {
        var track = PlotTrack()
        track.add(TrackPoint(time: 0, latitude: -17, longitude: 179.99, speed: 10))
        track.add(TrackPoint(time: 1, latitude: -17, longitude: -179.99, speed: 10))
        track.add(TrackPoint(time: 2, latitude: -17, longitude: -179.97, speed: 10))
        track.finish()
        let longitudes: [Double] = track.points.map { ($0.longitude * 100).rounded() / 100 }
        #expect(longitudes == [179.99, 180.01, 180.03])
        #expect(track.distanceMeters < 5000)
    }

    @Test func fixesWithoutADateUseTheTimeOfDayAcrossMidnight() {
        var track = PlotTrack()
        for (hour, minute) in [(23, 59), (0, 0), (0, 1)] {
            var fix = Fix(
                time: UTCTime(hour: UInt8(hour), minute: UInt8(minute), second: 0), latitude: 48,
                longitude: 11 + Double(minute) * 0.001, quality: .gps, mode: .threeD)
            fix.speed = 5
            track.add(fix)
        }
        var lost = Fix(time: UTCTime(hour: 0, minute: 2, second: 0))
        lost.mode = .none
        track.add(lost)
        track.finish()
        #expect(!track.hasDate)
        #expect(track.points.compactMap(\.time) == [86_340, 86_400, 86_460])
        #expect(track.count == 3)
    }

    @Test func fixesWithADateUseSecondsSince1970() {
        var track = PlotTrack()
        track.add(
            Fix(
                date: UTCDate(year: 2026, month: 11, day: 30), time: UTCTime(hour: 8, minute: 0, second: 0),
                latitude: 48, longitude: 11, quality: .gps, mode: .threeD))
        track.finish()
        #expect(track.hasDate)
        #expect(track.points.first?.time == 1_796_025_600)
    }
}

/// The stops the picture marks are the trip rule's (`nmea trips`): stops between trips, where every fix of the stop
/// time (180 s by default) lay within the minimum distance (200 m). These were `StopFinder`'s journeys (still under
/// 1 km/h within 50 m for 120 s); the figures are now those `nmea trips` gives for the same fixes.
@Suite struct PlotStopTests {
    /// Feeds `(time, east, speed)` fixes; returns the track.
    func track(_ fixes: [(Double, Double, Double?)], rule: TripDetector.Options = .init()) -> PlotTrack {
        var track = PlotTrack(options: .init(trips: rule))
        for (time, east, speed) in fixes { track.add(point(time: time, east: east, speed: speed)) }
        track.finish()
        return track
    }

    /// Drive at 10 m/s for `before` s, stand `still` s (jitter 3 m, 0.1 m/s), drive on for `after` s.
    func journey(before: Int = 60, still: Int, after: Int = 60, noise: Set<Int> = []) -> [(Double, Double, Double?)] {
        var fixes: [(Double, Double, Double?)] = []
        var east = 0.0
        for second in 0..<(before + still + after) {
            let standing = second >= before && second < before + still
            if standing {
                let jitter = second % 2 == 0 ? 0.0 : 3.0
                fixes.append((Double(second), east + jitter, noise.contains(second - before) ? 1.5 : 0.1))
            } else {
                fixes.append((Double(second), east, 10))
                east += 10
            }
        }
        return fixes
    }

    @Test func aLongEnoughStandStillIsAStop() {
        let drawn = track(journey(still: 180))
        #expect(drawn.stops.count == 1)
        // From the first fix at rest to the last: the trip rule's stop, within the rest radius (50 m) of it.
        #expect(drawn.stops.first.map { drawn.seconds($0.start.timestamp) } == 60)
        #expect(drawn.stops.first.map { drawn.seconds($0.endTimestamp) } == 239)
        #expect(drawn.stops.first?.durationSeconds == 179)
        #expect(abs((drawn.stops.first?.latitude ?? 0) - 48) < 1e-6)
        // The drives, 600 and 590 m, and the 3 m from the last fix at rest (jittered) to the road: the jitter while
        // parked adds nothing.
        #expect(abs(drawn.distanceMeters - 1193) < 0.01)
    }

    @Test func aShortOneIsNot() {
        #expect(track(journey(still: 100)).stops.isEmpty)
        #expect(track(journey(still: 100), rule: .init(stopSeconds: 90)).stops.count == 1)
    }

    @Test func speedNoiseWhileParkedDoesNotSplitAStop() {
        let drawn = track(journey(still: 300, noise: [50, 51, 52, 200]))
        #expect(drawn.stops.count == 1)
        // The rule's stop begins with the unbroken run of slow fixes before it was confirmed: after the noise at
        // 50–52 s (1.5 m/s), so at 113 s; it ends at the last fix at rest, 359 s.
        #expect(drawn.stops.first.map { drawn.seconds($0.start.timestamp) } == 113)
        #expect(drawn.stops.first?.durationSeconds == 246)
    }

    @Test func aStandStillAtTheEndIsWhereTheTrackEndsNotAStop() {
        let drawn = track(journey(still: 200, after: 0))
        #expect(drawn.stops.isEmpty)
        #expect(abs(drawn.distanceMeters - 600) < 1)
    }

    @Test func creepingWithinTheMinimumDistanceIsNoTrip() {
        // Creeping 20 m a minute for ten minutes, without speeds: 200 m in all, never beyond the minimum distance.
        let creeping = (0..<600).map { (Double($0), Double($0) / 3, Double?.none) }
        let drawn = track(creeping)
        #expect(drawn.stops.isEmpty)
        #expect(drawn.distanceMeters == 0)
        let standing = (0..<600).map { (Double($0), Double($0 % 3), Double?.none) }
        #expect(track(standing).stops.isEmpty)
    }
}
