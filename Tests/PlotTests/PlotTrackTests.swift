import Foundation
import NMEA
import Testing

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
        // No distance across the breaks.
        #expect(abs(track.distanceMeters - 2) < 0.01)
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
        #expect(track.stops.count == 1)
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

@Suite struct StopFinderTests {
    /// Feeds `(time, east, speed)` fixes; returns the stops.
    func stops(_ fixes: [(Double, Double, Double?)], rule: StopFinder.Rule = .init()) -> [Stop] {
        var finder = StopFinder(rule: rule)
        var found: [Stop] = []
        for (time, east, speed) in fixes {
            let p = point(time: time, east: east)
            if let stop = finder.add(time: time, latitude: p.latitude, longitude: p.longitude, speed: speed) {
                found.append(stop)
            }
        }
        if let stop = finder.finish() { found.append(stop) }
        return found
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
        let found = stops(journey(still: 180))
        #expect(found.count == 1)
        #expect(found.first?.start == 60)
        #expect(found.first?.end == 240)
        #expect(found.first?.durationSeconds == 180)
        #expect(abs((found.first?.latitude ?? 0) - 48) < 1e-6)
    }

    @Test func aShortOneIsNot() {
        #expect(stops(journey(still: 100)).isEmpty)
        #expect(stops(journey(still: 100), rule: .init(minimumSeconds: 90)).count == 1)
    }

    @Test func speedNoiseWhileParkedDoesNotSplitAStop() {
        let found = stops(journey(still: 300, noise: [50, 51, 52, 200]))
        #expect(found.count == 1)
        #expect(found.first?.durationSeconds == 300)
    }

    @Test func aStopAtTheEndIsClosedByFinish() {
        let found = stops(journey(still: 200, after: 0))
        #expect(found.count == 1)
        #expect(found.first?.end == 259)
    }

    @Test func withoutSpeedsTheRadiusDecides() {
        // Creeping 20 m a minute for ten minutes: every fix within 50 m of the first for only 150 s at a time.
        let creeping = (0..<600).map { (Double($0), Double($0) / 3, Double?.none) }
        let found = stops(creeping)
        #expect(found.count == 4)
        #expect(found.allSatisfy { $0.durationSeconds >= 120 && $0.durationSeconds <= 151 })
        // Standing within a few metres: one stop.
        let standing = (0..<600).map { (Double($0), Double($0 % 3), Double?.none) }
        #expect(stops(standing).map(\.durationSeconds) == [599])
    }
}
