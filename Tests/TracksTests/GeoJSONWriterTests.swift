import Foundation
import NMEA
import TestSupport
import Testing

@testable import Tracks

/// The GeoJSON the fixed sequence gives: its three segments in order, the first a LineString, the two of one fix each
/// Points (a line needs two distinct positions: issue 12, item 4), each with its `coordTimes`.
let expectedGeoJSON = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5166,48.1173,545.4],\
    [11.5168,48.1174,545.6]]},"properties":{"coordTimes":["2026-11-30T08:00:00.25Z","2026-11-30T08:00:01.25Z"]}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-70.25,-33.5]},"properties":{"coordTimes":\
    ["2026-11-30T08:00:03.25Z"]}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[180,0.00001,-12.5]},"properties":{"coordTimes":\
    ["2026-11-30T08:05:03Z"]}}
    ]}

    """

/// The same sequence with a Point feature per point after each segment's feature (a batch file: each segment is
/// one feature with exactly its fixes, and says its points are features too, so a reader takes them once).
let expectedGeoJSONWithPoints = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5166,48.1173,545.4],\
    [11.5168,48.1174,545.6]]},"properties":{"coordTimes":["2026-11-30T08:00:00.25Z","2026-11-30T08:00:01.25Z"],\
    "pointFeatures":true}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5166,48.1173,545.4]},"properties":\
    {"time":"2026-11-30T08:00:00.25Z","ele":545.4,"speed":11.5,"course":84.4,"fix":"3d","quality":"gps","sat":8,\
    "hdop":0.9,"vdop":1.2,"pdop":1.5}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5168,48.1174,545.6]},"properties":\
    {"time":"2026-11-30T08:00:01.25Z","ele":545.6,"speed":11.6,"course":359.99,"fix":"dgps","quality":"dgps",\
    "sat":9,"hdop":0.8}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-70.25,-33.5]},"properties":{"coordTimes":\
    ["2026-11-30T08:00:03.25Z"],"pointFeatures":true}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-70.25,-33.5]},"properties":\
    {"time":"2026-11-30T08:00:03.25Z","course":0,"fix":"2d","quality":"gps"}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[180,0.00001,-12.5]},"properties":{"coordTimes":\
    ["2026-11-30T08:05:03Z"],"pointFeatures":true}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[180,0.00001,-12.5]},"properties":\
    {"time":"2026-11-30T08:05:03Z","ele":-12.5,"speed":0,"fix":"3d","quality":"gps"}}
    ]}

    """

@Suite struct GeoJSONWriterTests {
    func write(
        _ fixes: [Fix], options: GeoJSONWriter.Options = .init(), checkEachFlush: Bool = false,
        name: String = #function
    ) throws -> String {
        let path = TemporaryDirectory(name).file("track.geojson")
        let writer = try GeoJSONWriter(path: path, options: options)
        for fix in fixes {
            try writer.write(fix)
            if checkEachFlush && writer.statistics.flushes > 0 {
                let document = try parse(path)
                #expect(document["type"] as? String == "FeatureCollection")
            } else if checkEachFlush {
                // Published with its first flushed point (Publication.atFirstPoint), not before.
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
        try writer.finish()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    func parse(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func fixedSequenceIsByteExact() throws {
        #expect(try write(fixedSequence) == expectedGeoJSON)
    }

    @Test func flushingEveryFixGivesTheSameFileAndValidJSONAfterEachFlush() throws {
        let options = GeoJSONWriter.Options(track: TrackOptions(flush: .everyFix, publication: .atFirstPoint))
        #expect(try write(fixedSequence, options: options, checkEachFlush: true) == expectedGeoJSON)
    }

    @Test func pointsAddOneFeaturePerPoint() throws {
        #expect(try write(fixedSequence, options: .init(includePoints: true)) == expectedGeoJSONWithPoints)
    }

    @Test func oneSegmentIsALineString() throws {
        let text = try write(Array(fixedSequence.prefix(2)))
        #expect(
            text == """
                {"type":"FeatureCollection","features":[
                {"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5166,48.1173,545.4],\
                [11.5168,48.1174,545.6]]},"properties":{"coordTimes":["2026-11-30T08:00:00.25Z",\
                "2026-11-30T08:00:01.25Z"]}}
                ]}

                """)
    }

    @Test func emptyCollectionIsValid() throws {
        #expect(try write([]) == "{\"type\":\"FeatureCollection\",\"features\":[\n\n]}\n")
    }

    @Test(arguments: [FlushPolicy.everyFix, .batch(bytes: 100), .conversion])
    func longTracksContinueInBoundedFeatures(flush: FlushPolicy) throws {
        // 23 points in one segment, 5 per feature: features of 5, then 4 new points each after the repeated one.
        let fixes = (0..<23).map { second in
            makeFix(String(format: "2026-11-30T08:00:%02d", second), lat: 48 + Double(second) / 1000, lon: 11)
        }
        let text = try write(
            fixes, options: .init(track: TrackOptions(flush: flush, publication: .atFirstPoint), pointsPerFeature: 5),
            checkEachFlush: true)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == 6)  // 5 + 4 + 4 + 4 + 4 + 2 = 23
        var times: [String] = []
        for (index, feature) in features.enumerated() {
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(geometry["type"] as? String == "LineString")
            let coordinates = try #require(geometry["coordinates"] as? [[Double]])
            let featureTimes = try #require(properties["coordTimes"] as? [String])
            #expect(coordinates.count == featureTimes.count)
            #expect(coordinates.count <= 5)
            #expect((properties["continued"] as? Bool ?? false) == (index > 0))
            times += index > 0 ? Array(featureTimes.dropFirst()) : featureTimes
        }
        #expect(times == fixes.map { $0.iso8601! })
    }

    /// Issue 12, item 4: a segment without two distinct positions is no line. One fix is a Point, fixes that all
    /// print one longitude and latitude (whatever their elevations) a MultiPoint, in time order among the lines; and
    /// after every live flush, every line in the file has two distinct positions.
    @Test func segmentsWithoutTwoDistinctPositionsArePoints() throws {
        let at = { (second: Int, lat: Double, alt: Double?) in
            makeFix(String(format: "2026-11-30T08:%02d:%02d", second / 60, second % 60), lat: lat, lon: 11, alt: alt)
        }
        // Segments (gaps over 60 s): a line; one fix; three fixes at one place (elevation absent, then two
        // values); a line whose first two fixes are at one place.
        let fixes = [
            at(0, 48.0, nil), at(1, 48.001, nil), at(100, 48.1, 500), at(200, 48.2, nil), at(201, 48.2, 501),
            at(202, 48.2, 502), at(300, 48.3, nil), at(301, 48.3, nil), at(302, 48.301, nil),
        ]
        let path = TemporaryDirectory().file("track.geojson")
        let options = GeoJSONWriter.Options(track: TrackOptions(flush: .everyFix, publication: .atFirstPoint))
        let writer = try GeoJSONWriter(path: path, options: options)
        func geometries() throws -> [(type: String, coordinates: [Any], times: [Any])] {
            let features = try #require(try parse(path)["features"] as? [[String: Any]])
            return try features.map { feature in
                let geometry = try #require(feature["geometry"] as? [String: Any])
                let properties = try #require(feature["properties"] as? [String: Any])
                return (
                    try #require(geometry["type"] as? String), try #require(geometry["coordinates"] as? [Any]),
                    try #require(properties["coordTimes"] as? [Any])
                )
            }
        }
        for fix in fixes {
            try writer.write(fix)
            for geometry in try geometries() where geometry.type == "LineString" {
                let places = Set((geometry.coordinates as? [[Double]] ?? []).map { [$0[0], $0[1]] })
                #expect(places.count >= 2, "a line with \(places.count) distinct positions")
            }
        }
        try writer.finish()
        let final = try geometries()
        #expect(final.map(\.type) == ["LineString", "Point", "MultiPoint", "LineString"])
        #expect(final[1].coordinates as? [Double] == [11, 48.1, 500])
        #expect(final[1].times as? [String] == ["2026-11-30T08:01:40Z"])
        #expect(final[2].coordinates as? [[Double]] == [[11, 48.2], [11, 48.2, 501], [11, 48.2, 502]])
        #expect(final[2].times.count == 3)
        #expect(final[3].coordinates.count == 3)
    }

    @Test func noExponentNotation() {
        var out: [UInt8] = []
        for value in [0.00001, -1.5e-7, 1e16, 123.456, -0.0, Double.leastNonzeroMagnitude, 1.0e-3] {
            DecimalFormatter.write(value) { out.append($0) }
            out.append(UInt8(ascii: " "))
        }
        #expect(
            String(decoding: out, as: UTF8.self) == "0.00001 -0.00000015 10000000000000000 123.456 0 "
                + "0.\(String(repeating: "0", count: 323))5 0.001 ")
    }
}
