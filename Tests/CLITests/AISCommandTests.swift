import Foundation
import TestSupport
import Testing

/// `nmea ais` and `nmea parse` on the bundled harbour sample (our own sentences: a two-part type 5, class A and B
/// position reports, a type 24 in two parts).
@Suite("nmea ais")
struct AISCommandTests {
    static let sample = Locations.packageRoot + "/nmea-samples/harbour-ais.nmea"

    @Test("one row per vessel: names from types 5 and 24, last position, messages")
    func table() throws {
        let outcome = try Tool.run(["ais", Self.sample])
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                MMSI       NAME         CALL SIGN  TYPE  SIZE    DESTINATION  LAT       LON      COG    SOG   MSGS
                211200002  SEEADLER     DA1234     36    12x4                 53.54000  9.97000  180.0  5.3   7
                244100001  NORDERLICHT  PDAB       70    110x16  HAMBURG      53.55000  9.97000  61.2   12.4  7

                """)
        #expect(outcome.error == "nmea ais: 16 AIS sentences: 14 messages\n")
    }

    @Test("--json, and parse --ais-only --mmsi keeps one station's messages")
    func json() throws {
        let vessels = try Tool.run(["ais", "--json", Self.sample])
        #expect(vessels.output.hasPrefix(#"{"vessels":[{"mmsi":211200002,"name":"SEEADLER","callsign":"DA1234","#))
        let parsed = try Tool.run(["parse", "--mmsi", "211200002", Self.sample])
        #expect(parsed.status == 0)
        let lines = parsed.output.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { $0.contains(#""mmsi":211200002"#) })
        #expect(parsed.error.contains("7 of other stations"))
        let bad = try Tool.run(["parse", "--mmsi", "abc", Self.sample])
        #expect(bad.status == 64)
    }

    /// An AIS transponder's log: the own ship's reports (`!AIVDO`) with TAG block receive times, another vessel's
    /// report, and an own-ship report with no receive time (written by this project's tests, values known).
    static let ownShipLog =
        [
            #"\c:1700000000000*6F\!AIVDO,1,1,,A,139>Jh@P1sPfdB0Nu<p1j?vt0000,0*60"#,
            #"\c:1700000000500*6A\!AIVDM,1,1,,A,13`dU0PP1sPBCp0NDrh1j?vt0000,0*60"#,
            #"\c:1700000001000*6E\!AIVDO,1,1,,A,139>Jh@P1sPfdEhNu=71j?vt0000,0*79"#,
            #"!AIVDO,1,1,,A,139>Jh@P1sPg9U0O0o@1j?vt0000,0*0C"#,
            #"\c:1700000002000*6D\!AIVDO,1,1,,A,139>Jh@P1sPfdIPNu=F1j?vt0000,0*3C"#,
        ].joined(separator: "\r\n") + "\r\n"

    @Test("--own-ship: the own ship's reports with a receive time are the fixes, the same on every core")
    func ownShip() throws {
        let directory = TemporaryDirectory("own-ship").path
        let path = directory + "/transponder.nmea"
        try Self.ownShipLog.write(toFile: path, atomically: true, encoding: .utf8)
        let fixes = try Tool.run(["parse", "--fixes", "--own-ship", path])
        #expect(fixes.status == 0)
        #expect(
            fixes.output == """
                {"time":"2023-11-14T22:13:20.000Z","lat":54.1,"lon":10.2,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}
                {"time":"2023-11-14T22:13:21.000Z","lat":54.1001,"lon":10.2002,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}
                {"time":"2023-11-14T22:13:22.000Z","lat":54.1002,"lon":10.2004,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}

                """)
        let inPieces = try ChildProcess.run(
            [BuiltExecutables.nmea, "parse", "--fixes", "--own-ship", "--jobs", "2", path],
            environment: ["NMEA_PIECE_BYTES": "40"])
        #expect(inPieces.output == fixes.output)
        // Without the option the same log has no fix.
        #expect(try Tool.run(["parse", "--fixes", path]).output == "")
    }

    @Test("convert --ais: a track per vessel in GPX (schema-valid), GeoJSON and CSV, named by vessel")
    func convertPerVessel() throws {
        let directory = TemporaryDirectory("convert-ais").path
        let outcome = try Tool.run([
            "convert", "--ais", Self.sample, "-o", directory + "/v.gpx", "-o", directory + "/v.geojson", "-o",
            directory + "/v.csv", "--columns", "lat,lon,speed,course",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.error.hasPrefix("nmea convert: 2 vessels, 12 positions\n"))
        let csv = try String(contentsOfFile: directory + "/v.csv", encoding: .utf8)
        #expect(
            csv
                == [
                    "mmsi,name,lat,lon,speed,course",
                    "211200002,SEEADLER,53.545,9.97,2.727,180", "211200002,SEEADLER,53.544,9.97,2.727,180",
                    "211200002,SEEADLER,53.543,9.97,2.727,180", "211200002,SEEADLER,53.542,9.97,2.727,180",
                    "211200002,SEEADLER,53.541,9.97,2.727,180", "211200002,SEEADLER,53.54,9.97,2.727,180",
                    "244100001,NORDERLICHT,53.54,9.95,6.379,61.2", "244100001,NORDERLICHT,53.542,9.954,6.379,61.2",
                    "244100001,NORDERLICHT,53.544,9.958,6.379,61.2", "244100001,NORDERLICHT,53.546,9.962,6.379,61.2",
                    "244100001,NORDERLICHT,53.548,9.966,6.379,61.2", "244100001,NORDERLICHT,53.55,9.97,6.379,61.2", "",
                ].joined(separator: "\r\n"))
        let gpx = try String(contentsOfFile: directory + "/v.gpx", encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trk>").count == 3)
        #expect(gpx.contains("<name>SEEADLER</name>\n    <desc>mmsi 211200002</desc>"))
        #expect(gpx.contains("<name>NORDERLICHT</name>\n    <desc>mmsi 244100001</desc>"))
        let schemas = try #require(Locations.schemas)
        let xmllint = try #require(Tools.which("xmllint"))
        let check = try ToolSupport.run(
            xmllint, ["--noout", "--schema", schemas + "/gpx-1.1.xsd", directory + "/v.gpx"])
        #expect(check.status == 0, "\(check.error)")
        let geojson = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: directory + "/v.geojson")))
        let features = try #require((geojson as? [String: Any])?["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.compactMap { $0["mmsi"] as? Int } == [211_200_002, 244_100_001])
        #expect(properties.compactMap { $0["name"] as? String } == ["SEEADLER", "NORDERLICHT"])
        // {mmsi} in a name: a file per vessel, each as the whole file's rows of that vessel.
        let perVessel = try Tool.run(["convert", "--ais", Self.sample, "-o", directory + "/{mmsi}.csv"])
        #expect(perVessel.status == 0)
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        for mmsi in ["211200002", "244100001"] {
            let file = try String(contentsOfFile: directory + "/\(mmsi).csv", encoding: .utf8)
            let rows = file.split(separator: "\r\n").dropFirst()
            #expect(rows.count == 6)
            #expect(rows.allSatisfy { $0.hasPrefix(mmsi + ",") })
            #expect(lines.contains { $0.hasPrefix(mmsi) })
        }
        let split = try Tool.run(["convert", "--ais", Self.sample, "-o", directory + "/d.gpx", "--split", "day"])
        #expect(split.status == 64)
        let kml = try Tool.run(["convert", "--ais", Self.sample, "-o", directory + "/v.kml"])
        #expect(kml.status == 64)
        #expect(kml.error.contains("'--ais' writes GPX, GeoJSON or CSV"))
    }

    @Test("convert --ais keeps each point's receive time; a report without one is a point without a time")
    func convertWithTimes() throws {
        let directory = TemporaryDirectory("convert-ais-times").path
        let path = directory + "/transponder.nmea"
        try Self.ownShipLog.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try Tool.run([
            "convert", "--ais", path, "-o", "-", "--format", "csv", "--columns", "time,lat,lon",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.output
                == [
                    "mmsi,name,time,lat,lon",
                    "211000001,,2023-11-14T22:13:20.000Z,54.1,10.2",
                    "211000001,,2023-11-14T22:13:21.000Z,54.1001,10.2002",
                    "211000001,,,54.2,10.3", "211000001,,2023-11-14T22:13:22.000Z,54.1002,10.2004",
                    "244000002,,2023-11-14T22:13:20.500Z,53,4", "",
                ].joined(separator: "\r\n"))
    }

    /// The tracks' sorted runs go beside the output; on a full disk the command fails with the disk's error, leaves
    /// nothing there, and stops reading the file where the run failed (it went on decoding to the end before).
    @Test(
        "convert --ais on a full disk: fails saying so, writes nothing, stops reading",
        .enabled(if: TinyDisk.canMount, "cannot mount a tmpfs here (no privilege): a full disk is not tested"))
    func convertOnAFullDisk() throws {
        let directory = TemporaryDirectory("convert-ais-full").path
        let input = directory + "/traffic.nmea"
        let made = try Tool.run(["simulate", "--ais", "20000", "-o", input])
        #expect(made.status == 0, "\(made.error)")
        // Pieces of 4 KiB on two cores, each counted; runs of 100 points (5.6 KB), so that 64 KiB fill early.
        let environment = ["NMEA_PIECE_BYTES": "4096", "NMEA_PIECE_REPORT": "1", "NMEA_SORT_POINTS": "100"]
        func convert(into folder: String) throws -> (outcome: ChildProcess.Outcome, pieces: Int) {
            let outcome = try ChildProcess.run(
                [BuiltExecutables.nmea, "convert", "--ais", input, "-o", folder + "/vessels.geojson", "--jobs", "2"],
                environment: environment)
            return (outcome, pieceReport(outcome.error)?.pieces ?? 0)
        }
        let whole = try convert(into: directory)
        #expect(whole.outcome.status == 0, "\(whole.outcome.error)")
        #expect(whole.outcome.error.contains("nmea convert: 160 vessels, 16000 positions\n"), "\(whole.outcome.error)")
        let disk = try #require(TinyDisk.mount())
        defer { TinyDisk.unmount(disk) }
        let full = try convert(into: disk)
        #expect(full.outcome.status == 1)
        #expect(full.outcome.error.contains("No space left on device"), "\(full.outcome.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == [])
        #expect(full.pieces > 0 && full.pieces < whole.pieces / 2, "\(full.pieces) of \(whole.pieces) pieces read")
    }
}
