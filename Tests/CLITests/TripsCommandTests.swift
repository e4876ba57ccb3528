import Foundation
import NMEA
import Simulation
import TestSupport
import Testing

/// `nmea trips` run as a user would: the built binary, its exact output, messages and exit codes; the place file
/// found beside an installed program; the cache in XDG_CACHE_HOME.
@Suite struct TripsCommandTests {
    static let tool = Tool.path
    static let packageRoot = URL(fileURLWithPath: Locations.packageRoot, isDirectory: true)

    /// Runs `executable` (the built `nmea` by default) with `environment` added to this process's, and without an
    /// `NMEA_PLACES` the caller may have set.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        executable: String = tool
    ) throws -> Tool.Outcome {
        let outcome = try ToolSupport.run(
            executable, arguments, input: input.map { Data($0.utf8) },
            environment: environment, unset: ["NMEA_PLACES"])
        return Tool.Outcome(status: outcome.status, output: outcome.text, error: outcome.error)
    }

    /// A commute from Khimki: parked 10 minutes, 3 km north-east in 5 minutes, parked 20, 3 km back, parked 10.
    static func khimkiDay(profile: EpochWriter.Profile) -> String {
        let scenario = Scenario(
            latitude: 55.9001, longitude: 37.42848, start: DateTime(2026, 6, 15, 23, 40, 0),
            courseDegrees: 45,
            legs: [
                .park(seconds: 600, jitterMeters: 5), .drive(seconds: 300, speedKmh: 36),
                .park(seconds: 1200, jitterMeters: 5), .course(degrees: 225),
                .drive(seconds: 300, speedKmh: 36), .park(seconds: 600, jitterMeters: 5),
            ])
        let writer = EpochWriter(profile: profile)
        var builder = SentenceBuilder()
        for fix in scenario.fixes() { writer.write(fix, into: &builder) }
        return String(decoding: builder.bytes, as: UTF8.self)
    }

    static let placeCache = "places-geonames-a5ba49d8.tsv"

    static let khimkiJSON = """
        {"trips":[{"start":{"time":"2026-06-15T23:49:59Z","lat":55.900096,"lon":37.428513,\
        "place":"Khimki, Moscow Oblast, RU"},"end":{"time":"2026-06-15T23:55:00Z","lat":55.919192,"lon":37.462511,\
        "place":"3 km NE of Khimki, Moscow Oblast, RU"},"distance_m":3003,"duration_s":301,"avg_speed_kmh":35.9,\
        "max_speed_kmh":36.0},{"start":{"time":"2026-06-16T00:14:59Z","lat":55.919195,"lon":37.462525,\
        "place":"3 km NE of Khimki, Moscow Oblast, RU"},"end":{"time":"2026-06-16T00:20:00Z","lat":55.900087,\
        "lon":37.428452,"place":"Khimki, Moscow Oblast, RU"},"distance_m":3004,"duration_s":301,\
        "avg_speed_kmh":35.9,"max_speed_kmh":36.0}],"stops":[{"start":"2026-06-15T23:55:00Z",\
        "end":"2026-06-16T00:14:59Z","duration_s":1199,"lat":55.919178,"lon":37.462514,\
        "place":"3 km NE of Khimki, Moscow Oblast, RU"}]}

        """

    @Test func jsonForADayOfDrivingAcrossMidnight() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("khimki.nmea").path
        try Data(Self.khimkiDay(profile: .rmcGGA).utf8).write(to: URL(fileURLWithPath: log))
        let cacheHome = directory.appendingPathComponent("cache").path
        let environment = ["XDG_CACHE_HOME": cacheHome]
        let first = try Self.run(["trips", "--json", log], environment: environment)
        #expect(first.status == 0)
        #expect(first.output == Self.khimkiJSON)
        let cacheFile = cacheHome + "/nmea/" + Self.placeCache
        #expect(first.error == "nmea trips: warning: no place cache at \(cacheFile) yet; creating it\n")
        #expect(FileManager.default.fileExists(atPath: cacheFile))
        // The second run: from the cache, silently, the same answer.
        let second = try Self.run(["trips", "--json", log], environment: environment)
        #expect(second.status == 0)
        #expect(second.output == Self.khimkiJSON)
        #expect(second.error == "")
        // A damaged cache: a warning, the same answer, and the cache rebuilt.
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: cacheFile))
        let third = try Self.run(["trips", "--json", log], environment: environment)
        #expect(third.output == Self.khimkiJSON)
        #expect(
            third.error == "nmea trips: warning: the place cache \(cacheFile) is damaged (line 1 is not the "
                + "header for geonames-a5ba49d8); rebuilding it\n")
        #expect(try String(contentsOfFile: cacheFile, encoding: .utf8).hasPrefix("nmea-geocode-cache 1 geonames-"))
    }

    @Test func theTable() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try Self.run(
            ["trips", "-"], input: Self.khimkiDay(profile: .multiGNSS),
            environment: ["XDG_CACHE_HOME": directory.path])
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                TRIPS
                #  START (UTC)          END (UTC)            DURATION  DISTANCE  AVG km/h  MAX km/h  FROM → TO
                1  2026-06-15 23:49:59  2026-06-15 23:55:00   0:05:01   3.00 km      35.9      36.0  \
                Khimki, Moscow Oblast, RU → 3 km NE of Khimki, Moscow Oblast, RU
                2  2026-06-16 00:14:59  2026-06-16 00:20:00   0:05:01   3.00 km      35.9      36.0  \
                3 km NE of Khimki, Moscow Oblast, RU → Khimki, Moscow Oblast, RU

                STOPS
                #  START (UTC)          END (UTC)            DURATION  PLACE
                1  2026-06-15 23:55:00  2026-06-16 00:14:59   0:19:59  3 km NE of Khimki, Moscow Oblast, RU

                2 trips, 6.01 km in 0:10:02; 1 stop between them

                """)
    }

    @Test func ggaOnlyLogsNeedADate() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Self.khimkiDay(profile: .ggaOnly)
        let environment = ["XDG_CACHE_HOME": directory.path]
        let undated = try Self.run(["trips", "--json", "--no-places"], input: log, environment: environment)
        #expect(undated.status == 0)
        #expect(undated.output == "{\"trips\":[],\"stops\":[]}\n")
        #expect(
            undated.error == "nmea trips: 3000 fixes had no date and were left out; --date YYYY-MM-DD gives them "
                + "one\nnmea trips: warning: no fix with a position and a time in the input\n")
        let dated = try Self.run(["trips", "--json", "--date", "2026-06-15"], input: log, environment: environment)
        #expect(dated.status == 0)
        // Without the receiver's speed, the ends of the trips come from the positions, over 10 s: where the
        // vehicle left and where it stood, within a second (issue 25, item 8: they were placed where it left and
        // reached the 50 m rest radius, seconds inside the trip).
        #expect(dated.output.contains("\"start\":{\"time\":\"2026-06-15T23:50:00Z\""))
        #expect(dated.output.contains("\"end\":{\"time\":\"2026-06-15T23:54:59Z\""))
        #expect(dated.output.contains("\"end\":{\"time\":\"2026-06-16T00:20:00Z\""))
        #expect(dated.output.components(separatedBy: "\"distance_m\":").count == 3)
        #expect(dated.output.contains("\"place\":\"3 km NE of Khimki, Moscow Oblast, RU\""))
    }

    @Test func noPlacesAndOptions() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Self.khimkiDay(profile: .rmcGGA)
        let outcome = try Self.run(
            ["trips", "--json", "--no-places", "--min-stop", "2000"], input: log,
            environment: ["XDG_CACHE_HOME": directory.path])
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        // A 20-minute halt is no stop when a stop takes 2000 s: one trip there and back.
        #expect(outcome.output.components(separatedBy: "\"distance_m\":").count == 2)
        #expect(outcome.output.contains("\"place\":null"))
        #expect(outcome.output.hasSuffix("\"stops\":[]}\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/nmea"))
        // A minimum distance beyond the drive: nothing is a trip.
        let wide = try Self.run(
            ["trips", "--min-distance", "5000"], input: log,
            environment: ["XDG_CACHE_HOME": directory.path])
        #expect(wide.output == "No trips.\n")
    }

    @Test(arguments: [
        // A negative number is a value, out of range (issue 12, item 15), not a missing one.
        (
            ["--min-distance", "-5"],
            "Error: The value '-5' is out of range for '--min-distance <meters>': expected 1 to 1000000\n"
        ),
        (
            ["--min-distance", "0"],
            "Error: The value '0' is out of range for '--min-distance <meters>': expected 1 to 1000000\n"
        ),
        (["--max-gap", "soon"], "Error: The value 'soon' is invalid for '--max-gap <seconds>'\n"),
        (
            ["--date", "2026-02-30"],
            "Error: The value '2026-02-30' is invalid for '--date <YYYY-MM-DD>': "
                + "expected YYYY-MM-DD\n"
        ),
        (["--places"], "Error: Unknown option '--places'\n"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let outcome = try Self.run(["trips"] + arguments, input: "")
        #expect(outcome.status == 64)
        #expect(outcome.output == "")
        #expect(
            outcome.error == message + "Usage: nmea trips [<files> ...] [--json] [--min-distance <meters>] "
                + "[--min-stop <seconds>] [--max-gap <seconds>] [--date <YYYY-MM-DD>] [--no-places] [--bench] [-j <n>] "
                + CleaningUsage.text + "[--allow-missing-checksum] [--max-length <n>] [--own-ship] [-v]\n"
                + "  See 'nmea trips --help' for more information.\n")
    }

    @Test func helpIsTheSameEverywhere() throws {
        let help = try Self.run(["trips", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: List the trips and stops in NMEA logs, with place names.\n"))
        #expect(help.output.contains("GeoNames (CC BY 4.0)"))
        #expect(try Self.run(["help", "trips"]).output == help.output)
        #expect(try Self.run(["trips", "-h"]).output == help.output)
        #expect(try Self.run(["--help"]).output.contains("  trips                   List the trips and stops"))
    }

    @Test func badLinesAreSummarisedAndMissingFilesFail() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log =
            Self.khimkiDay(profile: .rmcGGA)
            + "$GPRMC,000000.00,A,5554.0060,N,03725.7088,E,0.1,0.0,160626,,,A*00\r\nnoise\r\n"
        let good = try Self.run(
            ["trips", "--json", "-"], input: log, environment: ["XDG_CACHE_HOME": directory.path])
        #expect(good.status == 0)
        #expect(good.output.hasPrefix("{\"trips\":[{"))
        #expect(good.error.hasSuffix("nmea trips: 1 line rejected (1 bad checksum); -v lists them\n"))
        // A missing input among good ones: every input is admitted before anything is read or printed (issue 25),
        // so there is no table that would lack its trips.
        let outcome = try Self.run(
            ["trips", "--json", "-", "/nonexistent/day.nmea"], input: log,
            environment: ["XDG_CACHE_HOME": directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.output == "")
        #expect(
            outcome.error == "Error: cannot open '/nonexistent/day.nmea': No such file or directory\n"
                + "1 of 2 inputs cannot be read: nothing was read and no output was written\n")
    }

    @Test func thePlaceFileIsFoundBesideAnInstalledProgram() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        let places = Self.packageRoot.appendingPathComponent("Resources/places.bin").path
        let log = Self.khimkiDay(profile: .rmcGGA)
        let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]

        // <prefix>/bin/nmea with <prefix>/share/nmea/places.bin.
        let prefix = directory.appendingPathComponent("prefix")
        try manager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try manager.createDirectory(at: prefix.appendingPathComponent("share/nmea"), withIntermediateDirectories: true)
        let installed = prefix.appendingPathComponent("bin/nmea").path
        try copyProgram(Self.tool, to: installed)
        let installedPlaces = prefix.appendingPathComponent("share/nmea/places.bin").path
        try manager.copyItem(atPath: places, toPath: installedPlaces)
        let good = try Self.run(["trips", "--json"], input: log, environment: environment, executable: installed)
        #expect(good.output == Self.khimkiJSON)
        // That file, and no other, is the one used: damaged, it is named in the warning.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: places))
        try bytes.prefix(100_000).write(to: URL(fileURLWithPath: installedPlaces))
        let damaged = try Self.run(
            ["trips", "--json"], input: log,
            environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("other").path],
            executable: installed)
        #expect(damaged.status == 0)
        #expect(
            damaged.error.contains(
                "nmea trips: warning: place names unavailable: \(installedPlaces): "
                    + "place file is truncated\n"))
        #expect(damaged.output.contains("\"place\":null"))

        // A portable copy: places.bin beside the program.
        let portable = directory.appendingPathComponent("portable")
        try manager.createDirectory(at: portable, withIntermediateDirectories: true)
        try copyProgram(Self.tool, to: portable.appendingPathComponent("nmea").path)
        try bytes.prefix(50).write(to: portable.appendingPathComponent("places.bin"))
        let beside = try Self.run(
            ["trips", "--json"], input: log,
            environment: ["XDG_CACHE_HOME": directory.appendingPathComponent("third").path],
            executable: portable.appendingPathComponent("nmea").path)
        #expect(
            beside.error.contains(
                "nmea trips: warning: place names unavailable: "
                    + "\(portable.path)/places.bin: place file is truncated\n"))

        // NMEA_PLACES overrides everything.
        let missing = try Self.run(
            ["trips", "--json"], input: log,
            environment: [
                "NMEA_PLACES": "/nonexistent/places.bin",
                "XDG_CACHE_HOME": directory.path,
            ])
        #expect(missing.status == 0)
        #expect(
            missing.error == "nmea trips: warning: no place file (looked for /nonexistent/places.bin); places "
                + "are left out. Set NMEA_PLACES to the places.bin file\n")
        #expect(missing.output.contains("\"place\":null"))
    }
}
