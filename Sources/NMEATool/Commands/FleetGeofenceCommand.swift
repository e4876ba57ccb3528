import Fleet
import JSON
import NMEA
import System
import Trips

/// `nmea fleet geofence add|list|remove`.
enum FleetGeofenceCommand: Command {
    static let spec = CommandSpec(
        name: "geofence",
        abstract: "Add, list and remove the geofences the collector evaluates positions against.",
        discussion: """
            A geofence is a circle (centre and radius) or a polygon, kept in the table nmea.geofences. The \
            collector ('nmea collect --db') evaluates every position it stores against them and records an enter \
            or an exit when a vehicle crosses a boundary: once per crossing, with a hysteresis of --margin metres \
            (a position within the margin of the boundary changes nothing, so jitter on the edge makes no events). \
            'nmea fleet events' lists them.
            """,
        subcommands: subcommands.map { $0.spec })

    static var subcommands: [any Command.Type] {
        [FleetGeofenceAddCommand.self, FleetGeofenceListCommand.self, FleetGeofenceRemoveCommand.self]
    }
}

/// `nmea fleet geofence add`.
enum FleetGeofenceAddCommand: Command {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a geofence: a circle, a polygon, or a GeoJSON Polygon from a file.",
        discussion: """
            Give exactly one of --circle LAT,LON,RADIUS_M, --polygon "LAT LON, LAT LON, …" (closed when the last \
            point is not the first) or --geojson FILE (a Polygon, or a Feature or FeatureCollection of one; its \
            coordinates longitude first, as GeoJSON has them). A name that exists is refused: remove it first.
            """,
        arguments: [name],
        options: [FleetDatabaseOptions.database, circle, polygon, geoJSON, margin],
        examples: [
            "nmea fleet geofence add depot --circle 48.1374,11.5755,150 --db postgresql://fleet@localhost/fleet",
            "nmea fleet geofence add site-b --polygon \"48.10 11.50, 48.10 11.52, 48.12 11.52, 48.12 11.50\" "
                + "--db postgresql://fleet@localhost/fleet",
            "nmea fleet geofence add yard --geojson yard.geojson --db postgresql://fleet@localhost/fleet",
        ])

    private static let name = Argument<String>(required: "name", help: "The fence's name (1 to 256 bytes).")
    private static let circle = Option<String?>(
        long: "circle", valueName: "lat,lon,radius_m", help: "A circle: its centre and radius in metres.")
    private static let polygon = Option<String?>(
        long: "polygon", valueName: "\"lat lon, …\"", help: "A polygon: at least three points, latitude first.")
    private static let geoJSON = Option<String?>(
        long: "geojson", valueName: "file", help: "A GeoJSON Polygon (or a Feature holding one).", completion: .file)
    private static let margin = Option<Double>(
        long: "margin", valueName: "meters",
        help: "The hysteresis: within this of the boundary a position changes nothing.",
        default: Geofence.defaultMarginMeters, in: 0...10_000)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let fenceName = arguments.value(name)
        guard !fenceName.isEmpty, fenceName.utf8.count <= 256, !TextEscaping.containsControl(fenceName) else {
            throw arguments.usageError("A fence's name is 1 to 256 bytes without control characters")
        }
        let given = [
            try arguments.value(circle).map { ($0, circle.spec.long) },
            try arguments.value(polygon).map { ($0, polygon.spec.long) },
            try arguments.value(geoJSON).map { ($0, geoJSON.spec.long) },
        ].compactMap { $0 }
        guard given.count == 1, let (text, option) = given.first else {
            throw arguments.usageError("Give exactly one of '--circle', '--polygon' and '--geojson'")
        }
        let parsed = Result { () throws(FleetError) -> Geofence.Shape in
            switch option {
            case circle.spec.long: try Geofence.circle(parsing: text)
            case polygon.spec.long: try Geofence.polygon(parsing: text)
            default: try Geofence.polygon(geoJSONFile: text)
            }
        }
        let shape: Geofence.Shape
        switch parsed {
        case .success(let made): shape = made
        case .failure(let error):
            throw arguments.usageError("The value of '--\(option)' is refused: \(error.message)")
        }
        let fence = Geofence(name: fenceName, shape: shape, marginMeters: try arguments.value(margin))
        let queries = try FleetDatabaseOptions.connect(arguments)
        let added = try FleetDatabaseOptions.ask { () throws(DatabaseError) -> Bool in
            try FleetSchema.migrate(queries.database)
            return try GeofenceStore(queries.database).add(fence)
        }
        guard added else {
            throw RuntimeError(
                "a geofence named '\(TripText.printable(fenceName))' exists: 'nmea fleet geofence remove' it first")
        }
        Console.error("nmea fleet geofence: added '\(TripText.printable(fenceName))'\n")
        return ExitStatus.success
    }
}

/// `nmea fleet geofence list`.
enum FleetGeofenceListCommand: Command {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List the geofences: name, shape, size and margin.",
        options: [FleetDatabaseOptions.database, json],
        examples: ["nmea fleet geofence list --db postgresql://fleet@localhost/fleet"])

    private static let json = Flag(
        long: "json", help: "Print a GeoJSON FeatureCollection of the fences instead of a table.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let queries = try FleetDatabaseOptions.connect(arguments)
        let fences = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try GeofenceStore(queries.database).list()
        }
        if arguments.flag(json) {
            Console.standardOutput.write(String(decoding: FleetJSON.fences(fences), as: UTF8.self) + "\n")
        } else if fences.isEmpty {
            Console.standardOutput.write("No geofences.\n")
        } else {
            var rows = [["NAME", "SHAPE", "CENTRE", "SIZE", "MARGIN"]]
            for fence in fences {
                let size =
                    fence.radiusMeters.map { "r " + TripText.distance($0) }
                    ?? DecimalFormatter.string(fence.areaSquareMeters / 10_000, decimals: 2) + " ha"
                rows.append([
                    TripText.printable(fence.name), fence.kind,
                    TripText.position(fence.center.latitude, fence.center.longitude), size,
                    DecimalFormatter.string(fence.marginMeters, decimals: 0) + " m",
                ])
            }
            Console.standardOutput.write(TripText.layout(rows, rightAligned: [3, 4]))
        }
        Console.standardOutput.flush()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }
}

/// `nmea fleet geofence remove`.
enum FleetGeofenceRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove a geofence (its recorded events stay).",
        arguments: [name],
        options: [FleetDatabaseOptions.database],
        examples: ["nmea fleet geofence remove depot --db postgresql://fleet@localhost/fleet"])

    private static let name = Argument<String>(required: "name", help: "The fence to remove.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let fenceName = arguments.value(name)
        let queries = try FleetDatabaseOptions.connect(arguments)
        let removed = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try GeofenceStore(queries.database).remove(fenceName)
        }
        guard removed else {
            throw RuntimeError(
                "no geofence named '\(TripText.printable(fenceName))': 'nmea fleet geofence list' shows them")
        }
        Console.error("nmea fleet geofence: removed '\(TripText.printable(fenceName))'\n")
        return ExitStatus.success
    }
}

/// `nmea fleet events`.
enum FleetEventsCommand: Command {
    static let spec = CommandSpec(
        name: "events",
        abstract: "List the geofence events: each enter and exit of a vehicle, by time.",
        options: [FleetDatabaseOptions.database, vehicle, since, json],
        examples: [
            "nmea fleet events --db postgresql://fleet@localhost/fleet --vehicle acme/van7 --since 2026-11-30",
            "nmea fleet events --db postgresql://fleet@localhost/fleet --json",
        ])

    private static let vehicle = Option<String?>(long: "vehicle", valueName: "name", help: "Only this vehicle.")
    private static let since = Option<Int64?>(
        long: "since", valueName: "time", help: "Events at or after this time (YYYY-MM-DD or an ISO 8601 time).",
        convert: FleetTripsCommand.time)
    private static let json = Flag(
        long: "json", help: "Print {\"events\":[{\"vehicle\",\"fence\",\"kind\",\"time\",\"lat\",\"lon\"}]}.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let since = try arguments.value(Self.since).map { $0.flooredDivision(by: 1_000_000_000).quotient }
        let vehicle = try arguments.value(Self.vehicle)
        let queries = try FleetDatabaseOptions.connect(arguments)
        let events = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try GeofenceStore(queries.database).events(vehicle: vehicle, since: since)
        }
        if arguments.flag(json) {
            Console.standardOutput.write(String(decoding: FleetJSON.events(events), as: UTF8.self) + "\n")
        } else if events.isEmpty {
            Console.standardOutput.write("No events.\n")
        } else {
            var rows = [["TIME (UTC)", "VEHICLE", "EVENT", "FENCE", "POSITION"]]
            for event in events {
                rows.append([
                    TripText.time(event.timestamp * 1_000_000_000), TripText.printable(event.vehicle),
                    event.kind.rawValue, TripText.printable(event.fence),
                    TripText.position(event.latitude, event.longitude),
                ])
            }
            Console.standardOutput.write(TripText.layout(rows, rightAligned: []))
        }
        Console.standardOutput.flush()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }
}

/// `nmea fleet report`.
enum FleetReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Per vehicle and day: distance, driving time, trips, stops, first and last place, top speed, events.",
        discussion: """
            Each vehicle's stored positions of each UTC day (--day, or the days from --since to --until) run \
            through the trip rule of 'nmea trips' (--min-distance, --min-stop, --max-gap), so the figures are \
            those 'nmea trips' prints for the day's track ('nmea fleet track --day'); a trip across midnight \
            counts in each day for its part. Events are the day's geofence enters and exits.
            """,
        options: [FleetDatabaseOptions.database, day, since, until, vehicle, json, csv] + TripRuleOptions.options
            + [PlaceOptions.noPlaces],
        examples: [
            "nmea fleet report --db postgresql://fleet@localhost/fleet --day 2026-11-30",
            "nmea fleet report --db postgresql://fleet@localhost/fleet --since 2026-11-01 --until 2026-11-30 "
                + "--vehicle acme/van7 --csv > november.csv",
        ])

    private static let day = Option<UTCDate?>(
        long: "day", valueName: "date", help: "One UTC day, YYYY-MM-DD.", defaultText: "today"
    ) { text throws(ValueError) in
        guard let date = ISO8601.parseDate(text) else { throw .invalid(text, because: "expected YYYY-MM-DD") }
        return date
    }
    private static let since = Option<Int64?>(
        long: "since", valueName: "time", help: "From the UTC day of this time.", convert: FleetTripsCommand.time)
    private static let until = Option<Int64?>(
        long: "until", valueName: "time", help: "To the UTC day of this time (included).",
        convert: FleetTripsCommand.time)
    private static let vehicle = Option<String?>(long: "vehicle", valueName: "name", help: "Only this vehicle.")
    private static let json = Flag(long: "json", help: "Print one JSON document {\"days\":[…]}.")
    private static let csv = Flag(long: "csv", help: "Print CSV, one line per vehicle and day, with a header.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let rule = try TripRuleOptions.parse(arguments)
        let (first, last) = try days(arguments)
        if arguments.flag(json) && arguments.flag(csv) {
            throw arguments.usageError("Give '--json' or '--csv', not both")
        }
        let vehicle = try arguments.value(Self.vehicle)
        let queries = try FleetDatabaseOptions.connect(arguments)
        let reports = try FleetDatabaseOptions.ask { () throws(DatabaseError) in
            try FleetDayReport.load(queries, vehicle: vehicle, firstDay: first, lastDay: last, rule: rule)
        }
        let places =
            arguments.flag(PlaceOptions.noPlaces) || reports.isEmpty
            ? nil : PlaceOptions.geocoder(command: "nmea fleet report")
        func place(_ position: StoredPosition) -> String? {
            places?.placeName(latitude: position.latitude, longitude: position.longitude)?.label
        }
        if arguments.flag(json) {
            Console.standardOutput.write(
                String(decoding: FleetDayReport.json(reports, place: place), as: UTF8.self) + "\n")
        } else if arguments.flag(csv) {
            Console.standardOutput.write(csvText(reports, place: place))
        } else if reports.isEmpty {
            Console.standardOutput.write("No positions on those days.\n")
        } else {
            Console.standardOutput.write(table(reports, place: place))
        }
        Console.standardOutput.flush()
        places?.save()
        if let failure = Console.standardOutput.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }

    /// The first and last day (days since 1970) the options name; today without any.
    private static func days(_ arguments: ParsedArguments) throws -> (Int64, Int64) {
        let day = try arguments.value(Self.day)
        let since = try arguments.value(Self.since)
        let until = try arguments.value(Self.until)
        func dayOf(_ nanoseconds: Int64) -> Int64 { Int64(UTCDate(containing: nanoseconds).daysSinceEpoch) }
        if let day {
            guard since == nil && until == nil else {
                throw arguments.usageError("Give '--day' or '--since' and '--until', not both")
            }
            return (Int64(day.daysSinceEpoch), Int64(day.daysSinceEpoch))
        }
        let today = dayOf(WallClock.millisecondsSinceEpoch() * 1_000_000)
        let first = since.map(dayOf) ?? today
        let last = until.map(dayOf) ?? today
        guard first <= last else { throw arguments.usageError("'--since' is after '--until'") }
        guard last - first < 3660 else { throw arguments.usageError("A report covers at most 10 years") }
        return (first, last)
    }

    private static func label(_ position: StoredPosition, _ place: (StoredPosition) -> String?) -> String {
        place(position).map(TripText.printable) ?? TripText.position(position.latitude, position.longitude)
    }

    static func table(_ reports: [FleetDayReport], place: (StoredPosition) -> String?) -> String {
        var rows = [
            [
                "VEHICLE", "DAY", "DISTANCE", "DRIVING", "TRIPS", "STOPS", "MAX km/h", "EVENTS", "FIRST", "LAST",
            ]
        ]
        for report in reports {
            rows.append([
                TripText.printable(report.vehicle), report.dayText, TripText.distance(report.summary.distanceMeters),
                TripText.duration(report.summary.durationSeconds), String(report.summary.trips),
                String(report.summary.stops), DecimalFormatter.string(report.maximumSpeed * 3.6, decimals: 1),
                String(report.events),
                String(TripText.time(report.first.timestamp * 1_000_000_000).suffix(8)) + " "
                    + label(report.first, place),
                String(TripText.time(report.last.timestamp * 1_000_000_000).suffix(8)) + " "
                    + label(report.last, place),
            ])
        }
        return TripText.layout(rows, rightAligned: [2, 3, 4, 5, 6, 7])
    }

    static func csvText(_ reports: [FleetDayReport], place: (StoredPosition) -> String?) -> String {
        func quoted(_ text: String) -> String {
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacing("\"", with: "\"\"") + "\""
        }
        var out =
            "vehicle,day,distance_m,driving_s,trips,stops,max_speed_kmh,events,first_time,first_lat,first_lon,"
            + "first_place,last_time,last_lat,last_lon,last_place\n"
        for report in reports {
            var fields = [
                quoted(report.vehicle), report.dayText,
                DecimalFormatter.string(report.summary.distanceMeters, decimals: 1),
                DecimalFormatter.string(report.summary.durationSeconds, decimals: 0), String(report.summary.trips),
                String(report.summary.stops), DecimalFormatter.string(report.maximumSpeed * 3.6, decimals: 1),
                String(report.events),
            ]
            for position in [report.first, report.last] {
                fields += [
                    ISO8601.string(position.timestamp * 1_000_000_000),
                    DecimalFormatter.string(position.latitude), DecimalFormatter.string(position.longitude),
                    quoted(place(position) ?? ""),
                ]
            }
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }
}
