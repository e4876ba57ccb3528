import Glibc
import JSON
import NMEA
import System
import Tracks
import Trips

/// `nmea trips`: the journeys in NMEA logs, with where they began and ended as place names.
enum TripsCommand: Command {
    static let spec = CommandSpec(
        name: "trips",
        abstract: "List the trips and stops in NMEA logs, with place names.",
        discussion: """
            Finds trips geometrically, so that a parked receiver's jitter never makes one: a trip starts when the \
            position moves more than --min-distance from the last stop (its start moved back to the last fix at \
            rest there); a stop is when every fix of the last --min-stop seconds lies within --min-distance; a \
            pause in the data longer than --max-gap ends a trip. Each trip has its start and end (time, position, \
            place), its distance along the track, duration, and average and top speed; the stops between trips \
            follow. Logs without dates (GGA only) need --date.
            Place names come from GeoNames (CC BY 4.0), offline: the nearest town or city, with the distance and \
            direction from it beyond a kilometre. The place file is looked for in $NMEA_PLACES, \
            <prefix>/share/nmea/places.bin beside an installed bin/nmea, places.bin beside the program, and \
            Resources/places.bin of the source tree. Answers are cached by ~150 m cell (geohash 7) in \
            $XDG_CACHE_HOME/nmea/ (default ~/.cache/nmea/).
            """,
        arguments: [SentenceInput.files],
        options: [json] + TripRuleOptions.options + [
            SentenceInput.date, PlaceOptions.noPlaces, bench, SentenceInput.jobs,
        ]
            + CleaningOptions.options + SentenceInput.options,
        examples: [
            "nmea trips day.nmea",
            "nmea trips --json monday.nmea tuesday.nmea > trips.json",
            "nmea trips --date 2026-11-30 --min-stop 300 gga-only.nmea",
            "nmea simulate --route commute | nmea trips",
        ])

    private static let json = Flag(
        long: "json", help: "Print one JSON document {\"trips\":[…],\"stops\":[…]} instead of a table.")
    private static let bench = Flag(
        long: "bench", help: "Measure the place lookup (load time, lookups per second, memory), then exit.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let rule = try TripRuleOptions.parse(arguments)
        if arguments.flag(bench) { return try PlaceBenchmark.run(json: arguments.flag(json)) }
        var cleaner = try CleaningOptions.parse(arguments)
        var input = try SentenceInput(arguments, readsSky: false)
        input.readsTracks = true
        input.jobs = try SentenceInput.jobs(arguments)
        input.handsOffFixes = true
        var log = TripLog(options: rule)
        try input.read { TrackCleaner.apply(&cleaner, $0) { _ = log.add($0) } }
        cleaner?.finish { _ = log.add($0) }
        log.finish()
        guard input.failures.isEmpty else {
            // An input could not be read: its trips would be missing from the table, so there is none.
            input.printSummary(command: "nmea trips")
            Console.error("nmea trips: no trips listed: an input could not be read\n")
            return ExitStatus.failure
        }
        let places =
            arguments.flag(PlaceOptions.noPlaces) || log.trips.isEmpty
            ? nil : PlaceOptions.geocoder(command: "nmea trips")
        write(log, json: arguments.flag(json)) { places?.placeName(latitude: $0, longitude: $1) }
        places?.save()
        input.printSummary(command: "nmea trips")
        cleaner?.report(command: "nmea trips")
        report(log.statistics, input)
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The trips and stops on standard output: a JSON document, or tables.
    private static func write(_ log: TripLog, json: Bool, place: (Double, Double) -> PlaceName?) {
        if json {
            var json = JSONWriter(capacity: 1 << 16)
            TripJSON.writeDocument(trips: log.trips, stops: log.stops, place: place, into: &json)
            json.bytes.withUnsafeBytes { Console.standardOutput.write($0) }
            Console.standardOutput.write("\n")
        } else {
            Console.standardOutput.write(TripText.table(log, place: place))
        }
        Console.standardOutput.flush()
    }

    /// What was left out of the trips, and why, on standard error.
    private static func report(_ statistics: TripDetector.Statistics, _ input: borrowing SentenceInput) {
        let undated = input.statistics.assembler.undatedFixes
        if undated > 0 && input.fallbackDate == nil {
            Console.error(
                "nmea trips: \(undated) fixes had no date and were left out; "
                    + "--date YYYY-MM-DD gives them one\n")
        }
        if statistics.outOfOrder > 0 {
            Console.error(
                "nmea trips: \(statistics.outOfOrder) fix\(statistics.outOfOrder == 1 ? " was" : "es were") "
                    + "older than the fix before and left out (give the logs in time order)\n")
        }
        if statistics.glitches > 0 {
            Console.error(
                "nmea trips: \(statistics.glitches) position\(statistics.glitches == 1 ? "" : "s") "
                    + "implying over 540 km/h left out as receiver glitches\n")
        }
        if statistics.fixes == 0 && input.failures.isEmpty {
            Console.error("nmea trips: warning: no fix with a position and a time in the input\n")
        }
    }
}
