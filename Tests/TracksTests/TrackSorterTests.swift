import Foundation
import TestSupport
import Testing

@testable import Tracks

/// Interleaved tracks handed back track by track, in bounded memory (`nmea convert --ais`).
@Suite("TrackSorter")
struct TrackSorterTests {
    /// 5,000 points of 37 tracks in a scrambled order, held 7 at a time and merged 3 runs at a time: every point
    /// comes back once, grouped by track in identifier order, each track's points in the order they came.
    @Test("many runs, cascaded merges: the same as a stable sort by track")
    func spillsAndMerges() throws {
        let directory = TemporaryDirectory("sorter").path
        let sorter = TrackSorter(beside: directory + "/out.gpx", memoryPoints: 7, mergeWidth: 3)
        var points: [TrackSorter.Point] = []
        var state: UInt64 = 12_345
        for index in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let track = (state >> 33) % 37 + 200_000_000
            let point = TrackSorter.Point(
                track: track, latitude: Double(index), longitude: -Double(index),
                receivedMilliseconds: index % 3 == 0 ? nil : Int64(index), speed: Double(index) / 10,
                course: index % 5 == 0 ? nil : Double(index % 360))
            points.append(point)
            try sorter.append(point)
        }
        var out: [TrackSorter.Point] = []
        try sorter.finish { out.append($0) }
        #expect(sorter.runsWritten > 700)  // 714 runs of 7, and the merges' runs
        let expected = points.enumerated().sorted { a, b in
            a.element.track != b.element.track ? a.element.track < b.element.track : a.offset < b.offset
        }.map(\.element)
        #expect(out.count == 5_000)
        #expect(out.map(\.track) == expected.map(\.track))
        #expect(out.map(\.latitude) == expected.map(\.latitude))
        #expect(out.map(\.receivedMilliseconds) == expected.map(\.receivedMilliseconds))
        #expect(out.map { $0.course.isNaN ? -1 : $0.course } == expected.map { $0.course.isNaN ? -1 : $0.course })
        // The runs were unnamed files: nothing is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("points that fit in memory need no run")
    func inMemory() throws {
        let sorter = TrackSorter(beside: "-")
        for (index, track) in [3, 1, 2, 1, 3].enumerated() {
            try sorter.append(
                TrackSorter.Point(
                    track: UInt64(track), latitude: Double(index), longitude: 0, receivedMilliseconds: nil,
                    speed: nil, course: nil))
        }
        var out: [(UInt64, Double)] = []
        try sorter.finish { out.append(($0.track, $0.latitude)) }
        #expect(out.map(\.0) == [1, 1, 2, 3, 3])
        #expect(out.map(\.1) == [1, 3, 2, 0, 4])
        #expect(sorter.runsWritten == 0)
    }
}
