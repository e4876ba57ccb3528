import Foundation
import NMEA
import System
import TestSupport
import Testing
import Tracks

/// WPL waypoints and RTE routes, gathered by ``Navigation`` from a reader's sentences, and written by the track
/// writers: GPX `<wpt>` and `<rte>` before the track (checked by the schema, GDAL and GPSBabel), GeoJSON features
/// with a `"kind"`, KML placemarks.
@Suite struct NavigationTests {
    /// Two waypoints sent twice (the second time the first has moved), a route of three names over two sentences
    /// (one name with no WPL), sent twice, and two fixes between.
    static let log = [
        "GPWPL,4807.038,N,01131.000,E,HOME", "GPWPL,4821.303,N,01153.225,E,WORK",
        "GPRTE,2,1,c,COMMUTE,HOME,WORK", "GPRTE,2,2,c,COMMUTE,PUB",
        "GPRMC,080000.00,A,4807.038,N,01131.000,E,0.0,0.0,301126,,,A",
        "GPWPL,4807.040,N,01131.002,E,HOME", "GPWPL,4821.303,N,01153.225,E,WORK",
        "GPRTE,2,1,c,COMMUTE,HOME,WORK", "GPRTE,2,2,c,COMMUTE,PUB",
        "GPRMC,080001.00,A,4807.039,N,01131.001,E,0.0,0.0,301126,,,A",
    ].map(nmeaSentence).joined()

    /// The fixes and the navigation of `text`, read by one ``FixReader`` with a ``Navigation`` as its handler.
    static func read(_ text: String) -> (fixes: [Fix], navigation: Navigation) {
        var reader = FixReader()
        var navigation = Navigation()
        var fixes: [Fix] = []
        Array(text.utf8).withUnsafeBytes { bytes in
            reader.read(bytes, handler: &navigation) { fixes.append($0) }
        }
        reader.finish(handler: &navigation) { fixes.append($0) }
        return (fixes, navigation)
    }

    @Test func repeatsAreKeptOnceTheLatestPositionAndListWin() throws {
        let navigation = Self.read(Self.log).navigation
        #expect(navigation.waypoints.map(\.name) == ["HOME", "WORK"])
        // Positions as FixedPoint gives them: 7 decimals of a degree.
        #expect(abs(navigation.waypoints[0].latitude - (48 + 7.04 / 60)) < 1e-7)
        #expect(abs(navigation.waypoints[0].longitude - (11 + 31.002 / 60)) < 1e-7)
        #expect(abs(navigation.waypoints[1].latitude - (48 + 21.303 / 60)) < 1e-7)
        #expect(navigation.routes == [.init(name: "COMMUTE", isComplete: true, waypoints: ["HOME", "WORK", "PUB"])])
        let placed = navigation.placedPoints(of: navigation.routes[0])
        #expect(placed.points.map(\.name) == ["HOME", "WORK"] && placed.unplaced == 1)
        #expect(navigation.dropped == 0)
    }

    @Test func brokenMessagesAndEmptyRoutesAreLeftOut() throws {
        let text = [
            "GPRTE,2,2,c,A,X",  // a second sentence without its first
            "GPRTE,2,1,c,B,X", "GPRTE,2,1,c,B,Y",  // a first again before the second: the first message is broken
            "GPRTE,2,2,c,B,Z",  // ends the second message: B is Y, Z
            "GPRTE,1,1,c,0",  // no route followed
            "GPWPL,,,,,NOWHERE",  // no position
            "GPRTE,1,1,w,A,P,Q",  // a working route
        ].map(nmeaSentence).joined()
        let navigation = Self.read(text).navigation
        #expect(
            navigation.routes == [
                .init(name: "B", isComplete: true, waypoints: ["Y", "Z"]),
                .init(name: "A", isComplete: false, waypoints: ["P", "Q"]),
            ])
        #expect(navigation.waypoints.isEmpty)
        #expect(navigation.dropped == 3)
    }

    @Test func theLimitsBoundMemory() {
        var navigation = Navigation()
        for index in 0..<(Navigation.maximumWaypoints + 5) {
            navigation.add(Navigation.Waypoint(name: "W\(index)", latitude: 1, longitude: 2))
        }
        #expect(navigation.waypoints.count == Navigation.maximumWaypoints && navigation.dropped == 5)
        let long = Navigation.Route(
            name: "R", isComplete: true, waypoints: (0..<3).map { "W\($0)" })
        navigation.add(long)
        navigation.add(long)  // the same name again: replaced, not added
        #expect(navigation.routes.count == 1)
    }

    /// Writes the log's fixes and navigation with `make`, finishes, and returns the file's text.
    static func write(_ make: (String) throws -> any TrackWriter, _ name: String) throws -> String {
        let directory = TemporaryDirectory()
        let path = directory.file(name)
        let (fixes, navigation) = Self.read(Self.log)
        let writer = try make(path)
        for fix in fixes { try writer.write(fix) }
        #expect(writer.setNavigation(navigation))
        try writer.finish()
        #expect(writer.statistics.waypoints == 2 && writer.statistics.routes == 1)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func gpxPutsWaypointsAndRoutesBeforeTheTrack() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("nav.gpx")
        let text = try Self.write({ try GPXWriter(path: $0) }, "nav.gpx")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try Support.expectValidGPX(path)
        let expected = """
              <wpt lat="48.11733333" lon="11.5167"><name>HOME</name></wpt>
              <wpt lat="48.35505" lon="11.88708333"><name>WORK</name></wpt>
              <rte>
                <name>COMMUTE</name>
                <rtept lat="48.11733333" lon="11.5167"><name>HOME</name></rtept>
                <rtept lat="48.35505" lon="11.88708333"><name>WORK</name></rtept>
              </rte>
              <trk>
                <trkseg>

            """
        #expect(text.contains(">\n" + expected))
        #expect(Support.gpxCounts(text).points == 2)
        // GPX 1.0 has the same elements.
        let old = try Self.write({ try GPXWriter(path: $0, version: .v10) }, "old.gpx")
        #expect(old.contains(expected))
    }

    @Test(.enabled(if: Support.ogrinfo != nil, "ogrinfo (gdal-bin) not installed"))
    func gdalReadsTheWaypointsAndTheRoute() throws {
        let directory = TemporaryDirectory()
        let gpx = directory.file("nav.gpx")
        try Self.write({ try GPXWriter(path: $0) }, "x.gpx").write(toFile: gpx, atomically: true, encoding: .utf8)
        #expect(try InteropTests.featureCount([gpx, "waypoints"]) == 2)
        #expect(try InteropTests.featureCount([gpx, "routes"]) == 1)
        #expect(try InteropTests.featureCount([gpx, "route_points"]) == 2)
        #expect(try InteropTests.featureCount([gpx, "track_points"]) == 2)
        let geojson = directory.file("nav.geojson")
        try Self.write({ try GeoJSONWriter(path: $0) }, "x.geojson").write(
            toFile: geojson, atomically: true, encoding: .utf8)
        #expect(try InteropTests.featureCount(["-al", geojson]) == 4)  // the track, two waypoints, the route
    }

    @Test(.enabled(if: Support.gpsbabel != nil, "gpsbabel not installed"))
    func gpsbabelReadsTheWaypointsAndTheRoute() throws {
        let directory = TemporaryDirectory()
        let gpx = directory.file("nav.gpx")
        try Self.write({ try GPXWriter(path: $0) }, "x.gpx").write(toFile: gpx, atomically: true, encoding: .utf8)
        /// GPSBabel's `csv` of one kind of data: the others removed with its `nuketypes` filter.
        func only(_ kind: String) throws -> String {
            let others = ["waypoints", "routes", "tracks"].filter { $0 != kind }.joined(separator: ",")
            let outcome = try ChildProcess.run([
                Support.gpsbabel!, "-i", "gpx", "-f", gpx, "-x", "nuketypes,\(others)", "-o", "csv", "-F", "-",
            ])
            #expect(outcome.status == 0, "\(outcome.error)")
            return outcome.output
        }
        #expect(try only("waypoints") == "48.11733, 11.51670, HOME\n48.35505, 11.88708, WORK\n")
        #expect(try only("routes") == "48.11733, 11.51670, HOME\n48.35505, 11.88708, WORK\n")
        #expect(try only("tracks") == "48.11730, 11.51667, \n48.11732, 11.51668, \n")
    }

    @Test func geoJSONAndKMLAddFeaturesAfterTheTrack() throws {
        let geojson = try Self.write({ try GeoJSONWriter(path: $0) }, "nav.geojson")
        #expect(
            geojson.hasSuffix(
                """
                {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5167,48.11733333]},\
                "properties":{"kind":"waypoint","name":"HOME"}},
                {"type":"Feature","geometry":{"type":"Point","coordinates":[11.88708333,48.35505]},\
                "properties":{"kind":"waypoint","name":"WORK"}},
                {"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5167,48.11733333],\
                [11.88708333,48.35505]]},"properties":{"kind":"route","name":"COMMUTE","complete":true,\
                "waypoints":["HOME","WORK"]}}
                ]}

                """))
        let kml = try Self.write({ try KMLWriter(path: $0) }, "nav.kml")
        #expect(
            kml.contains(
                "<name>HOME</name>\n      <styleUrl>#mark</styleUrl>\n      <Point><coordinates>11.5167,48.1173333"))
        #expect(
            kml.contains(
                "<name>COMMUTE</name>\n      <styleUrl>#route</styleUrl>\n      <LineString><coordinates>"
                    + "11.5167,48.1173333 11.8870833,48.35505</coordinates></LineString>"))
    }

    @Test func aStreamAndCSVCannotHoldThem() throws {
        let pipe = try FileDescriptor.pipe()
        defer {
            try? pipe.readEnd.close()
            try? pipe.writeEnd.close()
        }
        let stream = try GPXWriter(streamingTo: pipe.writeEnd)
        #expect(!stream.setNavigation(Self.read(Self.log).navigation))
        let directory = TemporaryDirectory()
        let csv = try CSVWriter(path: directory.file("x.csv"))
        #expect(!csv.setNavigation(Self.read(Self.log).navigation))
        csv.discard()
    }

    /// GPSBabel's own sample of waypoints (`gpsbabel/waypoints.nmea` in the shared corpus): the same names and
    /// positions as `gpsbabel -i nmea -o gpx` gives.
    @Test(
        .enabled(if: Locations.corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"),
        .enabled(if: Support.gpsbabel != nil, "gpsbabel not installed"))
    func gpsbabelsWaypointSampleGivesGPSBabelsWaypoints() throws {
        let path = Locations.corpus! + "/gpsbabel/waypoints.nmea"
        let navigation = Self.read(try String(contentsOfFile: path, encoding: .utf8)).navigation
        let theirs = try ChildProcess.run([Support.gpsbabel!, "-i", "nmea", "-f", path, "-o", "csv", "-F", "-"])
        let rows = theirs.output.split(separator: "\n").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == navigation.waypoints.count && rows.count == 9)
        for (row, waypoint) in zip(rows, navigation.waypoints) {
            #expect(row[2] == waypoint.name)
            #expect(abs(Double(row[0])! - waypoint.latitude) < 0.000_006)
            #expect(abs(Double(row[1])! - waypoint.longitude) < 0.000_006)
        }
    }
}
