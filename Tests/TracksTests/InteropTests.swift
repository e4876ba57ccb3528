import Foundation
import NMEA
import Simulation
import TestSupport
import Testing
import Tracks

/// Our files as other tools read them: GDAL's `ogrinfo` and GPSBabel.
@Suite struct InteropTests {
    /// 900 fixes of the crash journey: drives, lost fixes and silent gaps, so several segments.
    static let fixes = Scenario.crashTest().fixes().prefix(900).map(Fix.init)
    static let points = fixes.filter(\.hasPosition)

    static func writeTracks(in directory: TemporaryDirectory) throws -> (gpx: String, geojson: String) {
        let gpx = directory.file("journey.gpx")
        let geojson = directory.file("journey.geojson")
        let gpxWriter = try GPXWriter(path: gpx)
        let geojsonWriter = try GeoJSONWriter(path: geojson, options: .init(includePoints: true))
        for fix in fixes {
            try gpxWriter.write(fix)
            try geojsonWriter.write(fix)
        }
        try gpxWriter.finish()
        try geojsonWriter.finish()
        // 93 fixes a cycle: a segment ends at the lost fix and at the 90 s silence; the stop joins the next drive.
        #expect(gpxWriter.statistics.segments == 20)
        return (gpx, geojson)
    }

    /// `Feature Count: N` from `ogrinfo -ro -so`.
    static func featureCount(_ arguments: [String]) throws -> Int? {
        let outcome = try ChildProcess.run([Support.ogrinfo!, "-ro", "-so"] + arguments)
        #expect(outcome.status == 0, "ogrinfo: \(outcome.error)")
        let line = outcome.output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Feature Count: ") }
        return line.flatMap { Int($0.dropFirst("Feature Count: ".count)) }
    }

    @Test(.enabled(if: Support.ogrinfo != nil, "ogrinfo (gdal-bin) not installed"))
    func ogrinfoCountsTheGPXPointsAndTrack() throws {
        let (gpx, _) = try Self.writeTracks(in: TemporaryDirectory())
        try Support.expectValidGPX(gpx)
        #expect(try Self.featureCount([gpx, "track_points"]) == Self.points.count)
        #expect(try Self.featureCount([gpx, "tracks"]) == 1)
        #expect(try Self.featureCount([gpx, "waypoints"]) == 0)
    }

    @Test(.enabled(if: Support.ogrinfo != nil, "ogrinfo (gdal-bin) not installed"))
    func ogrinfoCountsTheGeoJSONFeatures() throws {
        let (_, geojson) = try Self.writeTracks(in: TemporaryDirectory())
        // One Point per point, plus a line feature per segment with exactly its points (issue 25, item 10: a batch
        // file is no longer cut into pieces of 500 that repeat their joints).
        let data = try Data(contentsOf: URL(fileURLWithPath: geojson))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        let segments = features.filter { ($0["properties"] as? [String: Any])?["coordTimes"] != nil }
        #expect(segments.count == 20)
        let positions = segments.map { (($0["geometry"] as? [String: Any])?["coordinates"] as? [Any])?.count ?? 0 }
        #expect(positions.reduce(0, +) == Self.points.count)
        #expect(segments.allSatisfy { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" })
        #expect(try Self.featureCount(["-al", geojson]) == Self.points.count + segments.count)
    }

    @Test(.enabled(if: Support.gpsbabel != nil, "gpsbabel not installed"))
    func gpsbabelReadsBackEveryPointAndTime() throws {
        let (gpx, _) = try Self.writeTracks(in: TemporaryDirectory())
        // -t: unicsv writes tracks only when asked to (without it, it lists waypoints, of which there are none).
        let outcome = try ChildProcess.run(
            [Support.gpsbabel!, "-t", "-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", "-"])
        #expect(outcome.status == 0, "gpsbabel: \(outcome.error)")
        let rows = outcome.output.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == Self.points.count + 1)
        let header = try #require(rows.first.map { $0.map(String.init) })
        let date = try #require(header.firstIndex(of: "Date"))
        let time = try #require(header.firstIndex(of: "Time"))
        let latitude = try #require(header.firstIndex(of: "Latitude"))
        let read = rows.dropFirst().map { "\($0[date])T\($0[time])Z".replacingOccurrences(of: "/", with: "-") }
        #expect(read == Self.points.map { $0.iso8601! })
        let latitudes = rows.dropFirst().map { Double($0[latitude])! }
        let expected = Self.points.map { ($0.latitude! * 1e6).rounded() / 1e6 }
        #expect(latitudes == expected)
    }
}
