import Foundation
import Geodesy
import NMEA
import Simulation
import Testing
import Trips

@testable import Tracks

/// The cleaning filters on generated tracks with known poor fixes, spikes, jitter and gaps.
@Suite struct TrackCleanerTests {
    static func clean(_ fixes: [Fix], _ cleaner: TrackCleaner) -> (kept: [Fix], cleaner: TrackCleaner) {
        var cleaner = cleaner
        var kept: [Fix] = []
        for fix in fixes { cleaner.add(fix) { kept.append($0) } }
        cleaner.finish { kept.append($0) }
        return (kept, cleaner)
    }

    /// 100 fixes, one a second: HDOP 0.5 to 5.45 in steps of 0.05, satellites 4 to 13 (ten of each), every tenth
    /// fix 2D, along a line north from 48° N 11° E.
    static let graded: [Fix] = (0..<100).map { index in
        var fix = makeFix(
            "2026-11-30T08:\(String(format: "%02d", index / 60)):\(String(format: "%02d", index % 60))",
            lat: 48 + Double(index) * 0.0001, lon: 11, alt: 500, sat: 4 + index / 10, hdop: 0.5 + Double(index) * 0.05)
        if index % 10 == 0 { fix.mode = .twoD }
        return fix
    }

    @Test func eachQualityTestDropsExactlyItsFixes() {
        // HDOP ≤ 2: indices 0…30 (0.5 + 30·0.05 = 2.0).
        var result = Self.clean(Self.graded, TrackCleaner(filter: .init(maximumHDOP: 2)))
        #expect(result.kept.count == 31)
        #expect(result.cleaner.dropped == [.hdop: 69])
        // At least 8 satellites: indices 40…99.
        result = Self.clean(Self.graded, TrackCleaner(filter: .init(minimumSatellites: 8)))
        #expect(result.kept.map(\.satellitesUsed!).min() == 8)
        #expect(result.kept.count == 60)
        // 3D only: the ten 2D fixes go.
        result = Self.clean(Self.graded, TrackCleaner(filter: .init(minimumMode: .threeD)))
        #expect(result.kept.count == 90)
        #expect(result.cleaner.dropped == [.mode: 10])
        // All three: the first reason that applies is counted, once per fix.
        result = Self.clean(
            Self.graded, TrackCleaner(filter: .init(maximumHDOP: 3, minimumSatellites: 6, minimumMode: .threeD)))
        // Kept: indices 20…50 (sats ≥ 6 from 20, HDOP ≤ 3 to 50) that are not multiples of 10: 31 − 4 = 27.
        #expect(result.kept.count == 27)
        #expect(result.cleaner.dropped == [.hdop: 49, .satellites: 20, .mode: 4])
        #expect(
            result.cleaner.summary == "dropped 73 fixes (49 HDOP too high or unknown, 20 too few or unknown "
                + "satellites, 4 fix too poor or unknown)")
    }

    @Test("--max-hacc drops fixes whose horizontal estimate is larger, or unknown")
    func horizontalAccuracy() {
        let fixes = Self.graded.enumerated().map { index, fix in
            var fix = fix
            fix.horizontalErrorMeters = index % 4 == 3 ? nil : Double(index) / 10
            return fix
        }
        let result = Self.clean(fixes, TrackCleaner(filter: .init(maximumHorizontalErrorMeters: 5)))
        // Estimates 0…5 m: indices 0…50, less the 12 among them without one (3, 7, … 47).
        #expect(result.kept.count == 51 - 12)
        #expect(result.cleaner.dropped == [.accuracy: 100 - 39])
    }

    @Test func unknownValuesAreDroppedWhenATestNeedsThem() {
        var fix = makeFix("2026-11-30T08:00:00", lat: 48, lon: 11)
        #expect(FixQualityFilter(maximumHDOP: 5).rejection(of: fix) == .hdop)
        #expect(FixQualityFilter(minimumSatellites: 1).rejection(of: fix) == .satellites)
        fix.date = nil
        #expect(FixQualityFilter(since: 0).rejection(of: fix) == .time)
        // A fix without a position is a segment break, never dropped.
        #expect(FixQualityFilter(maximumHDOP: 1).rejection(of: makeFix("2026-11-30T08:00:00")) == nil)
    }

    @Test func sinceUntilAndTheBoxKeepTheirWindow() {
        let since = Self.graded[10].timestamp!
        let until = Self.graded[19].timestamp!
        var result = Self.clean(Self.graded, TrackCleaner(filter: .init(since: since, until: until)))
        #expect(result.kept.map(\.timestamp!) == Self.graded[10...19].map(\.timestamp!))
        // Latitudes 48.0000…48.0099: a box to 48.00495 keeps indices 0…49.
        let box = FixQualityFilter.Box(south: 47.9, west: 10.9, north: 48.00495, east: 11.1)
        result = Self.clean(Self.graded, TrackCleaner(filter: .init(box: box)))
        #expect(result.kept.count == 50)
        #expect(result.cleaner.dropped == [.box: 50])
    }

    @Test func aBoxAcrossTheAntimeridian() {
        let box = FixQualityFilter.Box(south: -20, west: 170, north: -10, east: -170)
        #expect(box.contains(latitude: -15, longitude: 179.5))
        #expect(box.contains(latitude: -15, longitude: -175))
        #expect(!box.contains(latitude: -15, longitude: 0))
        #expect(!box.contains(latitude: -25, longitude: 180))
    }

    // MARK: Simplification

    /// A day of driving at 1 Hz: straight stretches, bends of every radius, town corners, parking with jitter and
    /// lost fixes, 8 hours in all.
    static let day: [Fix] = {
        var legs: [Scenario.Leg] = []
        for round in 0..<16 {
            let turn = [0.5, -1, 3, -6, 12][round % 5]
            legs += [
                .drive(seconds: 600, speedKmh: 90), .drive(seconds: 120, speedKmh: 50, turnDegreesPerSecond: turn),
                .drive(seconds: 300, speedKmh: 50), .course(degrees: Double(round * 67 % 360)),
                .drive(seconds: 300, speedKmh: 30, turnDegreesPerSecond: -turn / 2), .noFix(seconds: 5),
                .drive(seconds: 300, speedKmh: 70), .park(seconds: 180, jitterMeters: 3),
            ]
        }
        return Scenario(legs: legs, seed: 11).fixes().map(Fix.init)
    }()

    /// The distance from `point` to the great-circle arc from `a` to `b`, found independently of the simplifier (which
    /// works on unit vectors): spherical trigonometry on haversine distances and initial bearings — the cross-track
    /// distance when the point lies beside the arc, else the distance to the nearer end.
    static func distance(_ point: Fix, from a: Fix, to b: Fix) -> Double {
        let radius = Geodesy.earthRadiusMeters
        let toPoint = Geodesy.distanceMeters(a.latitude!, a.longitude!, point.latitude!, point.longitude!) / radius
        let length = Geodesy.distanceMeters(a.latitude!, a.longitude!, b.latitude!, b.longitude!) / radius
        let toEnd = Geodesy.distanceMeters(point.latitude!, point.longitude!, b.latitude!, b.longitude!)
        guard length > 1e-12 else { return toPoint * radius }
        let angle =
            (Geodesy.bearingDegrees(from: a.latitude!, a.longitude!, to: point.latitude!, point.longitude!)
                - Geodesy.bearingDegrees(from: a.latitude!, a.longitude!, to: b.latitude!, b.longitude!)) * .pi / 180
        if cos(angle) < 0 { return toPoint * radius }  // behind the start
        let crossTrack = asin(sin(toPoint) * sin(angle))
        let alongTrack = acos(min(1, cos(toPoint) / cos(crossTrack)))
        if alongTrack > length { return toEnd }  // past the end
        return abs(crossTrack) * radius
    }

    @Test(arguments: [1.0, 5.0, 20.0])
    func everyDroppedPointIsWithinTheToleranceOfTheKeptLine(tolerance: Double) {
        let (kept, cleaner) = Self.clean(Self.day, TrackCleaner(simplifyMeters: tolerance))
        let points = Self.day.filter(\.hasPosition)
        let keptPoints = kept.filter(\.hasPosition)
        #expect(cleaner.simplified.kept == keptPoints.count)
        #expect(cleaner.simplified.kept + cleaner.simplified.dropped == points.count)
        // Walk the original points: between two kept ones (of one segment), every point lies near their line.
        var segmenter = TrackSegmenter()
        var keptIndex = 0
        var previousKept: Fix?
        var between: [Fix] = []
        var worst = 0.0
        var checked = 0
        for fix in Self.day {
            let placement = segmenter.place(fix)
            guard placement != .skip else {
                #expect(between.isEmpty, "a point held across a break")
                previousKept = nil
                continue
            }
            if keptIndex < keptPoints.count && keptPoints[keptIndex].timestamp == fix.timestamp {
                if placement == .newSegment {
                    #expect(between.isEmpty)
                } else if let previousKept {
                    for point in between {
                        worst = max(worst, Self.distance(point, from: previousKept, to: fix))
                        checked += 1
                    }
                }
                between = []
                previousKept = fix
                keptIndex += 1
            } else {
                #expect(placement == .continueSegment, "a segment's first point was dropped")
                between.append(fix)
            }
        }
        #expect(keptIndex == keptPoints.count)
        #expect(checked == cleaner.simplified.dropped)
        // No point is further than the tolerance (a millimetre for rounding).
        #expect(worst <= tolerance + 0.001, "worst \(worst) m at \(tolerance) m")
        print("simplify \(tolerance) m: kept \(keptPoints.count) of \(points.count), worst dropped point \(worst) m")
    }

    @Test func aDayOfDrivingKeepsAtMostFivePercentAtFiveMeters() {
        let (kept, _) = Self.clean(Self.day, TrackCleaner(simplifyMeters: 5))
        let points = Self.day.filter(\.hasPosition).count
        let keptPoints = kept.filter(\.hasPosition).count
        #expect(Double(keptPoints) <= Double(points) * 0.05, "\(keptPoints) of \(points)")
        // The breaks pass through: the writers see the same segments.
        var before = TrackSegmenter()
        var after = TrackSegmenter()
        #expect(
            Self.day.filter { before.place($0) == .newSegment }.count
                == kept.filter { after.place($0) == .newSegment }.count)
    }

    @Test func aWindowNeverGrowsPastItsLimits() {
        // A straight line of 5,000 points, one a second: only the window's limits keep points between the ends.
        let line = (0..<5000).map { index in
            makeFix(
                "2026-11-30T\(String(format: "%02d", 8 + index / 3600)):\(String(format: "%02d", index / 60 % 60)):"
                    + String(format: "%02d", index % 60), lat: 48 + Double(index) * 1e-4, lon: 11)
        }
        func simplified(_ simplifier: TrackSimplifier) -> [Int64] {
            var simplifier = simplifier
            var kept: [Fix] = []
            for (index, fix) in line.enumerated() {
                simplifier.add(fix, startsSegment: index == 0) { kept.append($0) }
            }
            simplifier.finishSegment { kept.append($0) }
            return kept.map { $0.timestamp! }
        }
        // 1,000 points at most.
        #expect(
            simplified(TrackSimplifier(toleranceMeters: 5, maximumWindow: 1000, maximumSpanSeconds: 1e6))
                == [0, 1000, 2000, 3000, 4000, 4999].map { line[$0].timestamp! })
        // 60 s at most (the writers' split gap), so simplifying never splits a segment.
        #expect(
            simplified(TrackSimplifier(toleranceMeters: 5, maximumSpanSeconds: 60))
                == (Array(stride(from: 0, to: 5000, by: 60)) + [4999]).map { line[$0].timestamp! })
    }

    // MARK: Outliers and stops

    /// Ten minutes of driving at 50 km/h, bending, one fix a second.
    static let drive = Scenario(
        legs: [.drive(seconds: 600, speedKmh: 50, turnDegreesPerSecond: 0.5)], seed: 3
    ).fixes().map(Fix.init)

    /// `fixes` with the points at `indices` moved `meters` north.
    static func spiked(_ fixes: [Fix], at indices: [Int], meters: Double) -> [Fix] {
        var fixes = fixes
        for index in indices { fixes[index].latitude! += meters / 111_195 }
        return fixes
    }

    @Test func spikesOfOneToThreePointsGoAndNothingElse() {
        let spiked = Self.spiked(Self.drive, at: [100, 200, 201, 300, 301, 302], meters: 400)
        let (kept, cleaner) = Self.clean(spiked, TrackCleaner(dropOutliers: true))
        #expect(cleaner.removedOutliers == 6)
        let expected = Self.drive.enumerated().filter { ![100, 200, 201, 300, 301, 302].contains($0.offset) }
        #expect(kept.map(\.timestamp) == expected.map(\.element.timestamp))
        #expect(kept.map(\.latitude) == expected.map(\.element.latitude))
        #expect(cleaner.summary == "removed 6 outliers (impossible jumps)")
    }

    @Test func realMotionStays() {
        // The clean drive loses nothing, nor does a track that jumps 5 km and carries on from there (logs joined
        // across a ferry), nor a run of four glitches (longer than a glitch can be: taken as real).
        #expect(Self.clean(Self.drive, TrackCleaner(dropOutliers: true)).cleaner.removedOutliers == 0)
        let jumped = Self.spiked(Self.drive, at: Array(300..<600), meters: 5000)
        let (kept, cleaner) = Self.clean(jumped, TrackCleaner(dropOutliers: true))
        #expect(cleaner.removedOutliers == 0)
        #expect(kept.map(\.latitude) == jumped.map(\.latitude))
        let four = Self.spiked(Self.drive, at: [100, 101, 102, 103], meters: 400)
        #expect(Self.clean(four, TrackCleaner(dropOutliers: true)).cleaner.removedOutliers == 0)
        // A small deviation within the envelope (20 m at 14 m/s) is noise, not an outlier.
        let small = Self.spiked(Self.drive, at: [150], meters: 20)
        #expect(Self.clean(small, TrackCleaner(dropOutliers: true)).cleaner.removedOutliers == 0)
    }

    @Test func aSpikeFromAParkedReceiver() {
        // Parked (0.1–0.5 kn): a 150 m jump for one second is impossible; the jitter of 3 m is not.
        let parked = Scenario(legs: [.park(seconds: 300, jitterMeters: 3)], seed: 5).fixes().map(Fix.init)
        let spiked = Self.spiked(parked, at: [120], meters: 150)
        let (kept, cleaner) = Self.clean(spiked, TrackCleaner(dropOutliers: true))
        #expect(cleaner.removedOutliers == 1)
        #expect(kept.count == parked.count - 1)
    }

    @Test func aStopBecomesOnePoint() {
        let fixes = Scenario(
            legs: [.park(seconds: 600, jitterMeters: 3), .drive(seconds: 300, speedKmh: 50)], seed: 9
        ).fixes().map(Fix.init)
        let (kept, cleaner) = Self.clean(fixes, TrackCleaner(stationaryMeters: 10))
        // The park's first point, then every point of the drive (14 m a second, beyond 10 m each time) but its
        // first, which is still where the receiver stood.
        #expect(cleaner.removedStationary == 600)
        #expect(kept.count == 1 + 299)
        #expect(kept.map(\.timestamp) == ([fixes[0]] + fixes[601...]).map(\.timestamp))
        #expect(cleaner.summary == "collapsed 600 stationary points")
    }
}
