import Foundation
import NMEA
import Simulation
import System
import TestSupport
import Testing

@testable import Tracks

/// GeoJSON read back as fixes: ours (lines, continued pieces, points) in every chunking, GDAL's, and malformed JSON
/// with its line.
@Suite struct GeoJSONReaderTests {
    static func read(_ text: String, chunk: Int = 1 << 16) throws -> (fixes: [Fix], reader: GeoJSONReader) {
        var reader = GeoJSONReader()
        let fixes = try readInChunks(
            text, chunk: chunk, read: { try reader.read($0, $1) }, finish: { try reader.finish($0) })
        return (fixes, reader)
    }

    static let journey = InteropTests.fixes
    static let points = InteropTests.points

    static func write(_ options: GeoJSONWriter.Options) throws -> String {
        let path = TemporaryDirectory().file("j.geojson")
        let writer = try GeoJSONWriter(path: path, options: options)
        for fix in journey { try writer.write(fix) }
        try writer.finish()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Segments as the writers would see them: runs of points between fixes without a position.
    static func segments(_ fixes: [Fix]) -> [[String]] {
        var segments: [[String]] = [[]]
        for fix in fixes {
            if fix.hasPosition {
                segments[segments.count - 1].append("\(fix.iso8601 ?? "-") \(fix.latitude!) \(fix.longitude!)")
            } else if !segments[segments.count - 1].isEmpty {
                segments.append([])
            }
        }
        return segments.filter { !$0.isEmpty }
    }

    static let expectedSegments: [[String]] = {
        var segmenter = TrackSegmenter()
        var segments: [[String]] = []
        for fix in journey {
            switch segmenter.place(fix) {
            case .skip: continue
            case .newSegment: segments.append([])
            case .continueSegment: break
            }
            segments[segments.count - 1].append("\(fix.iso8601!) \(fix.latitude!) \(fix.longitude!)")
        }
        return segments
    }()

    @Test(arguments: [1, 13, 4096])
    func ourLinesReadBackSegmentForSegment(chunk: Int) throws {
        // Pieces of 40 points: most segments continue across features, which must join again.
        let text = try Self.write(.init(pointsPerFeature: 40))
        let (fixes, reader) = try Self.read(text, chunk: chunk)
        #expect(Self.segments(fixes) == Self.expectedSegments)
        #expect(reader.statistics.points == Self.points.count)
        #expect(reader.statistics.rejectedPoints == 0)
    }

    @Test func ourPointsReadBackWithTheirProperties() throws {
        let (fixes, _) = try Self.read(try Self.write(.init(includePoints: true)))
        let read = fixes.filter(\.hasPosition)
        // Points, not the lines beside them: each point once, with speed, course, satellites and DOPs.
        #expect(read.count == Self.points.count)
        #expect(read.map(GPXReaderTests.summary) == Self.points.map(GPXReaderTests.summary))
    }

    @Test(.enabled(if: Tools.which("ogr2ogr") != nil, "ogr2ogr (gdal-bin) not installed"))
    func gdalsGeoJSONReadsAsItsPoints() throws {
        let directory = TemporaryDirectory()
        let gpx = directory.file("j.gpx")
        let writer = try GPXWriter(path: gpx)
        for fix in Self.journey { try writer.write(fix) }
        try writer.finish()
        let converted = directory.file("points.geojson")
        let outcome = try ChildProcess.run([
            Tools.which("ogr2ogr")!, "-f", "GeoJSON", converted, gpx, "track_points",
        ])
        #expect(outcome.status == 0, "ogr2ogr: \(outcome.error)")
        let (fixes, reader) = try Self.read(try String(contentsOfFile: converted, encoding: .utf8))
        let read = fixes.filter(\.hasPosition)
        #expect(read.count == Self.points.count)
        #expect(read.map { $0.timestamp } == Self.points.map { $0.timestamp })
        #expect(read.map(\.latitude) == Self.points.map(\.latitude))
        #expect(reader.statistics.rejectedPoints == 0)
    }

    @Test func aRootFeatureAndAMultiLineString() throws {
        let text = """
            {"type":"Feature","properties":{"coordTimes":[["2026-11-30T08:00:00Z","2026-11-30T08:00:01Z"],
            ["2026-11-30T09:00:00Z",null]]},"geometry":{"type":"MultiLineString","coordinates":
            [[[11.5,48.1,500],[11.6,48.2,501]],[[12,49],[12.1,49.1]]]}}
            """
        let (fixes, reader) = try Self.read(text, chunk: 7)
        #expect(
            Self.segments(fixes) == [
                ["2026-11-30T08:00:00Z 48.1 11.5", "2026-11-30T08:00:01Z 48.2 11.6"],
                ["2026-11-30T09:00:00Z 49.0 12.0", "- 49.1 12.1"],
            ])
        #expect(reader.statistics.segments == 2)
    }

    @Test(arguments: [
        (#"{"type":"FeatureCollection","features":[1,]}"#, "line 1: a ']' after a ',' or a key"),
        ("{\"type\":\n\"FeatureCollection\",\n\"features\":[", "line 3: the file ends inside an object or array"),
        (#"{"a":01}"#, "line 1: a bad number '01'"),
        (#"[1,2]"#, "line 1: not GeoJSON: the root is an array, not an object"),
        (#"{"crs":{}}"#, "line 1: not GeoJSON: the root object has no \"type\""),
        (
            #"{"type":"Polygon","coordinates":[]}"#,
            "line 1: a GeoJSON Polygon holds no track (FeatureCollection, Feature or a line)"
        ),
        ("{\"type\":\"a\nb\"}", "line 1: a string not closed on its line"),
        (#"{"type" "Feature"}"#, "line 1: a ':' was expected after the key"),
        (#"{"type":"Feature"}{}"#, "line 1: more after the root value"),
        (#"{"type":tru}"#, "line 1: an unknown word 'tru'"),
        ("", "line 1: no JSON value in the file"),
    ])
    func malformedJSONIsAnErrorWithItsLine(text: String, message: String) {
        do {
            _ = try Self.read(text, chunk: 3)
            Issue.record("read without an error: \(text)")
        } catch {
            #expect((error as? TrackReadError)?.description == message)
        }
    }
}
