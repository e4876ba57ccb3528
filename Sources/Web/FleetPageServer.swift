import JSON
import NMEA
import System
import Threading

/// The page for a fleet (`nmea fleet serve --db URL --http PORT`): every vehicle's last position and place on a map
/// and in a table, and each vehicle's trips, from documents a loader reads out of the fleet database.
///
/// The loader runs on a thread of its own, once before the server answers (so the first response has the fleet in
/// it) and then every ``Configuration/refreshInterval``; requests are answered from the last documents it gave,
/// never by waiting on the database. When they change, a `fleet` event goes to every event-stream client.
///
/// **Endpoints** (read-only, `GET` and `HEAD`): `/` the page; `/api/vehicles` (as `nmea fleet last --json`);
/// `/api/trips` (as `nmea fleet trips --json`); `/api/geofences` (as `nmea fleet geofence list --json`);
/// `/api/geofence-events` (the latest, as `nmea fleet events --json`); `/api/status` (`{"database":"ok"|"…why…","refreshed":ISO}`);
/// `/api/events` (`fleet` events: `{"vehicles":…,"trips":…,"fences":…,"events":…}`, and `status`).
public final class FleetPageServer: Sendable {
    /// What the loader reads: the documents.
    public struct Documents: Sendable, Hashable {
        public var vehicles: [UInt8]
        public var trips: [UInt8]
        /// The geofences as a GeoJSON FeatureCollection (`nmea fleet geofence list --json`).
        public var fences: [UInt8]
        /// The latest geofence events, `{"events":[…]}` (as `nmea fleet events --json`).
        public var events: [UInt8]
        /// The days each vehicle made trips on, `{"days":[{"vehicle":…,"day":…,"distance_m":…,"trips":…}]}`.
        public var days: [UInt8] = Array(#"{"days":[]}"#.utf8)

        public init(
            vehicles: [UInt8], trips: [UInt8],
            fences: [UInt8] = Array(#"{"type":"FeatureCollection","features":[]}"#.utf8),
            events: [UInt8] = Array(#"{"events":[]}"#.utf8)
        ) {
            self.vehicles = vehicles
            self.trips = trips
            self.fences = fences
            self.events = events
        }
    }

    public struct Configuration: Sendable {
        public var listen: ListenAddress
        public var maxConnections = 64
        public var refreshInterval = Duration.seconds(5)
        /// Tiles under the map (see ``WebServer/Configuration/tiles``).
        public var tiles: MapTiles?
        /// The place file whose places label the map; `nil` for none.
        public var placeFile: String?

        public init(listen: ListenAddress) { self.listen = listen }
    }

    /// A stored position of a vehicle's day, for the page's replay (`/api/track?vehicle=&day=`).
    public struct DayPoint: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        /// Nanoseconds since 1970.
        public var timestamp: Int64
        /// Metres per second, when known.
        public var speed: Double?

        public init(latitude: Double, longitude: Double, timestamp: Int64, speed: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.timestamp = timestamp
            self.speed = speed
        }
    }

    /// Reads one vehicle's positions of one UTC day (`YYYY-MM-DD`), on the server's own thread.
    public typealias DayLoader = @Sendable (_ vehicle: String, _ day: String) -> Result<[DayPoint], FleetLoadError>

    struct State {
        var documents = Documents(vehicles: Array(#"{"vehicles":[]}"#.utf8), trips: Array(#"{"trips":[]}"#.utf8))
        var status: [UInt8] = Array(#"{"database":"not read yet"}"#.utf8)
        /// Day tracks read (`vehicle + "\n" + day` → the track document), at most ``dayCacheLimit``.
        var dayTracks: [String: [UInt8]] = [:]
        /// Day tracks asked for and not read yet.
        var requestedDays: Set<String> = []
    }

    /// Day tracks kept; the oldest are forgotten beyond.
    static let dayCacheLimit = 64

    private let http: HTTPServer
    private let places: MapPlaces
    private let state: Locked<State>
    private let load: @Sendable () -> Result<Documents, FleetLoadError>
    private let loadDay: DayLoader?
    private let configuration: Configuration
    private let stopping = WakeUp()
    private let poller = Locked<NativeThread?>(nil)

    /// A server whose documents come from `load`, and a vehicle's day from `loadDay` (both called on the server's
    /// own thread, never while a request waits: a day not read yet is answered 202, read, then served).
    public init(
        configuration: Configuration, load: @escaping @Sendable () -> Result<Documents, FleetLoadError>,
        loadDay: DayLoader? = nil
    ) {
        self.configuration = configuration
        self.load = load
        self.loadDay = loadDay
        let state = Locked(State())
        self.state = state
        var httpConfiguration = HTTPServer.Configuration(listen: configuration.listen)
        httpConfiguration.maxConnections = configuration.maxConnections
        let places = MapPlaces(path: configuration.placeFile)
        self.places = places
        http = HTTPServer(
            responder: FleetRoutes(state: state, map: MapRoutes(tiles: configuration.tiles, places: places)),
            configuration: httpConfiguration)
    }

    /// Reads the documents once, listens, and starts refreshing them.
    public func start() throws(ListenError) {
        refresh()
        try http.start()
        places.load()
        poller.withLock { thread in
            thread = NativeThread(name: "fleet-page") { [self] in
                var next = MonotonicTime.now() + configuration.refreshInterval
                while !stopping.wait(timeout: .milliseconds(100)) {
                    readRequestedDays()
                    if MonotonicTime.now() >= next {
                        refresh()
                        next = MonotonicTime.now() + configuration.refreshInterval
                    }
                }
            }
        }
    }

    public func stop() {
        stopping.signal()
        poller.withLock { $0 }?.join()
        http.stop()
        places.join()
    }

    public var boundAddress: ListenAddress? { http.boundAddress }
    public var statistics: HTTPServerStatistics { http.statistics }

    /// Reads the day tracks the page asked for.
    private func readRequestedDays() {
        guard let loadDay else { return }
        let requested = state.withLock { state in
            defer { state.requestedDays = [] }
            return state.requestedDays
        }
        for key in requested {
            let parts = key.split(separator: "\n", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let document: [UInt8]
            switch loadDay(parts[0], parts[1]) {
            case .success(let points): document = Self.trackDocument(points)
            case .failure(let error): document = Array(#"{"error":"#.utf8) + WebPage.quoted(error.message) + [0x7D]
            }
            state.withLock { state in
                if state.dayTracks.count >= Self.dayCacheLimit { state.dayTracks.removeAll() }
                state.dayTracks[key] = document
            }
        }
    }

    /// A day's positions as the page's track document (``WebServer``'s `/api/track`): a segment breaks where
    /// positions are more than five minutes apart.
    static func trackDocument(_ points: [DayPoint]) -> [UInt8] {
        var track = TrackPoints()
        var last: Int64?
        for point in points {
            track.append(
                TrackPoints.Point(
                    latitude: point.latitude, longitude: point.longitude, timestamp: point.timestamp,
                    speed: point.speed.map(Float.init) ?? .nan,
                    startsSegment: last.map { point.timestamp - $0 > 300_000_000_000 } ?? true),
                limit: Int.max)
            last = point.timestamp
        }
        return track.geoJSON(since: nil)
    }

    private func refresh() {
        let result = load()
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("database")
        switch result {
        case .success: json.string("ok")
        case .failure(let error): json.string(error.message)
        }
        json.key("refreshed")
        json.asciiString {
            ISO8601.write(nanosecondsSinceEpoch: WallClock.millisecondsSinceEpoch() * 1_000_000, to: $0)
        }
        json.endObject()
        let status = json.bytes
        let (changed, documents) = state.withLock { state in
            var changed = false
            if case .success(let documents) = result, documents != state.documents {
                state.documents = documents
                changed = true
            }
            state.status = status
            return (changed, state.documents)
        }
        if changed { http.publish(ServerSentEvent(name: "fleet", data: FleetRoutes.fleet(documents))) }
        http.publish(ServerSentEvent(name: "status", data: status))
    }
}

/// Why the fleet could not be read (the database is down, the schema missing…): shown on the page, which keeps
/// showing what it read last.
public struct FleetLoadError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

struct FleetRoutes: HTTPResponder {
    let state: Locked<FleetPageServer.State>
    let map: MapRoutes
    var tiles: MapTiles? { map.tiles }

    private static let paths: Set<String> = [
        "/", "/index.html", "/api/vehicles", "/api/trips", "/api/geofences", "/api/geofence-events", "/api/status",
        "/api/events", "/api/days", "/api/track", "/day.js",
    ]

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let answer = map.respond(to: request) { return .response(answer) }
        if let refusal = request.refusal(servingOnly: Self.paths) { return .response(refusal) }
        let state = state.withLock { $0 }
        switch request.path {
        case "/", "/index.html":
            var response = HTTPResponse(
                contentType: "text/html; charset=utf-8",
                body: WebPage.renderFleet(Self.fleet(state.documents), tiles: tiles, day: Self.day(of: request)))
            response.headers = [WebPage.contentSecurityPolicy(tiles: tiles), "Referrer-Policy: no-referrer"]
            return .response(response)
        case "/api/vehicles": return .response(.json(state.documents.vehicles))
        case "/api/trips": return .response(.json(state.documents.trips))
        case "/api/geofences": return .response(.json(state.documents.fences))
        case "/api/geofence-events": return .response(.json(state.documents.events))
        case "/api/status": return .response(.json(state.status))
        case "/api/days": return .response(.json(state.documents.days))
        case "/api/track": return .response(dayTrack(request))
        case "/day.js":
            // The day the page opens on (?vehicle=&day=), when read already; else null (the page asks for it).
            var body = Array("window.nmeaFleetDay = ".utf8)
            let response = Self.day(of: request) != nil ? dayTrack(request) : nil
            body += response?.status == .ok ? Array(WebPage.scriptSafe(response!.body).utf8) : Array("null".utf8)
            body += Array(";\n".utf8)
            return .response(HTTPResponse(contentType: "text/javascript; charset=utf-8", body: body))
        default:
            return .eventStream(
                initial: ServerSentEvent(name: "fleet", data: Self.fleet(state.documents)).encoded
                    + ServerSentEvent(name: "status", data: state.status).encoded)
        }
    }

    /// The vehicle and day a request names (`?vehicle=…&day=YYYY-MM-DD`), when it names both well.
    static func day(of request: HTTPRequest) -> (vehicle: String, day: String)? {
        guard let vehicle = request.queryValue("vehicle"), !vehicle.isEmpty, let day = request.queryValue("day"),
            day.count == 10, ISO8601.parseDate(day) != nil
        else { return nil }
        return (vehicle, day)
    }

    /// `/api/track?vehicle=V&day=YYYY-MM-DD`: the day's track when read, else 202 (asked for: ask again shortly).
    private func dayTrack(_ request: HTTPRequest) -> HTTPResponse {
        guard let (vehicle, day) = Self.day(of: request) else {
            return .error(.badRequest, "expected ?vehicle=NAME&day=YYYY-MM-DD")
        }
        let key = vehicle + "\n" + day
        return state.withLock { state in
            if let document = state.dayTracks[key] { return .json(document) }
            state.requestedDays.insert(key)
            var response = HTTPResponse.json(Array(#"{"pending":true}"#.utf8))
            response.status = .accepted
            response.headers = ["Retry-After: 1"]
            return response
        }
    }

    /// `{"vehicles":…,"trips":…,"fences":…,"events":…}`: the documents in one.
    static func fleet(_ documents: FleetPageServer.Documents) -> [UInt8] {
        var json = JSONWriter(
            capacity: documents.vehicles.count + documents.trips.count + documents.fences.count
                + documents.events.count + 64)
        json.beginObject()
        json.key("vehicles")
        json.raw(documents.vehicles)
        json.key("trips")
        json.raw(documents.trips)
        json.key("fences")
        json.raw(documents.fences)
        json.key("events")
        json.raw(documents.events)
        json.key("days")
        json.raw(documents.days)
        json.endObject()
        return json.bytes
    }
}
