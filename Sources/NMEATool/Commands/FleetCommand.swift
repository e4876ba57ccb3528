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
        [
            FleetLastCommand.self, FleetTripsCommand.self, FleetTrackCommand.self, FleetReportCommand.self,
            FleetGeofenceCommand.self, FleetEventsCommand.self, FleetServeCommand.self,
        ]
    }
}

/// `--db`, which every `nmea fleet` subcommand needs, and what it connects to.
enum FleetDatabaseOptions {
    static let database = Option<String>(
        required: "db", valueName: "url", help: "The database: postgresql://USER@HOST[:PORT]/DB (no password).")

    /// Connects to `--db`.
    /// - Throws: ``UsageError`` for a URL with a password, ``RuntimeError`` when libpq cannot be loaded or the
    ///   database cannot be reached.
    static func connect(_ arguments: ParsedArguments) throws -> FleetQueries {
        let target = try arguments.value(database)
        if let problem = PostgresConnection.libraryProblem { throw RuntimeError(problem) }
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
        options: [FleetDatabaseOptions.database, json, PlaceOptions.noPlaces],
        examples: ["nmea fleet last --db postgresql://fleet@localhost/fleet"])

    private static let json = Flag(
        long: "json", help: "Print one JSON document {\"vehicles\":[…]} instead of a table.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let queries = try FleetDatabaseOptions.connect(arguments)
        let vehicles = try FleetDatabaseOptions.ask { () throws(DatabaseError) in try queries.lastPositions() }
        let places =
            arguments.flag(PlaceOptions.noPlaces) || vehicles.isEmpty
            ? nil : PlaceOptions.geocoder(command: "nmea fleet last")
        func place(_ position: StoredPosition) -> String? {
            places?.placeName(latitude: position.latitude, longitude: position.longitude)?.label
        }
        if arguments.flag(json) {
            Console.standardOutput.write(
                String(decoding: FleetJSON.vehicles(vehicles, place: place), as: UTF8.self) + "\n")
        } else if vehicles.isEmpty {
            Console.standardOutput.write("No vehicles.\n")
        } else {
            Console.standardOutput.write(table(vehicles, place: place))
        }
        Console.standardOutput.flush()
        places?.save()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }

    /// A row per vehicle.
    private static func table(_ vehicles: [FleetQueries.LastPosition], place: (StoredPosition) -> String?) -> String {
        var rows = [["VEHICLE", "LAST FIX (UTC)", "AGE", "POSITION", "km/h", "PLACE"]]
        for last in vehicles {
            let position = last.position
            rows.append([
                TripText.printable(position.vehicle),
                TripText.time(position.timestamp * 1_000_000_000), age(last.ageSeconds),
                TripText.position(position.latitude, position.longitude),
                position.speed.map { DecimalFormatter.string($0 * 3.6, decimals: 1) } ?? "",
                place(position).map(TripText.printable) ?? "",
            ])
        }
        return TripText.layout(rows, rightAligned: [2, 4])
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
        options: [FleetDatabaseOptions.database, vehicle, since, until, json, output],
        examples: [
            "nmea fleet trips --db postgresql://fleet@localhost/fleet --vehicle acme/van7 --since 2026-11-30",
            "nmea fleet trips --db postgresql://fleet@localhost/fleet --since 2026-11-01 --until 2026-12-01 "
                + "-o november.geojson",
        ])

    private static let vehicle = Option<String?>(
        long: "vehicle", valueName: "name", help: "Only this vehicle (its topic without 'owntracks/').")
    private static let since = Option<Int64?>(
        long: "since", valueName: "time", help: "Trips that end at or after this time.", convert: time)
    private static let until = Option<Int64?>(
        long: "until", valueName: "time", help: "Trips that start before this time.", convert: time)
    private static let json = Flag(long: "json", help: "Print one JSON document {\"trips\":[…]} instead of a table.")
    private static let output = Option<String?>(
        long: "output", short: "o", valueName: "file",
        help: "Write the trips as GeoJSON to this file ('-': standard output).", completion: .file)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let since = try arguments.value(Self.since)
        let until = try arguments.value(Self.until)
        let output = try arguments.value(Self.output)
        if arguments.flag(json) && output != nil {
            throw arguments.usageError("Give '--json' or '-o <file>', not both")
        }
        let queries = try FleetDatabaseOptions.connect(arguments)
        let vehicle = try arguments.value(Self.vehicle)
        let trips = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try queries.trips(vehicle: vehicle, since: since, until: until)
        }
        if let output {
            try writeOutput(FleetJSON.tripsGeoJSON(trips), to: output)
            if output != "-" {
                Console.error("nmea fleet trips: \(trips.count) trip\(trips.count == 1 ? "" : "s") in \(output)\n")
            }
            return ExitStatus.success
        }
        if arguments.flag(json) {
            Console.standardOutput.write(String(decoding: FleetJSON.trips(trips), as: UTF8.self) + "\n")
        } else {
            Console.standardOutput.write(table(trips))
        }
        Console.standardOutput.flush()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }

    /// A `YYYY-MM-DD` day or an ISO 8601 UTC time as nanoseconds since 1970.
    static func time(_ text: String) throws(ValueError) -> Int64 {
        if let day = ISO8601.parseDate(text) { return day.startNanoseconds }
        if let time = ISO8601.parse(text) { return time }
        throw .invalid(text, because: "expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ")
    }

    static func table(_ trips: [FleetQueries.StoredTripRow]) -> String {
        guard !trips.isEmpty else { return "No trips.\n" }
        func label(_ point: TripSummary.Endpoint) -> String {
            point.place.map(TripText.printable) ?? TripText.position(point.latitude, point.longitude)
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
                TripText.printable(trip.vehicle), TripText.time(summary.start.timestamp),
                TripText.time(summary.end.timestamp), TripText.duration(summary.durationSeconds),
                TripText.distance(summary.distanceMeters),
                DecimalFormatter.string(summary.averageSpeedKmh, decimals: 1),
                DecimalFormatter.string(summary.maximumSpeedKmh, decimals: 1),
                label(summary.start) + " → " + label(summary.end),
            ])
        }
        let distance = trips.reduce(0) { $0 + $1.summary.distanceMeters }
        let duration = trips.reduce(0) { $0 + $1.summary.durationSeconds }
        return TripText.layout(rows, rightAligned: [3, 4, 5, 6])
            + "\n\(trips.count) trip\(trips.count == 1 ? "" : "s"), \(TripText.distance(distance)) in "
            + TripText.duration(duration) + "\n"
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
        options: [FleetDatabaseOptions.database, vehicle, day, output, splitGap],
        examples: [
            "nmea fleet track --db postgresql://fleet@localhost/fleet --vehicle acme/van7 --day 2026-11-30 "
                + "-o day.gpx"
        ])

    private static let vehicle = Option<String>(
        required: "vehicle", valueName: "name", help: "The vehicle (its topic without 'owntracks/').")
    private static let day = Option<String>(required: "day", valueName: "date", help: "The UTC day, YYYY-MM-DD.")
    private static let output = Option<String>(
        required: "output", short: "o", valueName: "file",
        help: "Where to write: NAME.gpx, NAME.geojson, NAME.kml, NAME.csv, or '-' (GPX on standard output).",
        completion: .file)
    private static let splitGap = Option<Double>(
        long: "split-gap", valueName: "seconds", help: "Start a new track segment after a gap longer than this.",
        default: 600, in: 0...1e9)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let dayText = try arguments.value(day)
        guard let day = ISO8601.parseDate(dayText) else {
            throw arguments.invalid(dayText, for: Self.day, because: "expected YYYY-MM-DD")
        }
        let output = try arguments.value(Self.output)
        let format: ConvertOutput.Format = output == "-" ? .gpx : try formatNamed(by: output, arguments)
        let options = TrackOptions(splitGapSeconds: try arguments.value(splitGap))
        let vehicle = try arguments.value(Self.vehicle)
        let queries = try FleetDatabaseOptions.connect(arguments)
        let start = day.startNanoseconds / 1_000_000_000
        let positions = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try queries.track(vehicle: vehicle, from: start, to: start + 86_400)
        }
        guard !positions.isEmpty else {
            throw RuntimeError("no positions of '\(TripText.printable(vehicle))' on \(dayText)")
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
                "nmea fleet track: \(positions.count) positions of \(TripText.printable(vehicle)) "
                    + "in \(output)\n")
        }
        return ExitStatus.success
    }

    /// The format `output`'s extension names.
    private static func formatNamed(by output: String, _ arguments: ParsedArguments) throws(UsageError)
        -> ConvertOutput.Format
    {
        guard let format = ConvertOutput.formatNamed(by: output) else {
            throw arguments.usageError("Cannot tell the format of '\(output)': name it .gpx, .geojson, .kml or .csv")
        }
        return format
    }
}
