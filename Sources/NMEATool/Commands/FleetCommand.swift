import Fleet
import Glibc
import JSON
import NMEA
import System
import Tracks
import Trips

/// `nmea fleet`: what the collector stored, for people: the last position of every vehicle, trips, a day's track.
enum FleetCommand: Command {
    static let spec = CommandSpec(
        name: "fleet",
        abstract: "Query the fleet database 'nmea collect --db' fills: last positions, trips, tracks.",
        discussion: """
            Each subcommand reads the schema 'nmea' of a PostgreSQL database through libpq: --db takes \
            postgresql://USER@HOST[:PORT]/DB (or a libpq connection string), and the password comes from \
            ~/.pgpass or the file $PGPASSFILE names, never from the command line. Times are UTC.
            """,
        subcommands: subcommands.map { $0.spec })

    static var subcommands: [any Command.Type] {
        [FleetLastCommand.self, FleetTripsCommand.self, FleetTrackCommand.self, FleetServeCommand.self]
    }

    /// `--db`, which every subcommand needs.
    static let database = OptionSpec(
        long: "db", valueName: "url", help: "The database: postgresql://USER@HOST[:PORT]/DB (no password).",
        isRequired: true)

    /// Connects to `--db`.
    /// - Throws: ``UsageError`` for a URL with a password, ``RuntimeError`` when the database cannot be reached.
    static func connect(_ arguments: ParsedArguments) throws -> FleetQueries {
        let target = arguments.value("db") ?? ""
        if let problem = PostgresConnection.passwordProblem(target) {
            throw arguments.usageError("The value of '--db' is refused: \(problem)")
        }
        do {
            return FleetQueries(try PostgresConnection(target))
        } catch {
            throw RuntimeError("cannot connect to the database: \(error.message)")
        }
    }

    /// Runs `query`, turning a missing schema into advice.
    static func ask<T>(_ query: () throws(DatabaseError) -> T) throws -> T {
        do {
            return try query()
        } catch {
            if error.sqlState == "42P01" || error.sqlState == "3F000" {
                throw RuntimeError("the database has no fleet tables yet: 'nmea collect --db URL' creates them")
            }
            throw RuntimeError("the query failed: \(error.message)")
        }
    }

    /// A `YYYY-MM-DD` day or an ISO 8601 UTC time as nanoseconds since 1970.
    static func time(_ text: String, for name: String, _ arguments: ParsedArguments) throws(UsageError) -> Int64 {
        if let day = ISO8601.parseDate(text) { return day.startNanoseconds }
        if let time = ISO8601.parse(text) { return time }
        throw arguments.invalid(text, for: name, because: "expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ")
    }

}

/// `nmea fleet last`.
enum FleetLastCommand: Command {
    static let spec = CommandSpec(
        name: "last",
        abstract: "Show the last position of every vehicle, where it is and how old it is.",
        discussion: """
            One row per vehicle: the time of its newest stored fix, its age (by the database's clock), the position \
            and speed, and the nearest place (GeoNames, offline, as 'nmea trips' names them).
            """,
        options: [
            FleetCommand.database,
            OptionSpec(long: "json", help: "Print one JSON document {\"vehicles\":[…]} instead of a table."),
            OptionSpec(long: "no-places", help: "Leave out place names (no place file, no cache)."),
        ],
        examples: ["nmea fleet last --db postgresql://fleet@localhost/fleet"])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let queries = try FleetCommand.connect(arguments)
        let vehicles = try FleetCommand.ask { () throws(DatabaseError) in try queries.lastPositions() }
        let places =
            arguments.flag("no-places") || vehicles.isEmpty
            ? nil : TripsCommand.makeGeocoder(command: "nmea fleet last")
        func place(_ position: StoredPosition) -> String? {
            places?.placeName(latitude: position.latitude, longitude: position.longitude)?.label
        }
        if arguments.flag("json") {
            Console.standardOutput.write(String(decoding: json(vehicles, place: place), as: UTF8.self) + "\n")
        } else if vehicles.isEmpty {
            Console.standardOutput.write("No vehicles.\n")
        } else {
            var rows = [["VEHICLE", "LAST FIX (UTC)", "AGE", "POSITION", "km/h", "PLACE"]]
            for last in vehicles {
                let position = last.position
                rows.append([
                    TripsCommand.printable(position.vehicle),
                    TripsCommand.formatTime(position.timestamp * 1_000_000_000), age(last.ageSeconds),
                    TripsCommand.formatPosition(position.latitude, position.longitude),
                    position.speed.map { DecimalFormatter.string($0 * 3.6, decimals: 1) } ?? "",
                    place(position).map(TripsCommand.printable) ?? "",
                ])
            }
            Console.standardOutput.write(TripsCommand.layout(rows, rightAligned: [2, 4]))
        }
        Console.standardOutput.flush()
        places?.save()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }

    /// `{"vehicles":[…]}`: what `--json` prints (and the fleet page's `/api/vehicles` serves).
    static func json(_ vehicles: [FleetQueries.LastPosition], place: (StoredPosition) -> String?) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.key("vehicles")
        json.beginArray()
        for last in vehicles {
            let position = last.position
            json.beginObject()
            json.field("vehicle", position.vehicle)
            json.key("time")
            json.asciiString { ISO8601.write(nanosecondsSinceEpoch: position.timestamp * 1_000_000_000, to: $0) }
            json.field("age_s", last.ageSeconds, decimals: 0)
            json.field("lat", position.latitude)
            json.field("lon", position.longitude)
            json.field("alt", position.altitudeMeters)
            json.field("speed_kmh", position.speed.map { $0 * 3.6 }, decimals: 1)
            json.field("course", position.courseDegrees)
            json.field("accuracy_m", position.accuracyMeters)
            json.field("satellites", position.satellites)
            json.key("place")
            if let place = place(position) { json.string(place) } else { json.null() }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `42 s`, `5 min`, `3 h 20 min`, `2 d 4 h`; `in the future` for a fix ahead of the database's clock.
    static func age(_ seconds: Double) -> String {
        guard seconds >= 0 else { return "in the future" }
        let total = Int(seconds.rounded(.down))
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min" }
        if total < 86_400 { return "\(total / 3600) h \(total / 60 % 60) min" }
        return "\(total / 86_400) d \(total / 3600 % 24) h"
    }
}

/// `nmea fleet trips`.
enum FleetTripsCommand: Command {
    static let spec = CommandSpec(
        name: "trips",
        abstract: "List the stored trips with their start and end places.",
        discussion: """
            The trips that end after --since and start before --until (a day YYYY-MM-DD, or a time \
            YYYY-MM-DDThh:mm:ssZ), of one vehicle or all, by vehicle and start time. -o FILE.geojson writes them \
            as a GeoJSON FeatureCollection: each trip a LineString along its stored path (from its start to its \
            end when it has none), with its times, places, distance and speeds as properties.
            """,
        options: [
            FleetCommand.database,
            OptionSpec(long: "vehicle", valueName: "name", help: "Only this vehicle (its topic without 'owntracks/')."),
            OptionSpec(long: "since", valueName: "time", help: "Trips that end at or after this time."),
            OptionSpec(long: "until", valueName: "time", help: "Trips that start before this time."),
            OptionSpec(long: "json", help: "Print one JSON document {\"trips\":[…]} instead of a table."),
            OptionSpec(
                long: "output", short: "o", valueName: "file",
                help: "Write the trips as GeoJSON to this file ('-': standard output).", completion: .file),
        ],
        examples: [
            "nmea fleet trips --db postgresql://fleet@localhost/fleet --vehicle acme/van7 --since 2026-11-30",
            "nmea fleet trips --db postgresql://fleet@localhost/fleet --since 2026-11-01 --until 2026-12-01 "
                + "-o november.geojson",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let since = try arguments.value("since").map { text throws(UsageError) in
            try FleetCommand.time(text, for: "since", arguments)
        }
        let until = try arguments.value("until").map { text throws(UsageError) in
            try FleetCommand.time(text, for: "until", arguments)
        }
        if arguments.flag("json") && arguments.value("output") != nil {
            throw arguments.usageError("Give '--json' or '-o <file>', not both")
        }
        let queries = try FleetCommand.connect(arguments)
        let vehicle = arguments.value("vehicle")
        let trips = try FleetCommand.ask { () throws(DatabaseError) in
            try queries.trips(vehicle: vehicle, since: since, until: until)
        }
        if let output = arguments.value("output") {
            try writeOutput(geoJSON(trips), to: output)
            if output != "-" {
                Console.error("nmea fleet trips: \(trips.count) trip\(trips.count == 1 ? "" : "s") in \(output)\n")
            }
            return ExitStatus.success
        }
        if arguments.flag("json") {
            Console.standardOutput.write(String(decoding: json(trips), as: UTF8.self) + "\n")
        } else {
            Console.standardOutput.write(table(trips))
        }
        Console.standardOutput.flush()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }

    /// `{"trips":[…]}`: what `--json` prints (and the fleet page's `/api/trips` serves).
    static func json(_ trips: [FleetQueries.StoredTripRow]) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.key("trips")
        json.beginArray()
        for trip in trips {
            json.beginObject()
            json.field("vehicle", trip.vehicle)
            trip.summary.writeMembers(into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    static func table(_ trips: [FleetQueries.StoredTripRow]) -> String {
        guard !trips.isEmpty else { return "No trips.\n" }
        func label(_ point: TripSummary.Endpoint) -> String {
            point.place.map(TripsCommand.printable) ?? TripsCommand.formatPosition(point.latitude, point.longitude)
        }
        var rows = [
            [
                "VEHICLE", "START (UTC)", "END (UTC)", "DURATION", "DISTANCE", "AVG km/h", "MAX km/h",
                "FROM → TO",
            ]
        ]
        for trip in trips {
            let summary = trip.summary
            rows.append([
                TripsCommand.printable(trip.vehicle), TripsCommand.formatTime(summary.start.timestamp),
                TripsCommand.formatTime(summary.end.timestamp), TripText.duration(summary.durationSeconds),
                TripText.distance(summary.distanceMeters),
                DecimalFormatter.string(summary.averageSpeedKmh, decimals: 1),
                DecimalFormatter.string(summary.maximumSpeedKmh, decimals: 1),
                label(summary.start) + " → " + label(summary.end),
            ])
        }
        let distance = trips.reduce(0) { $0 + $1.summary.distanceMeters }
        let duration = trips.reduce(0) { $0 + $1.summary.durationSeconds }
        return TripsCommand.layout(rows, rightAligned: [3, 4, 5, 6])
            + "\n\(trips.count) trip\(trips.count == 1 ? "" : "s"), \(TripText.distance(distance)) in "
            + TripText.duration(duration) + "\n"
    }

    /// A FeatureCollection of LineStrings, the trip's fields as properties.
    static func geoJSON(_ trips: [FleetQueries.StoredTripRow]) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 16)
        json.beginObject()
        json.field("type", "FeatureCollection" as StaticString)
        json.key("features")
        json.beginArray()
        for trip in trips {
            json.beginObject()
            json.field("type", "Feature" as StaticString)
            json.key("geometry")
            json.beginObject()
            // A line needs two distinct positions (RFC 7946, GEOS): the stored path, else the trip's start and end,
            // else (both at one place) a Point.
            let ends = [trip.summary.start, trip.summary.end].map {
                FleetQueries.PathPoint(latitude: $0.latitude, longitude: $0.longitude)
            }
            func distinct(_ points: [FleetQueries.PathPoint]) -> Bool {
                points.contains { $0.latitude != points[0].latitude || $0.longitude != points[0].longitude }
            }
            let line = distinct(trip.path) ? trip.path : distinct(ends) ? ends : nil
            func position(_ point: FleetQueries.PathPoint) {
                json.beginArray()
                json.number(point.longitude)
                json.number(point.latitude)
                json.endArray()
            }
            json.field("type", line == nil ? "Point" : "LineString" as StaticString)
            json.key("coordinates")
            if let line {
                json.beginArray()
                for point in line { position(point) }
                json.endArray()
            } else {
                position(ends[0])
            }
            json.endObject()
            json.key("properties")
            json.beginObject()
            json.field("vehicle", trip.vehicle)
            trip.summary.writeMembers(into: &json)
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes + [UInt8(ascii: "\n")]
    }
}

/// `nmea fleet track`.
enum FleetTrackCommand: Command {
    static let spec = CommandSpec(
        name: "track",
        abstract: "Write one vehicle's track of one day as GPX or GeoJSON.",
        discussion: """
            The stored positions of --vehicle from 00:00 to 24:00 UTC of --day, in time order, as a GPX 1.1 track \
            (time, elevation, speed, course, satellites) or GeoJSON, by the name's extension; a gap longer than \
            --split-gap starts a new segment. The file is written beside its name and renamed into place when \
            complete; a day without positions is an error and writes nothing.
            """,
        options: [
            FleetCommand.database,
            OptionSpec(
                long: "vehicle", valueName: "name", help: "The vehicle (its topic without 'owntracks/').",
                isRequired: true),
            OptionSpec(long: "day", valueName: "date", help: "The UTC day, YYYY-MM-DD.", isRequired: true),
            OptionSpec(
                long: "output", short: "o", valueName: "file",
                help: "Where to write: NAME.gpx, NAME.geojson, NAME.kml, NAME.csv, or '-' (GPX on standard output).",
                isRequired: true, completion: .file),
            OptionSpec(
                long: "split-gap", valueName: "seconds",
                help: "Start a new track segment after a gap longer than this.", defaultValue: "600"),
        ],
        examples: [
            "nmea fleet track --db postgresql://fleet@localhost/fleet --vehicle acme/van7 --day 2026-11-30 "
                + "-o day.gpx"
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let dayText = arguments.value("day") ?? ""
        guard let day = ISO8601.parseDate(dayText) else {
            throw arguments.invalid(dayText, for: "day", because: "expected YYYY-MM-DD")
        }
        let output = arguments.value("output") ?? "-"
        let format: ConvertOutput.Format =
            output == "-"
            ? .gpx
            : try {
                guard let format = ConvertOutput.formatNamed(by: output) else {
                    throw arguments.usageError(
                        "Cannot tell the format of '\(output)': name it .gpx, .geojson, .kml or .csv")
                }
                return format
            }()
        let options = TrackOptions(splitGapSeconds: try arguments.number("split-gap", default: 600, in: 0...1e9))
        let vehicle = arguments.value("vehicle") ?? ""
        let queries = try FleetCommand.connect(arguments)
        let start = day.startNanoseconds / 1_000_000_000
        let positions = try FleetCommand.ask { () throws(DatabaseError) in
            try queries.track(vehicle: vehicle, from: start, to: start + 86_400)
        }
        guard !positions.isEmpty else {
            throw RuntimeError("no positions of '\(TripsCommand.printable(vehicle))' on \(dayText)")
        }
        do {
            let writer = try ConvertOutput(path: output, format: format).makeWriter(
                track: options, includePoints: false, creator: "nmea fleet")
            // Put in place by `finish` (Publication.atFinish): a failure leaves the old file as it was.
            for position in positions { try writer.write(position.fix) }
            try writer.finish()
        } catch {
            throw RuntimeError("\(error)")
        }
        if output != "-" {
            Console.error(
                "nmea fleet track: \(positions.count) positions of \(TripsCommand.printable(vehicle)) "
                    + "in \(output)\n")
        }
        return ExitStatus.success
    }
}
