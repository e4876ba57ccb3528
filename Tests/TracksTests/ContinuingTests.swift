import Foundation
import NMEA
import System
import TestSupport
import Testing

@testable import Tracks

/// Continuing a document in place (``GPXWriter/init(continuing:options:)``,
/// ``GeoJSONWriter/init(continuing:options:)``): from every state a writer leaves — live after a flush, killed
/// inside a commit, finished — the next points go after the last committed one, and the file stays one track.
@Suite struct ContinuingTests {
    /// A point a second, from 2026-11-30T08:00:00Z, about 14 m apart.
    static func point(_ n: Int) -> Fix {
        let second = 8 * 3600 + n
        return makeFix(
            String(format: "2026-11-30T%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60),
            lat: 48.1374 + Double(n) * 0.0001, lon: 11.5755 + Double(n) * 0.0001, alt: 520, speed: 14, sat: 9)
    }

    static func times(_ range: Range<Int>) -> [String] { range.map { point($0).iso8601! } }

    static let live = TrackOptions(flush: .batch(bytes: 256 * 1024), publication: .atFirstPoint)

    /// The times of a track file's points as the readers read it.
    static func readTimes(_ path: String) throws -> (times: [String], segments: Int) {
        let bytes = readFile(path) ?? []
        let format = try #require(bytes.withUnsafeBytes { TrackFileReader.format(of: $0) })
        var reader = TrackFileReader(format: format)
        var times: [String] = []
        var breaks = 0
        let keep: (Fix) -> Void = { fix in
            if fix.latitude != nil { times.append(fix.iso8601!) } else if !times.isEmpty { breaks += 1 }
        }
        try bytes.withUnsafeBytes { try reader.read($0, keep) }
        try reader.finish(keep)
        // Both readers end each segment with a break, the last one too.
        return (times, breaks)
    }

    @Test func aLiveGPXGoesOnAfterItsLastFlushInItsSegment() throws {
        let path = TemporaryDirectory().file("day.gpx")
        var writer: GPXWriter? = try GPXWriter(path: path, options: Self.live)
        for n in 0..<100 { try writer!.write(Self.point(n)) }
        try writer!.flush()
        // Not flushed: gone with the process, as after a SIGKILL.
        for n in 100..<110 { try writer!.write(Self.point(n)) }
        writer = nil
        let continued = try GPXWriter(continuing: path, options: Self.live)
        #expect(try continued.committedPoints(last: 3).map(\.iso8601) == Self.times(97..<100))
        #expect(try continued.committedPoints(last: 1000).count == 100)
        for n in 100..<150 { try continued.write(Self.point(n)) }
        try continued.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Support.gpxTimes(text) == Self.times(0..<150))
        #expect(Support.gpxCounts(text) == (150, 1))
        #expect(!text.contains("<?pad"))
        try Support.expectValidGPX(path)
    }

    /// A SIGKILL between a commit's bulk write and its switch leaves new points, a new tail and a new opener inside
    /// the inert instruction: not part of the document, so neither read back nor kept.
    @Test func whatAKilledCommitWroteIntoTheInertSpaceIsWrittenOver() throws {
        let path = TemporaryDirectory().file("day.gpx")
        var writer: GPXWriter? = try GPXWriter(path: path, options: Self.live)
        for n in 0..<20 { try writer!.write(Self.point(n)) }
        try writer!.flush()
        writer = nil
        var bytes = try #require(readFile(path))
        let opener = try #require(firstIndex(of: Array("<?pad ".utf8), in: bytes[...]))
        var uncommitted: [UInt8] = []
        GPXPoint.append(makeFix("2026-11-30T09:59:59", lat: 1, lon: 2), to: &uncommitted)
        uncommitted += GPXWriter.tailInSegment + Array("<?pad ".utf8)
        bytes.replaceSubrange((opener + 6)..<(opener + 6 + uncommitted.count), with: uncommitted)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(try Self.readTimes(path).times == Self.times(0..<20))
        let continued = try GPXWriter(continuing: path, options: Self.live)
        #expect(try continued.committedPoints(last: 50).map(\.iso8601) == Self.times(0..<20))
        for n in 20..<25 { try continued.write(Self.point(n)) }
        try continued.finish()
        #expect(try Self.readTimes(path).times == Self.times(0..<25))
        try Support.expectValidGPX(path)
    }

    /// A finished file gets its inert space back; one whose tail and opener would cross a switch block (512 bytes
    /// with `sync`, for a file written without, whose blocks were pages) is first written again with the tail at a
    /// block's start, and nothing is left beside it.
    @Test func finishedGPXFilesAreContinuedWhereverTheirTailFalls() throws {
        let directory = TemporaryDirectory()
        var crossing = 0
        var fitting = 0
        for count in 1...40 where crossing == 0 || fitting == 0 {
            let path = directory.file("day\(count).gpx")
            let writer = try GPXWriter(path: path, options: Self.live)
            for n in 0..<count { try writer.write(Self.point(n)) }
            try writer.finish()
            let tailOffset = try FileStatus(path: path).size - GPXWriter.tailInSegment.count
            let crosses = tailOffset / 512 != (tailOffset + GPXWriter.tailInSegment.count + 5) / 512
            if crosses { crossing += 1 } else { fitting += 1 }
            let continued = try GPXWriter(
                continuing: path, options: TrackOptions(sync: true, publication: .atFirstPoint))
            try continued.write(Self.point(count))
            try continued.finish()
            #expect(try Self.readTimes(path) == (Self.times(0..<(count + 1)), 1), "\(count) points")
        }
        #expect(crossing > 0 && fitting > 0)
        #expect(Directory.entries(directory.path).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func aGeoJSONGoesOnInAContinuedFeatureOrANewSegment() throws {
        let path = TemporaryDirectory().file("day.geojson")
        let options = GeoJSONWriter.Options(track: Self.live, pointsPerFeature: 5)
        var writer: GeoJSONWriter? = try GeoJSONWriter(path: path, options: options)
        for n in 0..<12 { try writer!.write(Self.point(n)) }
        try writer!.flush()
        writer = nil
        var continued = try GeoJSONWriter(continuing: path, options: options)
        #expect(try continued.committedPoints(last: 2).map(\.iso8601) == Self.times(10..<12))
        for n in 12..<20 { try continued.write(Self.point(n)) }
        try continued.finish()
        #expect(try Self.readTimes(path) == (Self.times(0..<20), 1))
        // Finished, then continued after a gap longer than the split gap (60 s): a new segment, no stray point.
        continued = try GeoJSONWriter(continuing: path, options: options)
        try continued.write(Self.point(200))
        try continued.write(Self.point(201))
        try continued.finish()
        #expect(try Self.readTimes(path) == (Self.times(0..<20) + Self.times(200..<202), 2))
        #expect((try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) != nil)
    }

    /// A flush cut by SIGKILL at a page boundary leaves the new bytes before it and the old ones after: refused at
    /// every boundary where that differs from both versions, while both versions themselves are continued.
    @Test func aGeoJSONCutInsideAFlushIsRefusedAtEveryPageBoundary() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("day.geojson")
        let options = GeoJSONWriter.Options(track: Self.live, pointsPerFeature: 1000)
        let writer = try GeoJSONWriter(path: path, options: options)
        for n in 0..<300 { try writer.write(Self.point(n)) }
        try writer.flush()
        let before = try #require(readFile(path))
        for n in 300..<600 { try writer.write(Self.point(n)) }
        try writer.flush()
        let after = try #require(readFile(path))
        var refused = 0
        for cut in stride(from: 4096, to: before.count, by: 4096) {
            let torn = Array(after.prefix(cut) + before.dropFirst(cut))
            guard torn != before && torn != after else { continue }
            let copy = directory.file("torn\(cut).geojson")
            FileManager.default.createFile(atPath: copy, contents: Data(torn))
            #expect(throws: TrackError.self, "cut at \(cut)") { _ = try GeoJSONWriter(continuing: copy) }
            #expect(readFile(copy) == torn)
            refused += 1
        }
        #expect(refused >= 2)
        for (index, version) in [before, after].enumerated() {
            let copy = directory.file("whole\(index).geojson")
            FileManager.default.createFile(atPath: copy, contents: Data(version))
            _ = try GeoJSONWriter(continuing: copy, options: options)
        }
    }

    @Test func documentsOfOtherProgramsAreRefusedAndLeftAlone() throws {
        let directory = TemporaryDirectory()
        let gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><trkseg/></trk></gpx>"#
        let geojson = #"{"type":"FeatureCollection","features":[]}"#
        directory.write(gpx, to: "other.gpx")
        directory.write(geojson, to: "other.geojson")
        let refusal = #expect(throws: TrackError.self) { _ = try GPXWriter(continuing: directory.file("other.gpx")) }
        #expect(refusal?.operation == .reopen && refusal?.code == EINVAL)
        #expect(throws: TrackError.self) { _ = try GeoJSONWriter(continuing: directory.file("other.geojson")) }
        #expect(throws: TrackError.self) { _ = try GPXWriter(continuing: directory.file("missing.gpx")) }
        #expect(directory.read("other.gpx") == gpx && directory.read("other.geojson") == geojson)
        let error = TrackError(path: "a.gpx", operation: .reopen, code: EINVAL, fileIsIntact: true)
        #expect(
            error.description == "cannot continue 'a.gpx': it is not a complete document as this writer leaves it "
                + "(damaged, or written by another program)")
    }
}
