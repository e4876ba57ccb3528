import JSON
import NMEA
import Pipeline
import System
import Threading
import Trips

/// The page in the browser: one self-contained page at `/` (HTML, CSS and JavaScript in the binary; no CDN, no
/// internet) and the JSON it reads, from a pipeline's records.
///
///     let web = try WebServer.started(pipeline: pipeline, configuration: .init(listen: address))  // before start
///     …
///     web.stop()
///
/// **Endpoints** (read-only; `GET` and `HEAD`; anything else on them is 405, other paths 404):
/// - `/` — the page, with the latest position, status and trips already in it (server-rendered), so it never shows
///   an empty state when a fix exists.
/// - `/track.js` — today's track for the page, which loads it before its script (`window.nmeaTrack = …`).
/// - `/api/position` — the latest fix with a position, as `nmea parse --fixes` writes it, plus `"place"` (the
///   offline geocoder's name, `null` without), `"dm"` (degrees and minutes), `"decimal"` and `"age_s"`; `null`
///   before the first.
/// - `/api/status` — device, connection (`searching`, `connecting`, `connected`, `unplugged`, `ended`), baud, rate,
///   fix, satellites used and in view (per system), sentences, rejected lines, fixes.
/// - `/api/track?since=ISO` — today's track (the fixes' UTC day) as GeoJSON, a feature per segment.
/// - `/api/trips` — the trips and stops so far, as `nmea trips --json` prints them.
/// - `/api/satellites` — the satellites in view of the latest complete epoch.
/// - `/api/events` — Server-Sent Events: `position`, `status`, `sky` (the satellites) and `trip` (the whole trip document); the current
///   state first. A client that falls behind gets the latest of each, never a backlog.
public final class WebServer: Sendable {
    public struct Configuration: Sendable {
        /// Where to listen (loopback unless told otherwise).
        public var listen: ListenAddress
        /// Connections served at once; the next gets a 503.
        public var maxConnections = 64
        /// Tiles drawn under the track (a tile server's, or an MBTiles file's); `nil` (the default) draws the
        /// offline places alone, needing nothing from the network.
        public var tiles: MapTiles?
        /// The place file whose places label the map (``Trips/PlaceIndex/locate()``'s); `nil` for none.
        public var placeFile: String?
        /// A directory of daily track files (`--history DIR`): `/api/days`, `/api/track?day=`, `/api/trips?day=`
        /// and the page's day picker and replay; `nil` for none.
        public var history: String?

        public init(listen: ListenAddress) { self.listen = listen }
    }

    public let pipeline: ReceiverPipeline
    private let http: HTTPServer
    private let consumer: RingConsumerLoop
    private let mapPlaces: MapPlaces
    private let history: HistoryDays?

    /// A server on `pipeline` (made before the pipeline starts, so it misses nothing), naming places through the
    /// geocoder `places` makes (on the consumer's thread; `nil` for no place names).
    public init(
        pipeline: ReceiverPipeline, configuration: Configuration,
        places: @escaping @Sendable () -> CachedGeocoder?
    ) {
        self.pipeline = pipeline
        let state = WebState()
        let mapPlaces = MapPlaces(path: configuration.placeFile)
        let history = configuration.history.map { HistoryDays(directory: $0, places: mapPlaces) }
        self.mapPlaces = mapPlaces
        self.history = history
        var httpConfiguration = HTTPServer.Configuration(listen: configuration.listen)
        httpConfiguration.maxConnections = configuration.maxConnections
        let http = HTTPServer(
            responder: WebRoutes(
                state: state, map: MapRoutes(tiles: configuration.tiles, places: mapPlaces),
                history: history),
            configuration: httpConfiguration)
        self.http = http
        consumer = RingConsumerLoop(
            WebConsumer(state: state, pipeline: pipeline, places: places, publish: { http.publish($0) }),
            name: "web", pipeline: pipeline, options: .init(batchSize: 64, idleInterval: .seconds(1)))
    }

    /// Makes and starts a server: what `nmea serve --http` and `nmea record --http` run.
    /// - Throws: ``System/ListenError`` when the address cannot be listened on.
    public static func started(
        pipeline: ReceiverPipeline, configuration: Configuration,
        places: @escaping @Sendable () -> CachedGeocoder?
    ) throws(ListenError) -> WebServer {
        let server = WebServer(pipeline: pipeline, configuration: configuration, places: places)
        try server.start()
        return server
    }

    /// Listens (errors are thrown here), then starts reading the pipeline's records, the place file and the days
    /// gone by (each on a thread of its own).
    public func start() throws(ListenError) {
        try http.start()
        mapPlaces.load()
        history?.start()
        consumer.start(threadName: "web-state")
    }

    /// Stops serving; the consumer has finished once the pipeline's ring closed, or is stopped here.
    public func stop() {
        http.stop()
        consumer.stop()
        history?.stop()
        mapPlaces.join()
    }

    /// Waits for the consumer to read the ring to its end (after the pipeline stopped), keeping the server up.
    public func finishReading() { consumer.join() }

    /// The ring consumer the page's state is read through: a replayed file can wait for it
    /// (``Pipeline/ReplayByteSource``'s `waitingFor`), so the page loses nothing of a log read at full speed.
    public var ringConsumer: RingConsumer<PipelineRecord> { consumer.ringConsumer }

    /// The address and port listened on.
    public var boundAddress: ListenAddress? { http.boundAddress }

    /// What the HTTP server has done.
    public var statistics: HTTPServerStatistics { http.statistics }
}

/// The routes: documents from ``WebState``, the page from ``WebPage``.
struct WebRoutes: HTTPResponder {
    let state: WebState
    let map: MapRoutes
    let history: HistoryDays?
    var tiles: MapTiles? { map.tiles }

    private static let paths: Set<String> = [
        "/", "/index.html", "/track.js", "/api/position", "/api/status", "/api/track", "/api/trips", "/api/satellites",
        "/api/events", "/api/days", "/api/vessels",
    ]

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let answer = map.respond(to: request) { return .response(answer) }
        if let refusal = request.refusal(servingOnly: Self.paths) { return .response(refusal) }
        if request.hasBody {
            return .response(.error(.badRequest, "A GET request takes no body"))
        }
        if let answer = respondFromHistory(to: request) { return .response(answer) }
        let snapshot = state.snapshot.withLock { $0 }
        switch request.path {
        case "/", "/index.html":
            // ?day=YYYY-MM-DD: a day gone by (with --history), when there is a track of it.
            let day = request.queryValue("day").flatMap { day in history?.day(day) != nil ? day : nil }
            var response = HTTPResponse(
                contentType: "text/html; charset=utf-8",
                body: WebPage.render(snapshot, tiles: tiles, days: history?.document(), day: day))
            response.headers = [WebPage.contentSecurityPolicy(tiles: tiles), "Referrer-Policy: no-referrer"]
            return .response(response)
        case "/track.js":
            // Today's track (or, with ?day=, a day gone by's and its trips) as a script the page loads before its
            // own, so the page is drawn whole at its load.
            var body = Array("window.nmeaTrack = ".utf8)
            if let day = request.queryValue("day"), let found = history?.day(day) {
                body += found.track
                body += Array(";\nwindow.nmeaDayTrips = ".utf8)
                body += Array(WebPage.scriptSafe(found.tripsDocument).utf8)
            } else {
                body += snapshot.track.geoJSON(since: nil)
            }
            body += Array(";\n".utf8)
            return .response(HTTPResponse(contentType: "text/javascript; charset=utf-8", body: body))
        case "/api/position":
            return .response(.json(Self.position(snapshot)))
        case "/api/status":
            return .response(.json(snapshot.status))
        case "/api/trips":
            return .response(.json(snapshot.trips))
        case "/api/satellites":
            return .response(.json(snapshot.satellites))
        case "/api/vessels":
            return .response(.json(snapshot.vessels))
        case "/api/track":
            var since: Int64?
            if let text = request.queryValue("since") {
                guard let parsed = ISO8601.parse(text) else {
                    return .response(
                        .error(.badRequest, "since: expected an ISO 8601 UTC time such as 2026-11-30T09:00:00Z"))
                }
                since = parsed
            }
            return .response(.json(snapshot.track.geoJSON(since: since)))
        default:  // "/api/events"
            return .eventStream(initial: Self.initialEvents(snapshot))
        }
    }

    /// `/api/days`, and `/api/track` and `/api/trips` with `?day=YYYY-MM-DD`: from ``HistoryDays``; `nil` for the
    /// live routes.
    private func respondFromHistory(to request: HTTPRequest) -> HTTPResponse? {
        let day = request.queryValue("day")
        guard request.path == "/api/days" || (day != nil && ["/api/track", "/api/trips"].contains(request.path)) else {
            return nil
        }
        guard let history else {
            return .error(.notFound, "Not found: \(request.path): this server has no --history DIR")
        }
        if request.path == "/api/days" { return .json(history.document()) }
        guard let day, ISO8601.parseDate(day) != nil, day.count == 10 else {
            return .error(.badRequest, "day: expected YYYY-MM-DD, such as 2026-11-30")
        }
        guard let found = history.day(day) else {
            return .error(.notFound, "No track of \(day) in \(history.directory)")
        }
        return .json(request.path == "/api/track" ? found.track : found.tripsDocument)
    }

    static func position(_ snapshot: WebState.Snapshot) -> [UInt8] {
        guard let members = snapshot.positionMembers, let readAt = snapshot.positionReadAt else {
            return Array("null".utf8)
        }
        return WebDocuments.position(members: members, readAt: readAt)
    }

    /// The state as it is: position (when there is one), status, satellites, trips.
    static func initialEvents(_ snapshot: WebState.Snapshot) -> [UInt8] {
        var bytes: [UInt8] = []
        if snapshot.positionMembers != nil {
            bytes += ServerSentEvent(name: "position", data: position(snapshot)).encoded
        }
        bytes += ServerSentEvent(name: "status", data: snapshot.status).encoded
        bytes += ServerSentEvent(name: "sky", data: snapshot.satellites).encoded
        bytes += ServerSentEvent(name: "trip", data: snapshot.trips).encoded
        bytes += ServerSentEvent(name: "vessels", data: snapshot.vessels).encoded
        return bytes
    }
}
