import Foundation
import TestSupport
import Testing

/// `nmea convert` and `nmea parse --fixes`, run as a user would: the built binary, exit codes, stdout and stderr.
@Suite struct ConvertCommandTests {
    /// Two epochs (RMC + GGA each) of a receiver on 2026-11-30, with hundredths of a second.
    static let smallLog = """
        $GPRMC,080000.25,A,4807.0381,N,01131.0002,E,012.5,045.0,301126,,,A*50\r
        $GPGGA,080000.25,4807.0381,N,01131.0002,E,1,09,0.8,520.3,M,47.3,M,,*67\r
        $GPRMC,080001.25,A,4807.0391,N,01131.0012,E,012.5,045.0,301126,,,A*51\r
        $GPGGA,080001.25,4807.0391,N,01131.0012,E,1,09,0.8,520.4,M,47.3,M,,*61\r

        """

    typealias Outcome = Tool.Outcome

    static func run(_ arguments: [String], input: String? = nil) throws -> Outcome {
        try Tool.run(arguments, input: input)
    }

    static func temporaryDirectory(_ name: String = #function) -> URL { Tool.temporaryDirectory(name) }

    static func writeLog(_ text: String = smallLog, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("log.nmea").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let usage =
        "Usage: nmea convert [<files> ...] -o <file> ... [--format <format>] [--columns <list>] [--date <YYYY-MM-DD>] "
        + "[--split-gap <seconds>] [--points] [--fsync] [--split <rule>] [-j <n>] [--ais] [--min-distance <meters>] "
        + "[--min-stop <seconds>] [--max-gap <seconds>] " + CleaningUsage.text
        + "[--allow-missing-checksum] [--max-length <n>] [--own-ship] [-v]\n"
        + "  See 'nmea convert --help' for more information.\n"

    @Test func convertsToSeveralOutputsInOnePass() throws {
        let directory = Self.temporaryDirectory()
        let log = try Self.writeLog(in: directory)
        let gpx = directory.appendingPathComponent("track.gpx").path
        let geojson = directory.appendingPathComponent("track.geojson").path
        let json = directory.appendingPathComponent("track.JSON").path
        let outcome = try Self.run(["convert", log, "-o", gpx, "-o", geojson, "-o", json])
        #expect(outcome.status == 0)
        #expect(outcome.output == "")
        #expect(outcome.error == "")
        let gpxText = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(
            gpxText.contains(
                """
                <trkpt lat="48.117301667" lon="11.51667"><ele>520.3</ele><time>2026-11-30T08:00:00.25Z</time>
                """))
        #expect(gpxText.contains("<geoidheight>47.3</geoidheight><fix>3d</fix><sat>9</sat><hdop>0.8</hdop>"))
        // 12.5 knots is 6.430555… m/s: written to the millimetre per second (Fix.speedDecimals), not to the float's
        // 16 digits.
        #expect(gpxText.contains("<gpxtpx:speed>6.431</gpxtpx:speed><gpxtpx:course>45</gpxtpx:course>"))
        #expect(gpxText.contains("<time>2026-11-30T08:00:01.25Z</time>"))
        #expect(gpxText.hasSuffix("</trkpt>\n    </trkseg>\n  </trk>\n</gpx>\n"))
        let geojsonText = try String(contentsOfFile: geojson, encoding: .utf8)
        #expect(
            geojsonText.contains(
                """
                "coordinates":[[11.51667,48.117301667,520.3],[11.516686667,48.117318333,520.4]]},\
                "properties":{"coordTimes":["2026-11-30T08:00:00.25Z","2026-11-30T08:00:01.25Z"]}}
                """))
        #expect(try String(contentsOfFile: json, encoding: .utf8) == geojsonText)
    }

    @Test func writesToStandardOutputWithFormat() throws {
        let outcome = try Self.run(["convert", "-", "-o", "-", "--format", "gpx"], input: Self.smallLog)
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        #expect(outcome.output.components(separatedBy: "<trkpt ").count == 3)
        #expect(outcome.output.hasSuffix("</gpx>\n"))
        let geojson = try Self.run(["convert", "-o", "-", "--format", "geojson", "--points"], input: Self.smallLog)
        #expect(geojson.status == 0)
        #expect(geojson.output.components(separatedBy: "\"type\":\"Point\"").count == 3)
        #expect(geojson.output.hasSuffix("\n]}\n"))
    }

    @Test func standardOutputWithoutFormatIsAUsageError() throws {
        let outcome = try Self.run(["convert", "-o", "-"], input: Self.smallLog)
        #expect(outcome.status == 64)
        #expect(outcome.output == "")
        #expect(
            outcome.error == "Error: Writing to standard output ('-o -') needs '--format' (gpx, gpx10, geojson, "
                + "kml or csv)\n" + Self.usage)
    }

    @Test func unknownExtensionIsAUsageError() throws {
        let outcome = try Self.run(["convert", "-o", "track.txt"], input: Self.smallLog)
        #expect(outcome.status == 64)
        #expect(
            outcome.error == "Error: Cannot tell the format of 'track.txt': name it .gpx, .geojson, .json, .kml "
                + "or .csv, or give '--format'\n" + Self.usage)
        #expect(!FileManager.default.fileExists(atPath: "track.txt"))
    }

    @Test func conflictingFormatIsAUsageError() throws {
        let outcome = try Self.run(["convert", "-o", "a.gpx", "--format", "geojson"], input: Self.smallLog)
        #expect(outcome.status == 64)
        #expect(
            outcome.error.hasPrefix(
                "Error: The output 'a.gpx' is named as gpx but '--format geojson' was given\n"))
    }

    @Test func missingOutputIsAUsageError() throws {
        let outcome = try Self.run(["convert", "log.nmea"])
        #expect(outcome.status == 64)
        #expect(outcome.error == "Error: Missing expected argument '-o <file>'\n" + Self.usage)
    }

    @Test func badDateAndGapAreUsageErrors() throws {
        let date = try Self.run(["convert", "-o", "a.gpx", "--date", "2026-02-30"])
        #expect(date.status == 64)
        #expect(
            date.error.hasPrefix(
                "Error: The value '2026-02-30' is invalid for '--date <YYYY-MM-DD>': expected YYYY-MM-DD\n"))
        let gap = try Self.run(["convert", "-o", "a.gpx", "--split-gap=-1"])
        #expect(gap.status == 64)
        #expect(
            gap.error.hasPrefix(
                "Error: The value '-1' is out of range for '--split-gap <seconds>': expected 0 to 1000000000\n"))
        // Given apart, a negative number is still the option's value (issue 12, item 15), not "Missing value".
        let length = try Self.run(["convert", "-o", "a.gpx", "--max-length", "-5"])
        #expect(length.status == 64)
        #expect(
            length.error.hasPrefix(
                "Error: The value '-5' is out of range for '--max-length <n>': expected 16 to 1048576\nUsage: "))
        let fraction = try Self.run(["convert", "-o", "a.gpx", "--split-gap", "-.5"])
        #expect(fraction.error.hasPrefix("Error: The value '-.5' is out of range for '--split-gap <seconds>'"))
        // An option after an option that takes a value is not taken as the value.
        let missing = try Self.run(["convert", "-o", "--points"])
        #expect(missing.error.hasPrefix("Error: Missing value for '-o <file>'\n"))
    }

    @Test func unreadableInputExitsOne() throws {
        let directory = Self.temporaryDirectory()
        let gpx = directory.appendingPathComponent("out.gpx").path
        let outcome = try Self.run(["convert", "/nonexistent/log.nmea", "-o", gpx])
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("Error: cannot open '/nonexistent/log.nmea': No such file or directory\n"))
        // Nothing is written when an input fails (issue 12, item 1): no output, and no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func uncreatableOutputExitsOne() throws {
        // A missing directory is created (issue 25, item 12: one rule with 'collect -o'); a path through a file
        // cannot be.
        let directory = Self.temporaryDirectory()
        let log = try Self.writeLog(in: directory)
        let outcome = try Self.run(["convert", log, "-o", log + "/out.gpx"])
        #expect(outcome.status == 1)
        #expect(outcome.error == "Error: cannot create '\(log)/out.gpx': Not a directory\n")
    }

    @Test func missingOutputDirectoriesAreCreatedAndRemovedAgainOnFailure() throws {
        let directory = Self.temporaryDirectory()
        let log = try Self.writeLog(in: directory)
        let nested = directory.appendingPathComponent("days/2026/11").path
        let made = try Self.run(["convert", log, "-o", nested + "/%Y-%m-%d.gpx", "--split", "day"])
        #expect(made.status == 0)
        #expect(made.error == "")
        #expect(FileManager.default.fileExists(atPath: nested + "/2026-11-30.gpx"))
        // A failure (a missing input among the inputs is refused before; a broken one fails while reading):
        // the folders the run made are gone again, with its files.
        let other = directory.appendingPathComponent("other").path
        let broken = try Self.writeLog(
            "$GPRMC,080000.25,A,4807.0381,N,01131.0002,E,0,0,301126,,,A*50\r\n", in: directory)
        let gzip = directory.appendingPathComponent("broken.nmea.gz").path
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00]).write(to: URL(fileURLWithPath: gzip))
        let failed = try Self.run(["convert", broken, gzip, "-o", other + "/a/b.gpx"])
        #expect(failed.status == 1)
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    @Test func fullDeviceExitsOneWithAClearMessage() throws {
        let outcome = try Self.run(["convert", "-o", "/dev/full", "--format", "gpx"], input: Self.smallLog)
        #expect(outcome.status == 1)
        #expect(outcome.error == "Error: cannot write '/dev/full': No space left on device; the output is incomplete\n")
    }

    @Test func badLinesAreSummarisedNotFatal() throws {
        let directory = Self.temporaryDirectory()
        let log = try Self.writeLog(
            "garbage line\n" + Self.smallLog + "$GPGGA,080002,4807,N,01131,E,1,09*00\n",
            in: directory)
        let gpx = directory.appendingPathComponent("out.gpx").path
        let outcome = try Self.run(["convert", log, "-o", gpx])
        #expect(outcome.status == 0)
        #expect(outcome.error.contains("nmea convert: "))
        #expect(outcome.error.contains("rejected"))
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkpt ").count == 3)
    }

    @Test func noPositionWarns() throws {
        let outcome = try Self.run(
            ["convert", "-o", "-", "--format", "geojson"],
            input: "$GPGGA,123520,,,,,0,00,,,M,,M,,*61\r\n")
        #expect(outcome.status == 0)
        #expect(outcome.output == "{\"type\":\"FeatureCollection\",\"features\":[\n\n]}\n")
        #expect(outcome.error.contains("warning: no fix with a position in the input"))
    }

    @Test func helpListsTheOptions() throws {
        let help = try Self.run(["convert", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Convert NMEA to GPX, GeoJSON, KML or CSV tracks.\n"))
        #expect(help.output.contains("  --split-gap <seconds>   Start a new segment after a gap longer than this."))
        #expect(try Self.run(["help", "convert"]).output == help.output)
    }

    @Test func parseFixesPrintsOneObjectPerFix() throws {
        let outcome = try Self.run(["parse", "--fixes"], input: Self.smallLog)
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n")
        try #require(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["time"] as? String == "2026-11-30T08:00:00.25Z")
        #expect(first["lat"] as? Double == 48.117301667)
        #expect(first["lon"] as? Double == 11.51667)
        #expect(first["alt"] as? Double == 520.3)
        #expect(first["mode"] as? String == "3d")
        #expect(first["quality"] as? String == "gps")
        #expect(first["speed"] as? Double == 6.431)  // 12.5 knots, to the millimetre per second
        #expect(first["course"] as? Double == 45)
        #expect(first["hdop"] as? Double == 0.8)
        #expect(first["satellites_used"] as? Int == 9)
        #expect(first["vdop"] == nil)
        #expect(first["satellites_in_view"] == nil)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["time"] as? String == "2026-11-30T08:00:01.25Z")
    }
}

/// `nmea convert` of a log with a chartplotter's waypoints and route (WPL, RTE): GPX `<wpt>` and `<rte>` before the
/// track, GeoJSON features with a `"kind"`; formats and streams that cannot hold them say so.
@Suite struct ConvertNavigationTests {
    static let log =
        """
        $GPWPL,4807.038,N,01131.000,E,HOME*46\r
        $GPWPL,4821.303,N,01153.225,E,WORK*46\r
        $GPRTE,1,1,c,COMMUTE,HOME,WORK*71\r

        """ + ConvertCommandTests.smallLog

    @Test(
        .enabled(if: Locations.schemas != nil && Tools.which("xmllint") != nil, "xmllint or the GPX schema is missing"))
    func waypointsAndRoutesReachGPXAndGeoJSON() throws {
        let directory = Tool.temporaryDirectory()
        let log = try ConvertCommandTests.writeLog(Self.log, in: directory)
        let gpx = directory.appendingPathComponent("nav.gpx").path
        let geojson = directory.appendingPathComponent("nav.geojson").path
        let outcome = try Tool.run(["convert", log, "-o", gpx, "-o", geojson, "-v"])
        #expect(outcome.status == 0)
        #expect(
            outcome.error
                == "nmea convert: \(gpx): 2 points in 1 segment; 2 waypoints, 1 route\n"
                + "nmea convert: \(geojson): 2 points in 1 segment; 2 waypoints, 1 route\n")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(
            text.contains(
                """
                  <wpt lat="48.1173" lon="11.51666667"><name>HOME</name></wpt>
                  <wpt lat="48.35505" lon="11.88708333"><name>WORK</name></wpt>
                  <rte>
                    <name>COMMUTE</name>
                    <rtept lat="48.1173" lon="11.51666667"><name>HOME</name></rtept>
                    <rtept lat="48.35505" lon="11.88708333"><name>WORK</name></rtept>
                  </rte>
                  <trk>

                """))
        let schemas = try #require(Locations.schemas)
        let xmllint = try #require(Tools.which("xmllint"))
        let check = try ToolSupport.run(xmllint, ["--noout", "--schema", schemas + "/gpx-1.1.xsd", gpx])
        #expect(check.status == 0, "\(check.error)")
        let features = try String(contentsOfFile: geojson, encoding: .utf8)
        #expect(features.contains(#""properties":{"kind":"waypoint","name":"HOME"}"#))
        #expect(features.contains(#""properties":{"kind":"route","name":"COMMUTE","complete":true,"#))
    }

    @Test func whatCannotHoldThemSaysSo() throws {
        let directory = Tool.temporaryDirectory()
        let log = try ConvertCommandTests.writeLog(Self.log, in: directory)
        let csv = directory.appendingPathComponent("nav.csv").path
        let outcome = try Tool.run(["convert", log, "-o", csv])
        #expect(outcome.status == 0)
        #expect(outcome.error == "nmea convert: \(csv): 2 waypoints and 1 route left out (CSV holds track points)\n")
        let stream = try Tool.run(["convert", log, "-o", "-", "--format", "gpx"])
        #expect(stream.status == 0)
        #expect(!stream.output.contains("<wpt") && stream.output.contains("<trkpt"))
        #expect(
            stream.error
                == "nmea convert: <stdout>: 2 waypoints and 1 route left out (split files and streams hold the track only)\n"
        )
    }
}
