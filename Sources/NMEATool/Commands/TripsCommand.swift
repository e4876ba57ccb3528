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
        arguments: [SentenceInput.filesArgument],
        options: [
            OptionSpec(
                long: "json",
                help: "Print one JSON document {\"trips\":[…],\"stops\":[…]} instead of a table.")
        ] + TripRuleOptions.options + [
            SentenceInput.date,
            OptionSpec(long: "no-places", help: "Leave out place names (no place file, no cache)."),
            OptionSpec(
                long: "bench",
                help: "Measure the place lookup (load time, lookups per second, memory), then exit."),
        ] + CleaningOptions.options + SentenceInput.options,
        examples: [
            "nmea trips day.nmea",
            "nmea trips --json monday.nmea tuesday.nmea > trips.json",
            "nmea trips --date 2026-11-30 --min-stop 300 gga-only.nmea",
            "nmea simulate --route commute | nmea trips",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let rule = try TripRuleOptions.parse(arguments)
        if arguments.flag("bench") { return try PlaceBenchmark.run(json: arguments.flag("json")) }
        var cleaner = try CleaningOptions.parse(arguments)
        var input = try SentenceInput(arguments)
        input.readsTracks = true
        var log = TripLog(options: rule)
        try input.read { TrackCleaner.apply(&cleaner, $0) { _ = log.add($0) } }
        cleaner?.finish { _ = log.add($0) }
        log.finish()
        let trips = log.trips
        let stops = log.stops

        guard input.failures.isEmpty else {
            // An input could not be read: its trips would be missing from the table, so there is none.
            input.printSummary(command: "nmea trips")
            Console.error("nmea trips: no trips listed: an input could not be read\n")
            return ExitStatus.failure
        }
        let places = arguments.flag("no-places") || trips.isEmpty ? nil : makeGeocoder()
        func place(_ latitude: Double, _ longitude: Double) -> PlaceName? {
            places?.placeName(latitude: latitude, longitude: longitude)
        }
        if arguments.flag("json") {
            var json = JSONWriter(capacity: 1 << 16)
            TripJSON.writeDocument(trips: trips, stops: stops, place: place, into: &json)
            json.bytes.withUnsafeBytes { Console.standardOutput.write($0) }
            Console.standardOutput.write("\n")
        } else {
            Console.standardOutput.write(table(log, place: place))
        }
        Console.standardOutput.flush()
        places?.save()

        input.printSummary(command: "nmea trips")
        cleaner?.report(command: "nmea trips")
        let statistics = log.statistics
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
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The offline geocoder behind the cache, or `nil` (with a warning) when there is no place file.
    static func makeGeocoder(command: String = "nmea trips") -> CachedGeocoder? {
        let warn: (String) -> Void = { Console.error("\(command): warning: \($0)\n") }
        do {
            return try CachedGeocoder.standard(warning: warn)
        } catch {
            warn(error.description)
            return nil
        }
    }

    /// The trips and stops as a table.
    static func table(_ log: TripLog, place: (Double, Double) -> PlaceName?) -> String {
        let trips = log.trips
        let stops = log.stops
        guard !trips.isEmpty else { return "No trips.\n" }
        func label(_ latitude: Double, _ longitude: Double) -> String {
            guard let text = place(latitude, longitude)?.label else { return formatPosition(latitude, longitude) }
            // A label from a cache file or another geocoder must not steer the terminal.
            return printable(text)
        }
        var rows = [["#", "START (UTC)", "END (UTC)", "DURATION", "DISTANCE", "AVG km/h", "MAX km/h", "FROM → TO"]]
        for (number, trip) in trips.enumerated() {
            rows.append([
                String(number + 1), formatTime(trip.start.timestamp), formatTime(trip.end.timestamp),
                TripText.duration(trip.durationSeconds), TripText.distance(trip.distanceMeters),
                DecimalFormatter.string(trip.averageSpeedKmh, decimals: 1),
                DecimalFormatter.string(trip.maximumSpeedKmh, decimals: 1),
                label(trip.start.latitude, trip.start.longitude) + " → "
                    + label(trip.end.latitude, trip.end.longitude),
            ])
        }
        var out = "TRIPS\n" + layout(rows, rightAligned: [0, 3, 4, 5, 6])
        if !stops.isEmpty {
            var stopRows = [["#", "START (UTC)", "END (UTC)", "DURATION", "PLACE"]]
            for (number, stop) in stops.enumerated() {
                stopRows.append([
                    String(number + 1), formatTime(stop.start.timestamp), formatTime(stop.endTimestamp),
                    TripText.duration(stop.durationSeconds), label(stop.latitude, stop.longitude),
                ])
            }
            out += "\nSTOPS\n" + layout(stopRows, rightAligned: [0, 3])
        }
        return out + "\n" + TripText.summary(log.summary) + "\n"
    }

    /// Text for a terminal: control characters (from a cache file, a geocoder, a database) shown as `?`.
    static func printable(_ text: String) -> String { TextEscaping.replacingControls(text) }

    /// Columns padded to their widest cell, two spaces apart, the last one unpadded.
    static func layout(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let columns = rows[0].count
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var out = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index > 0 { line += "  " }
                if rightAligned.contains(index) {
                    line += padding + cell
                } else {
                    line += index == columns - 1 ? cell : cell + padding
                }
            }
            out += line + "\n"
        }
        return out
    }

    /// `2026-11-30 08:00:00`.
    static func formatTime(_ timestamp: Int64) -> String {
        let text = ISO8601.string(timestamp.flooredDivision(by: 1_000_000_000).quotient * 1_000_000_000)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }

    static func formatPosition(_ latitude: Double, _ longitude: Double) -> String {
        DecimalFormatter.string(latitude, decimals: 5) + ", " + DecimalFormatter.string(longitude, decimals: 5)
    }
}
