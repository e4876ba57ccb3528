import Foundation
import Testing

/// The usage text of the cleaning options, in every command that takes them.
enum CleaningUsage {
    static let text =
        "[--max-hdop <x>] [--max-hacc <meters>] [--min-satellites <n>] [--fix <mode>] [--since <time>] "
        + "[--until <time>] [--bbox <S,W,N,E>] [--drop-outliers] [--stationary <meters>] [--simplify <meters>] "
}

/// `nmea convert` to KML, CSV and GPX 1.0, and the cleaning options of `convert`, `trips` and `plot`, run as a user
/// would.
@Suite struct CleaningCommandTests {
    static let commute = ToolSupport.repository.appendingPathComponent("nmea-samples/commute.nmea").path

    @Test func theExtensionNamesTheFormat() throws {
        let directory = Tool.temporaryDirectory(#function)
        let kml = directory.appendingPathComponent("day.kml").path
        let csv = directory.appendingPathComponent("day.csv").path
        let run = try Tool.run(["convert", Self.commute, "-o", kml, "-o", csv])
        #expect(run.status == 0, "\(run.error)")
        let kmlText = try String(contentsOfFile: kml, encoding: .utf8)
        // The commute (home, a drive, eight hours at work, the drive back) never loses its fix: one segment.
        #expect(kmlText.components(separatedBy: "<gx:Track>").count - 1 == 1)
        #expect(kmlText.components(separatedBy: "<when>").count - 1 == 3780 + 3)
        #expect(kmlText.contains("<name>Start: Munich, Bavaria, DE</name>"))
        #expect(kmlText.contains("<name>Stop: Eitting, Bavaria, DE</name>\n      <description>Stopped for 7:59:50"))
        #expect(kmlText.contains("<name>End: Munich, Bavaria, DE</name>"))
        let rows = try String(contentsOfFile: csv, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(rows.first == "time,lat,lon,ele,speed,course,hdop,sats")
        #expect(rows[1] == "2026-11-30T08:00:00.00Z,48.1374023333,11.5755131667,520,0.251,211.17,0.5,24")
        #expect(rows.count == 3780 + 2)  // header, rows, and the empty string after the last CRLF
    }

    @Test func gpx10AndChosenColumnsOnStandardOutput() throws {
        let gpx = try Tool.run(["convert", Self.commute, "-o", "-", "--format", "gpx10"])
        #expect(gpx.status == 0)
        #expect(gpx.output.contains("<gpx version=\"1.0\" creator=\"swift-nmea\""))
        #expect(
            gpx.output.contains(
                "<time>2026-11-30T08:00:00.00Z</time><course>211.17</course><speed>0.251</speed>"))
        let csv = try Tool.run(["convert", Self.commute, "-o", "-", "--format", "csv", "--columns", "lat,lon,segment"])
        #expect(csv.output.hasPrefix("lat,lon,segment\r\n48.1374023333,11.5755131667,1\r\n"))
    }

    @Test func cleaningIsSummarisedOnStandardError() throws {
        let outcome = try Tool.run([
            "convert", Self.commute, "-o", "-", "--format", "csv", "--columns", "time", "--since",
            "2026-11-30T08:10:00Z", "--until", "2026-11-30T08:10:59Z", "--bbox", "48,11,48.3,11.7", "--simplify", "5",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.error
                == "nmea convert: dropped 3774 fixes (3774 outside --since/--until or without a time); "
                + "simplified 6 points to 2 (within 5 m)\n")
        #expect(outcome.output == "time\r\n2026-11-30T08:10:00.00Z\r\n2026-11-30T08:10:50.00Z\r\n")
    }

    @Test func tripsAndPlotTakeTheSameOptions() throws {
        let all = try Tool.run(["trips", "--json", "--no-places", Self.commute])
        let morning = try Tool.run(["trips", "--json", "--no-places", "--until", "2026-11-30T12:00:00Z", Self.commute])
        func trips(_ json: String) -> Int { json.components(separatedBy: "\"distance_m\":").count - 1 }
        // The morning's drive only: the same trip as the whole day's first, byte for byte.
        #expect(trips(all.output) == 2)
        #expect(trips(morning.output) == 1)
        let firstTrip = all.output.components(separatedBy: "},{\"start\"").first?.dropFirst("{\"trips\":[".count)
        #expect(morning.output.hasPrefix("{\"trips\":[" + (firstTrip ?? "") + "}],\"stops\":[]}"))
        #expect(morning.error == "nmea trips: dropped 2339 fixes (2339 outside --since/--until or without a time)\n")
        let directory = Tool.temporaryDirectory(#function)
        let svg = directory.appendingPathComponent("morning.svg").path
        // Any xsd:dateTime form (issue 25, item 5): no zone is UTC, an offset is converted.
        let plot = try Tool.run(["plot", Self.commute, "-o", svg, "--until", "2026-11-30T12:00:00"])
        #expect(plot.status == 0)
        let offset = try Tool.run(
            ["trips", "--json", "--no-places", "--until", "2026-11-30T14:00:00+02:00", Self.commute])
        #expect(offset.output == morning.output)
        let noon = try Tool.run(["plot", Self.commute, "-o", svg, "--until", "2026-11-30 noon"])
        #expect(noon.status == 64)
        #expect(
            noon.error.hasPrefix(
                "Error: The value '2026-11-30 noon' is invalid for '--until <time>': expected "
                    + "YYYY-MM-DDThh:mm:ss (Z, an offset such as +02:00, or none for UTC) or YYYY-MM-DD\n"))
    }

    @Test(arguments: [
        (
            ["--bbox", "48,11,47,12"],
            "Error: The value '48,11,47,12' is invalid for '--bbox <S,W,N,E>': expected "
                + "S,W,N,E in degrees, south ≤ north (e.g. 52.3,4.7,52.5,5.1)"
        ),
        (
            ["--since", "2026-12-01", "--until", "2026-11-30"],
            "Error: '--since' is after '--until': nothing would be kept"
        ),
        (
            ["--simplify", "0"],
            "Error: The value '0' is out of range for '--simplify <meters>': expected 0.01 to 100000"
        ),
        (["--fix", "4d"], "Error: The value '4d' is invalid for '--fix <mode>'"),
        (
            ["--columns", "time,foo", "-o", "x.csv"],
            "Error: The value 'time,foo' is invalid for '--columns <list>': 'foo' is not one of "
                + "time,lat,lon,ele,speed,course,hdop,vdop,pdop,sats,fix,segment"
        ),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) throws {
        let outcome = try Tool.run(["convert", Self.commute, "-o", "x.gpx"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.error.hasPrefix(message), "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: "x.gpx"))
    }

    // MARK: GPX in

    @Test func gpxConvertsBackByteForByteAndGivesTheSameTrips() throws {
        let directory = Tool.temporaryDirectory(#function)
        let first = directory.appendingPathComponent("first.gpx").path
        let second = directory.appendingPathComponent("second.gpx").path
        #expect(try Tool.run(["convert", Self.commute, "-o", first]).status == 0)
        let again = try Tool.run(["convert", first, "-o", second])
        #expect(again.status == 0)
        #expect(again.error == "")
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
        let fromNMEA = try Tool.run(["trips", "--json", "--no-places", Self.commute])
        let fromGPX = try Tool.run(["trips", "--json", "--no-places", first])
        #expect(fromGPX.output == fromNMEA.output)
        // GPX 1.0 in, GPX 1.1 out: the same file as from the NMEA.
        let old = directory.appendingPathComponent("old.gpx").path
        #expect(try Tool.run(["convert", Self.commute, "-o", old, "--format", "gpx10"]).status == 0)
        let third = directory.appendingPathComponent("third.gpx").path
        #expect(try Tool.run(["convert", old, "-o", third]).status == 0)
        #expect(FileManager.default.contents(atPath: third) == FileManager.default.contents(atPath: first))
    }

    @Test func aBrokenGPXIsAnErrorAndWritesNothing() throws {
        let directory = Tool.temporaryDirectory(#function)
        let broken = directory.appendingPathComponent("broken.gpx")
        try Data("<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</trkseg>".utf8).write(to: broken)
        let output = directory.appendingPathComponent("out.kml").path
        let outcome = try Tool.run(["convert", broken.path, "-o", output])
        #expect(outcome.status == 1)
        #expect(
            outcome.error
                == "Error: \(broken.path): line 4: </trkseg> where </trkpt> was expected (read as GPX)\n"
                + "nmea convert: \(output): not written; it holds what it held before (an input could not be read)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    // MARK: GeoJSON in

    /// Every `<trkpt …><ele>…</ele><time>…</time>` of a GPX text: what a line feature keeps.
    static func pointsAndTimes(_ gpx: String) -> [String] {
        gpx.components(separatedBy: "<trkpt ").dropFirst().map { String($0.prefix { $0 != "/" }) }
    }

    @Test func gpxToGeoJSONAndBackKeepsEveryPointAndTime() throws {
        let directory = Tool.temporaryDirectory(#function)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(try Tool.run(["convert", Self.commute, "-o", path("a.gpx")]).status == 0)
        #expect(try Tool.run(["convert", path("a.gpx"), "-o", path("b.geojson")]).status == 0)
        let back = try Tool.run(["convert", path("b.geojson"), "-o", path("c.gpx")])
        #expect(back.status == 0)
        #expect(back.error == "")
        let original = try String(contentsOfFile: path("a.gpx"), encoding: .utf8)
        let returned = try String(contentsOfFile: path("c.gpx"), encoding: .utf8)
        #expect(Self.pointsAndTimes(returned).count == 3780)
        #expect(Self.pointsAndTimes(returned) == Self.pointsAndTimes(original))
        // With --points, every point's properties travel too: the same GPX, byte for byte, and the same trips.
        #expect(try Tool.run(["convert", path("a.gpx"), "-o", path("p.geojson"), "--points"]).status == 0)
        #expect(try Tool.run(["convert", path("p.geojson"), "-o", path("d.gpx")]).status == 0)
        #expect(
            FileManager.default.contents(atPath: path("d.gpx")) == FileManager.default.contents(atPath: path("a.gpx")))
        let fromNMEA = try Tool.run(["trips", "--json", "--no-places", Self.commute])
        #expect(try Tool.run(["trips", "--json", "--no-places", path("p.geojson")]).output == fromNMEA.output)
    }

    @Test func aBrokenGeoJSONIsAnError() throws {
        let directory = Tool.temporaryDirectory(#function)
        let broken = directory.appendingPathComponent("broken.geojson")
        try Data("{\"type\":\"FeatureCollection\",\n\"features\":[\n{\"type\":\"Feature\",}]}".utf8).write(to: broken)
        let outcome = try Tool.run(["trips", broken.path])
        #expect(outcome.status == 1)
        #expect(
            outcome.error.hasPrefix(
                "Error: \(broken.path): line 3: a '}' after a ',' or a key (read as GeoJSON)\n"))
        #expect(outcome.output == "")
    }

    // MARK: Many files on every core

    @Test func jobsGiveTheSameFilesAndMessagesAsOne() throws {
        let directory = Tool.temporaryDirectory(#function)
        let input = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        var inputs: [String] = []
        for day in 1...6 {
            let path = input.appendingPathComponent("2026-03-0\(day).nmea").path
            let made = try Tool.run([
                "simulate", "--duration", "300", "--start", "2026-03-0\(day)T07:00:00Z", "--seed", "\(day)",
                "--faults", "40", "-o", path,
            ])
            #expect(made.status == 0)
            inputs.append(path)
        }
        var runs: [(files: [String: Data], errors: String)] = []
        for jobs in ["1", "2", "4"] {
            let output = directory.appendingPathComponent("out\(jobs)")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let outcome = try Tool.run(
                ["convert"] + inputs + [
                    "-o", output.path + "/{name}.gpx", "-o", output.path + "/{name}.csv", "--jobs", jobs,
                ])
            #expect(outcome.status == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
            #expect(names.count == 12)
            var files: [String: Data] = [:]
            for name in names { files[name] = FileManager.default.contents(atPath: output.path + "/" + name) }
            runs.append((files, outcome.error))
        }
        #expect(runs[1].files == runs[0].files)
        #expect(runs[2].files == runs[0].files)
        #expect(runs[1].errors == runs[0].errors)
        #expect(runs[2].errors == runs[0].errors)
        // One message per input, in input order, each naming its input.
        let lines = runs[0].errors.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.map { $0.hasPrefix("nmea convert: \(inputs[lines.firstIndex(of: $0)!]): ") }.allSatisfy { $0 })
    }

    @Test func nameOutputsNeedNamedInputs() throws {
        let mixed = try Tool.run(["convert", Self.commute, "-o", "{name}.gpx", "-o", "all.gpx"])
        #expect(mixed.status == 64)
        #expect(mixed.error.hasPrefix("Error: Either every output names its input with {name}, or none does\n"))
        let standardInput = try Tool.run(["convert", "-o", "{name}.gpx"], input: "")
        #expect(standardInput.status == 64)
        #expect(
            standardInput.error.hasPrefix(
                "Error: {name} outputs need input files to be named after (not '-' or a stream)\n"))
        let twice = try Tool.run(["convert", Self.commute, Self.commute, "-o", "/tmp/{name}.gpx"])
        #expect(twice.status == 64)
        #expect(
            twice.error.hasPrefix(
                "Error: '\(Self.commute)' and '\(Self.commute)' would both write '/tmp/commute.gpx': rename one, "
                    + "or convert apart\n"))
    }

    // MARK: Splitting

    @Test func splitByDayGivesEachDaysOwnTrack() throws {
        let directory = Tool.temporaryDirectory(#function)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        var all = ""
        for day in 1...3 {
            let made = try Tool.run([
                "simulate", "--duration", "240", "--start", "2026-03-0\(day)T23:58:00Z", "--seed", "\(day)",
                "-o", path("day\(day).nmea"),
            ])
            #expect(made.status == 0)
            all += try String(contentsOfFile: path("day\(day).nmea"), encoding: .utf8)
        }
        try Data(all.utf8).write(to: URL(fileURLWithPath: path("all.nmea")))
        let split = try Tool.run(["convert", path("all.nmea"), "-o", path("%Y-%m-%d.gpx"), "--split", "day"])
        #expect(split.status == 0)
        // Each simulated drive crosses midnight: four days, each file holding exactly that day's points.
        let days = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".gpx") }
        #expect(days.sorted() == ["2026-03-01.gpx", "2026-03-02.gpx", "2026-03-03.gpx", "2026-03-04.gpx"])
        for day in days {
            let text = try String(contentsOfFile: path(day), encoding: .utf8)
            let times = text.components(separatedBy: "<time>").dropFirst().map { String($0.prefix(10)) }
            #expect(!times.isEmpty && times.allSatisfy { $0 == String(day.prefix(10)) }, "\(day)")
        }
        let total = try days.map { try String(contentsOfFile: path($0), encoding: .utf8) }
            .map { $0.components(separatedBy: "<trkpt ").count - 1 }.reduce(0, +)
        #expect(total == 3 * 240)
    }

    @Test func splitByGapNumbersTheParts() throws {
        let directory = Tool.temporaryDirectory(#function)
        let pattern = directory.appendingPathComponent("part-%n.gpx").path
        let outcome = try Tool.run([
            "convert", Self.commute, "-o", pattern, "--split", "gap:600", "--stationary", "10",
        ])
        #expect(outcome.status == 0)
        // The parked hours collapse to their first points, which leaves gaps: home, the drive there, the drive back.
        let counts = try (1...3).map { number in
            try String(contentsOfFile: pattern.replacingOccurrences(of: "%n", with: "\(number)"), encoding: .utf8)
                .components(separatedBy: "<trkpt ").count - 1
        }
        #expect(counts == [1, 180, 180])
        #expect(!FileManager.default.fileExists(atPath: pattern.replacingOccurrences(of: "%n", with: "4")))
        let bad = try Tool.run(["convert", Self.commute, "-o", pattern, "--split", "week"])
        #expect(bad.status == 64)
        #expect(
            bad.error.hasPrefix(
                "Error: The value 'week' is invalid for '--split <rule>': expected day, trip or gap:SECONDS "
                    + "(e.g. gap:600)\n"))
    }

    @Test func splitByTripWritesEachTripAsNmeaTripsFindsIt() throws {
        let directory = Tool.temporaryDirectory(#function)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let outcome = try Tool.run(["convert", Self.commute, "-o", path("%Y-%m-%d-trip-%n.gpx"), "--split", "trip"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(
            outcome.error
                == "nmea convert: 2 trips, a file each (\(path("2026-11-30-trip-1.gpx")) … "
                + "\(path("2026-11-30-trip-2.gpx"))); 3416 fixes at rest, outside the trips, left out\n")
        // Each file is its trip as `nmea trips` reports it: the same cut as --since/--until at the trip's ends, byte
        // for byte (the commute's fixes are 10 s apart: 182 points from 08:59:50 to 09:30:00).
        let trips = try Tool.run(["trips", "--json", "--no-places", Self.commute]).output
        let times = trips.components(separatedBy: "\"time\":\"").dropFirst().map { String($0.prefix(20)) }
        #expect(
            Array(times.prefix(4)) == [
                "2026-11-30T08:59:50Z", "2026-11-30T09:30:00Z", "2026-11-30T17:29:50Z", "2026-11-30T18:00:00Z",
            ])
        for number in 1...2 {
            let cut = path("cut-\(number).gpx")
            let window = try Tool.run([
                "convert", Self.commute, "-o", cut, "--since", times[2 * number - 2], "--until", times[2 * number - 1],
            ])
            #expect(window.status == 0)
            let trip = try Data(contentsOf: URL(fileURLWithPath: path("2026-11-30-trip-\(number).gpx")))
            #expect(trip == (try Data(contentsOf: URL(fileURLWithPath: cut))), "trip \(number)")
            #expect(String(decoding: trip, as: UTF8.self).components(separatedBy: "<trkpt ").count - 1 == 182)
        }
        #expect(!FileManager.default.fileExists(atPath: path("2026-11-30-trip-3.gpx")))

        // An epoch from before the trip, sent in its middle (a receiver's clock stepping back), is outside it: the
        // trip's file goes on, whole, rather than starting again after it.
        var lines = try String(contentsOfFile: Self.commute, encoding: .utf8).components(separatedBy: "\r\n")
        let early = lines.firstIndex { $0.hasPrefix("$GPRMC,083000.00") }!
        let during = lines.firstIndex { $0.hasPrefix("$GPGGA,090910.00") }!
        lines.insert(contentsOf: lines[early...(early + 1)], at: during + 1)
        try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: path("late.nmea")))
        let late = try Tool.run(["convert", path("late.nmea"), "-o", path("late-%n.gpx"), "--split", "trip"])
        #expect(late.error.hasSuffix("3417 fixes at rest, outside the trips, left out\n"), "\(late.error)")
        #expect(
            try String(contentsOfFile: path("late-1.gpx"), encoding: .utf8)
                == String(
                    contentsOfFile: path("2026-11-30-trip-1.gpx"), encoding: .utf8))

        // The rule's options are those of `nmea trips`: a stop must last 9 hours, so the day is one trip.
        let long = try Tool.run([
            "convert", Self.commute, "-o", path("day-%n.gpx"), "--split", "trip", "--min-stop", "32400",
        ])
        #expect(long.status == 0)
        #expect(long.error.hasPrefix("nmea convert: 1 trip, to \(path("day-1.gpx")); "))

        // No trip: nothing written, and said so.
        let parked = try Tool.run([
            "convert", Self.commute, "-o", path("parked-%n.gpx"), "--split", "trip", "--until",
            "2026-11-30T08:30:00Z",
        ])
        #expect(parked.status == 0)
        #expect(
            parked.error.contains(
                "nmea convert: warning: no trip in the input (by the trip rule: --min-distance, --min-stop, "
                    + "--max-gap), so no file was written; 181 fixes at rest, outside the trips, left out\n"))
        #expect(!FileManager.default.fileExists(atPath: path("parked-1.gpx")))

        // A stream can be read once only.
        let piped = try Tool.run(
            ["convert", "-", "-o", path("piped-%n.gpx"), "--split", "trip"],
            input: try String(contentsOfFile: Self.commute, encoding: .utf8))
        #expect(piped.status == 64)
        #expect(
            piped.error.hasPrefix(
                "Error: '--split trip' reads its input twice (to find the trips, then to write them), and '-' can be "
                    + "read only once: save it to a file first, or use '--split gap:SECONDS'\n"))
    }
}
