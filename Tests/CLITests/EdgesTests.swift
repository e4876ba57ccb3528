import Foundation
import TestSupport
import Testing

/// Issue 25: what a new user found at the edges of what the tool reads and writes, each as they ran it. No file
/// destroyed (one admission step, one publication rule), no position lost, foreign files read right or refused with
/// the reason.
@Suite struct EdgesTests {
    static let drive = ToolSupport.repository.appendingPathComponent("nmea-samples/drive.nmea").path
    static let commute = ToolSupport.repository.appendingPathComponent("nmea-samples/commute.nmea").path
    static let keep = "keep\n"

    /// `drive.nmea` converted to `name`, in `directory`.
    static func converted(_ name: String, in directory: TemporaryDirectory, _ more: [String] = []) throws -> String {
        let path = directory.file(name)
        let outcome = try Tool.run(["convert", drive, "-o", path] + more)
        #expect(outcome.status == 0, "\(outcome.error)")
        return path
    }

    static func count(_ needle: String, in path: String) -> Int {
        (readTextFile(path) ?? "").components(separatedBy: needle).count - 1
    }

    // MARK: Item 1: a directory among the inputs

    @Test func aDirectoryAmongTheInputsReplacesNothing() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.keep, to: "keep.gpx")
        try FileManager.default.createDirectory(atPath: directory.file("adir"), withIntermediateDirectories: false)
        for inputs in [[Self.drive, directory.file("adir")], [directory.file("adir"), Self.drive]] {
            let outcome = try Tool.run(["convert"] + inputs + ["-o", directory.file("keep.gpx")])
            #expect(outcome.status == 1)
            #expect(
                outcome.error
                    == "Error: '\(directory.file("adir"))' is a directory; give the log files in it "
                    + "('\(directory.file("adir"))/*')\n"
                    + "1 of 2 inputs cannot be read: nothing was read and no output was written\n")
            #expect(readTextFile(directory.file("keep.gpx")) == Self.keep)
        }
        // `logs/*` with a subfolder, and {name} batches: the same.
        let logs = directory.file("logs")
        try FileManager.default.createDirectory(atPath: logs + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.drive, toPath: logs + "/a.nmea")
        let batch = try Tool.run(["convert", logs + "/a.nmea", logs + "/sub", "-o", directory.file("{name}.gpx")])
        #expect(batch.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("a.gpx")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "adir", "keep.gpx", "logs",
            ])
    }

    // MARK: Item 2: an input that is not a log

    @Test func anInputThatIsNoLogReplacesNothing() throws {
        let directory = TemporaryDirectory()
        let important = try Self.converted("important.gpx", in: directory)
        let before = readFile(important)
        let readme = ToolSupport.repository.appendingPathComponent("README.md").path
        let outcome = try Tool.run(["convert", readme, "-o", important])
        #expect(outcome.status == 1)
        #expect(
            outcome.error.hasPrefix("Error: \(readme): not an NMEA log, nor a GPX, GeoJSON, KML or CSV track: all "))
        #expect(readFile(important) == before)
    }

    /// Every format we write, we read: our CSV and KML back to the same points and times.
    @Test func everyFormatWeWriteWeReadBack() throws {
        let directory = TemporaryDirectory()
        let original = try Self.converted("drive.gpx", in: directory)
        func pointsAndTimes(_ path: String) -> [String] {
            (readTextFile(path) ?? "").split(separator: "\n").filter { $0.contains("<trkpt") }.map { line in
                let position = line.prefix { $0 != ">" }
                let time = line.range(of: "<time>").map { line[$0.upperBound...].prefix(22) } ?? ""
                return String(position) + " " + time
            }
        }
        let expected = pointsAndTimes(original)
        #expect(expected.count == 600)
        for format in ["csv", "kml", "geojson"] {
            let file = try Self.converted("drive.\(format)", in: directory)
            let back = directory.file("back-\(format).gpx")
            let outcome = try Tool.run(["convert", file, "-o", back])
            #expect(outcome.status == 0, "\(format): \(outcome.error)")
            #expect(outcome.error == "", "\(format)")
            // KML keeps 7 decimals of degrees, CSV and GeoJSON all of them.
            if format == "kml" {
                #expect(pointsAndTimes(back).count == 600)
            } else {
                #expect(pointsAndTimes(back) == expected, "\(format)")
            }
        }
        // Trips from them agree with the log's (item 8 too: none of them has the receiver's speeds but GPX).
        // The highest speed is the receiver's where the file keeps speeds (GPX, CSV), else from the positions.
        func withoutMaximum(_ json: String) -> String {
            json.replacingOccurrences(of: #","max_speed_kmh":[0-9.]+"#, with: "", options: .regularExpression)
        }
        let fromLog = try Tool.run(["trips", "--json", "--no-places", Self.drive])
        #expect(fromLog.output.contains(#""distance_m":6922,"duration_s":599"#))
        for format in ["gpx", "csv", "kml", "geojson"] {
            let trips = try Tool.run(["trips", "--json", "--no-places", directory.file("drive.\(format)")])
            #expect(withoutMaximum(trips.output) == withoutMaximum(fromLog.output), "\(format)")
        }
    }

    // MARK: Item 4: write errors on standard output

    @Test(arguments: [["parse"], ["parse", "--fixes"], ["parse", "--raw-format", "tagged"], ["trips", "--json"]])
    func aFullStandardOutputIsAFailure(arguments: [String]) throws {
        let child = try ChildProcess(
            [BuiltExecutables.nmea] + arguments + [Self.commute], output: .file("/dev/full"))
        #expect(child.wait() == 1)
        #expect(
            child.error.contains("cannot write to standard output: No space left on device"),
            "\(arguments): \(child.error)")
    }

    /// Read in pieces (`--jobs 2`), `parse --fixes` writes its fixes on the thread that takes them, beside the
    /// assembling: a full standard output there fails the command as well, and the reading stops.
    @Test func aFullStandardOutputFailsFixesWrittenBesideTheAssembling() throws {
        let arguments = [BuiltExecutables.nmea, "parse", "--fixes", "--jobs", "2", Self.commute]
        let environment = ["NMEA_PIECE_BYTES": "4096", "NMEA_PIECE_REPORT": "1"]
        let whole = try ChildProcess.run(arguments, environment: environment)
        let all = try #require(pieceReport(whole.error)?.pieces, "\(whole.error)")
        let child = try ChildProcess(arguments, output: .file("/dev/full"), environment: environment)
        #expect(child.wait() == 1)
        #expect(child.error.contains("cannot write to standard output: No space left on device"), "\(child.error)")
        // Read in pieces, and stopped once the writing thread's write failed.
        let read = try #require(pieceReport(child.error)?.pieces, "read in pieces: \(child.error)")
        #expect(read < all / 2, "\(read) of \(all) pieces read: \(child.error)")
    }

    // MARK: Item 5: GPX times with an offset

    @Test func gpxTimesWithAnOffsetAreReadAsUTC() throws {
        let directory = TemporaryDirectory()
        let gpx = try Self.converted("drive.gpx", in: directory)
        let text = try #require(readTextFile(gpx))
        directory.write(text.replacingOccurrences(of: "Z</time>", with: "+02:00</time>"), to: "offset.gpx")
        let geojson = directory.file("offset.geojson")
        let outcome = try Tool.run(["convert", directory.file("offset.gpx"), "-o", geojson])
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        let converted = try #require(readTextFile(geojson))
        // 08:00:00 at +02:00 is 06:00:00 UTC.
        #expect(converted.contains(#""coordTimes":["2026-11-30T06:00:00.00Z","2026-11-30T06:00:01.00Z""#))
        #expect(converted.components(separatedBy: "T06:0").count - 1 == 600)
        // A point without a time is kept without one, as README says.
        directory.write(
            text.replacingOccurrences(of: "<time>2026-11-30T08:00:05.00Z</time>", with: ""), to: "untimed.gpx")
        let untimed = try Tool.run(["convert", directory.file("untimed.gpx"), "-o", "-", "--format", "csv"])
        #expect(untimed.output.contains("\r\n,48.1377975,11.5760955,520.2,"))
        #expect(untimed.output.components(separatedBy: "\r\n").count - 2 == 600)
    }

    // MARK: Items 6 and 7: GeoJSON with lines and points, togeojson's times

    @Test func everyGeoJSONFeatureIsReadInFileOrder() throws {
        let directory = TemporaryDirectory()
        let line =
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[11,48],[11.001,48.001]]},"#
            + #""properties":{"coordTimes":["2026-11-30T08:00:00Z","2026-11-30T08:00:01Z"]}}"#
        let point =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.002,48.002]},"#
            + #""properties":{"time":"2026-11-30T08:00:02Z"}}"#
        let togeojson =
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[12,49],[12.001,49.001]]},"#
            + #""properties":{"coordinateProperties":{"times":["2026-11-30T09:00:00Z","2026-11-30T09:00:01Z"]}}}"#
        let unpaired =
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[13,50],[13.001,50.001]]},"#
            + #""properties":{"coordTimes":["2026-11-30T10:00:00Z"]}}"#
        let polygon = #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#
        for (name, features) in [("lp", [line, point]), ("pl", [point, line])] {
            directory.write(
                #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}",
                to: name + ".geojson")
            let outcome = try Tool.run(["convert", directory.file(name + ".geojson"), "-o", "-", "--format", "csv"])
            #expect(outcome.status == 0)
            #expect(outcome.error == "")
            let rows = outcome.output.split(separator: "\r\n").dropFirst().map { $0.prefix(20) }
            #expect(rows.count == 3, "\(name)")
            #expect(Set(rows) == ["2026-11-30T08:00:00Z", "2026-11-30T08:00:01Z", "2026-11-30T08:00:02Z"])
        }
        directory.write(
            #"{"type":"FeatureCollection","features":["# + [togeojson, unpaired, polygon].joined(separator: ",") + "]}",
            to: "mixed.geojson")
        let mixed = try Tool.run(["convert", directory.file("mixed.geojson"), "-o", "-", "--format", "csv"])
        #expect(mixed.status == 0)
        #expect(mixed.output.contains("2026-11-30T09:00:01Z,49.001,12.001"))
        // The unpaired line is read without times, and both oddities are said, naming GeoJSON, in one line.
        #expect(mixed.output.contains("\r\n,50.001,13.001"))
        #expect(
            mixed.error
                == "nmea convert: \(directory.file("mixed.geojson")): 1 GeoJSON feature that holds no track, "
                + "waypoint or route (a polygon, say) passed over; 1 line whose times cannot be paired with its "
                + "positions (another count) read without times\n")
    }

    // MARK: Item 9: nothing invented

    @Test(
        .enabled(if: Locations.schemas != nil && Tools.which("xmllint") != nil, "xmllint or the GPX schema is missing"))
    func foreignTracksGainNoInventedValues() throws {
        let directory = TemporaryDirectory()
        directory.write(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="phone" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="48.2" lon="11.6"><name>Lunch</name></wpt>
              <rte><name>Home</name><rtept lat="48.3" lon="11.7"><name>A</name></rtept>
                <rtept lat="48.4" lon="11.8"><name>B</name></rtept></rte>
              <trk><trkseg>
                <trkpt lat="48.1" lon="11.5"><ele>520</ele><time>2026-11-30T08:00:00Z</time></trkpt>
                <trkpt lat="48.1001" lon="11.5001"><time>2026-11-30T08:00:01Z</time><fix>3d</fix></trkpt>
              </trkseg></trk>
            </gpx>
            """, to: "phone.gpx")
        let gpx = directory.file("out.gpx")
        let outcome = try Tool.run([
            "convert", directory.file("phone.gpx"), "-o", gpx, "-o", directory.file("out.geojson"),
        ])
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        let text = try #require(readTextFile(gpx))
        // Only the point that said its fix type has one.
        #expect(Self.count("<fix>", in: gpx) == 1)
        #expect(Self.count("<trkpt", in: gpx) == 2)
        // The waypoint and the route go through as such, before the track, as the schema wants.
        #expect(text.contains(#"<wpt lat="48.2" lon="11.6"><name>Lunch</name></wpt>"#))
        #expect(
            text.contains("<rte>\n    <name>Home</name>\n    <rtept lat=\"48.3\" lon=\"11.7\"><name>A</name></rtept>"))
        #expect(text.range(of: "<rte>")!.lowerBound < text.range(of: "<trk>")!.lowerBound)
        let geojson = try #require(readTextFile(directory.file("out.geojson")))
        #expect(geojson.contains(#""kind":"waypoint","name":"Lunch""#))
        #expect(geojson.contains(#""kind":"route","name":"Home""#))
        #expect(!geojson.contains(#""fix""#))
        let schemas = try #require(Locations.schemas)
        let xmllint = try #require(Tools.which("xmllint"))
        let check = try ToolSupport.run(xmllint, ["--noout", "--schema", schemas + "/gpx-1.1.xsd", gpx])
        #expect(check.status == 0, "\(check.error)")
    }

    // MARK: Item 10: one line per segment

    @Test func aBatchGeoJSONHasOneLinePerSegmentWithExactlyItsFixes() throws {
        let directory = TemporaryDirectory()
        let simulated = directory.file("long.nmea")
        #expect(try Tool.run(["simulate", "--duration", "4000", "--profile", "rmc-gga", "-o", simulated]).status == 0)
        let geojson = directory.file("long.geojson")
        #expect(try Tool.run(["convert", simulated, "-o", geojson]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: geojson))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        #expect((geometry["coordinates"] as? [Any])?.count == 4000)
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect((properties["coordTimes"] as? [Any])?.count == 4000)
        #expect(properties["continued"] == nil)
    }

    // MARK: Item 11: one output named twice

    @Test func oneOutputNamedTwoWaysIsRefusedBeforeAnythingIsWritten() throws {
        let directory = TemporaryDirectory()
        for (first, second) in [("z.gpx", "./z.gpx"), ("z.gpx", "sub/../z.gpx"), ("./z.gpx", directory.file("z.gpx"))] {
            let outcome = try ChildProcess.run(
                [BuiltExecutables.nmea, "convert", Self.drive, "-o", first, "-o", second], directory: directory.path)
            #expect(outcome.status == 64)
            #expect(outcome.error.hasPrefix("Error: The outputs '\(first)' and '\(second)' are the same file\n"))
            #expect(!FileManager.default.fileExists(atPath: directory.file("z.gpx")))
        }
    }

    // MARK: Item 12: messages that say what happened

    @Test func messagesSayWhatHappened() throws {
        let directory = TemporaryDirectory()
        // Cleaning that drops every fix says so, not "no fix with a position".
        let cleaned = try Tool.run(["convert", Self.drive, "-o", directory.file("c.gpx"), "--max-hdop", "0.1"])
        #expect(cleaned.status == 0)
        #expect(
            cleaned.error.hasSuffix(
                "nmea convert: warning: cleaning dropped every fix (see above); the track is empty\n"))
        // GGA-only split by day: the fixes without a date are said to be left out, not "written without a time".
        let ggaOnly = ToolSupport.repository.appendingPathComponent("nmea-samples/gga-only.nmea").path
        let split = try Tool.run(["convert", ggaOnly, "-o", directory.file("%Y-%m-%d.gpx"), "--split", "day"])
        #expect(split.error.contains("had no date, so no day to be written to, and were left out; --date"))
        // --columns without a CSV output is said.
        let columns = try Tool.run(["convert", Self.drive, "-o", directory.file("x.gpx"), "--columns", "lat,lon"])
        #expect(columns.status == 64)
        #expect(columns.error.hasPrefix("Error: '--columns' chooses a CSV output's columns, and no output is CSV"))
        // Into a missing directory: made, as `collect -o` makes its.
        let deep = try Tool.run(["convert", Self.drive, "-o", directory.file("days/%Y-%m-%d.gpx"), "--split", "day"])
        #expect(deep.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.file("days/2026-11-30.gpx")))
        // "1 trip", never "1 trips"; bench's one pass.
        let bench = try Tool.run(["bench", "--iterations", "1", "--sentences", "1000"])
        #expect(bench.output.contains("one pass\n"))
        // Every figure row (sentences, AIS and UBX messages alike) has its "M" in the same column.
        let rows = bench.output.split(separator: "\n").filter { $0.contains("/s") }
        #expect(rows.count == 7)
        #expect(Set(rows.map { $0.prefix { $0 != "M" }.count }).count == 1, "\(rows)")
    }

    @Test func aTruncatedCompressedFileSaysWhatItHolds() throws {
        let directory = TemporaryDirectory()
        let gzip = directory.file("cut.nmea.gz")
        let cut = try ChildProcess.run(["sh", "-c", "gzip -c '\(Self.drive)' | head -c 20000 > '\(gzip)'"])
        #expect(cut.status == 0)
        let output = directory.file("out.gpx")
        directory.write(Self.keep, to: "out.gpx")
        // As a file: the input's failure, the output as it was, and the fixes it holds said with how to keep them.
        let file = try Tool.run(["convert", gzip, "-o", output])
        #expect(file.status == 1)
        #expect(file.error.contains("Error: cannot read '\(gzip)': "))
        #expect(file.error.contains(" fixes; to keep what it holds, decompress it first: gzip -dc or zstd -dc"))
        #expect(readTextFile(output) == Self.keep)
        // From a pipe, by the same rule: a live output is in place from its first point, kept as written so far.
        let piped = try ChildProcess.run([
            "sh", "-c", "cat '\(gzip)' | '\(BuiltExecutables.nmea)' convert - -o '\(output)'",
        ])
        #expect(piped.status == 1)
        #expect(piped.error.contains("nmea convert: \(output): kept as written so far (an input could not be read)"))
        #expect(Self.count("<trkpt", in: output) > 100)
    }
}
