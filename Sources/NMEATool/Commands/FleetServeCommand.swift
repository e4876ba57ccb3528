import Fleet
import NMEA
import System
import Trips
import Web

/// `nmea fleet serve`: the page for a fleet, from the database `nmea collect --db` fills.
enum FleetServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve a page with every vehicle's last position and place, and the trips.",
        discussion: """
            The page for a browser that 'nmea serve --http' serves for one receiver, for a fleet: a map and a table \
            of every vehicle's last position, its age and the nearest place, and the stored trips with their \
            places (click a vehicle for its own). The database is read every --refresh seconds on a thread of its \
            own, and the page is answered from what was read last, so a slow or unreachable database never holds \
            up a browser (the page says when the database could not be read). Listens on 127.0.0.1 unless --http \
            names an address; /api/vehicles and /api/trips serve what 'nmea fleet last --json' and \
            'nmea fleet trips --json' print, /api/events a 'fleet' event when they change. Runs until SIGINT or \
            SIGTERM.
            """,
        options: [FleetDatabaseOptions.database, http, refresh] + WebOptions.serverOptions + [PlaceOptions.noPlaces],
        examples: ["nmea fleet serve --db postgresql://fleet@localhost/fleet --http 0.0.0.0:8080"])

    private static let http = WebOptions.httpOption(help: "Where to serve the page.", isRequired: true)
    private static let refresh = Option<Double>(
        long: "refresh", valueName: "seconds", help: "How often the database is read.", default: 5, in: 0.1...86_400)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let web = try WebOptions(arguments, http: http, hasReplay: false)
        guard let listen = web.listen else { throw arguments.usageError("--http [ADDR:]PORT is required") }
        let refresh = try arguments.value(Self.refresh)
        let queries = try FleetDatabaseOptions.connect(arguments)
        let usesPlaces = !arguments.flag(PlaceOptions.noPlaces)
        StopSignal.install()
        var configuration = FleetPageServer.Configuration(listen: listen)
        configuration.refreshInterval = .milliseconds(Int64(refresh * 1000))
        configuration.maxConnections = web.maxClients
        configuration.tiles = web.tiles
        configuration.placeFile = usesPlaces ? PlaceIndex.locate() : nil
        let loader = FleetLoader(queries: queries, usesPlaces: usesPlaces)
        let server = FleetPageServer(
            configuration: configuration, load: { loader.load() }, loadDay: { loader.day(vehicle: $0, day: $1) })
        do {
            try server.start()
        } catch {
            throw RuntimeError(error.description)
        }
        let console = StatusLine(prefix: "nmea fleet serve: ", enabled: false)
        console.print("the page is at http://\(server.boundAddress ?? listen)/")
        while !StopSignal.wait(timeout: .milliseconds(250)) {}
        if let signal = StopSignal.received { console.print("stopping (\(StopSignal.name(signal)))") }
        server.stop()
        loader.save()
        let statistics = server.statistics
        console.print("\(statistics.requests) requests, \(statistics.eventStreams) event streams")
        return ExitStatus.success
    }
}

/// Reads the two documents on the page server's thread: one connection and one geocoder, used by that thread only.
private final class FleetLoader: @unchecked Sendable {
    private let queries: FleetQueries
    private let usesPlaces: Bool
    private var places: CachedGeocoder??

    init(queries: FleetQueries, usesPlaces: Bool) {
        self.queries = queries
        self.usesPlaces = usesPlaces
    }

    func load() -> Result<FleetPageServer.Documents, FleetLoadError> {
        do throws(DatabaseError) {
            let vehicles = try queries.lastPositions()
            let trips = try queries.trips(vehicle: nil, since: nil, until: nil)
            if places == nil {
                places = .some(usesPlaces ? PlaceOptions.geocoder(command: "nmea fleet serve") : nil)
            }
            let geocoder = places ?? nil
            let vehiclesJSON = FleetJSON.vehicles(vehicles) { position in
                geocoder?.placeName(latitude: position.latitude, longitude: position.longitude)?.label
            }
            var documents = FleetPageServer.Documents(vehicles: vehiclesJSON, trips: FleetJSON.trips(trips))
            documents.days = FleetJSON.days(trips)
            // A schema older than version 3 (no collector of this version has run on it) has no geofences yet.
            let fences = GeofenceStore(queries.database)
            if let list = try? fences.list() { documents.fences = FleetJSON.fences(list) }
            if let events = try? fences.events(vehicle: nil, since: nil, limit: 50) {
                documents.events = FleetJSON.events(events)
            }
            return .success(documents)
        } catch {
            return .failure(FleetLoadError("the database could not be read: \(error.message)"))
        }
    }

    /// One vehicle's stored positions of one UTC day (as `nmea fleet track --day` writes them).
    func day(vehicle: String, day: String) -> Result<[FleetPageServer.DayPoint], FleetLoadError> {
        guard let date = ISO8601.parseDate(day) else { return .failure(FleetLoadError("not a day: \(day)")) }
        let start = Int64(date.daysSinceEpoch) * 86_400
        do throws(DatabaseError) {
            let positions = try queries.track(vehicle: vehicle, from: start, to: start + 86_400)
            return .success(
                positions.map {
                    FleetPageServer.DayPoint(
                        latitude: $0.latitude, longitude: $0.longitude, timestamp: $0.timestamp * 1_000_000_000,
                        speed: $0.speed)
                })
        } catch {
            return .failure(FleetLoadError("the database could not be read: \(error.message)"))
        }
    }

    func save() {
        if case .some(.some(let places)) = places { places.save() }
    }
}
