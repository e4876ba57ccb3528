import System
import Threading
import Trips

/// What both pages' servers answer for their maps: Leaflet (`/leaflet.js`), the offline places for a view
/// (`/api/places?bbox=WEST,SOUTH,EAST,NORTH&zoom=Z`, and as a script, `/places.js?…`, which the page's load waits
/// for), and the tiles of an MBTiles file (`/tiles/{z}/{x}/{y}`).
struct MapRoutes: Sendable {
    let tiles: MapTiles?
    let places: MapPlaces

    private static let paths: Set<String> = [Leaflet.path, "/places.js", "/api/places"]
    private static let script = Array(Leaflet.script.utf8)

    /// The answer when `request` is for one of these paths; `nil` when it is for the page's own routes.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        guard Self.paths.contains(path) || path.hasPrefix("/tiles/") else { return nil }
        guard request.method == "GET" || request.isHead else {
            return .error(
                .methodNotAllowed, "\(request.method) is not allowed: this server is read-only",
                headers: ["Allow: GET, HEAD"])
        }
        switch path {
        case Leaflet.path:
            return HTTPResponse(
                contentType: "text/javascript; charset=utf-8", body: Self.script, headers: [Leaflet.cacheControl])
        case "/api/places", "/places.js":
            guard let view = MapView(bbox: request.queryValue("bbox") ?? "", zoom: request.queryValue("zoom") ?? "")
            else {
                return .error(
                    .badRequest,
                    "expected bbox=WEST,SOUTH,EAST,NORTH (degrees, south below north) and zoom=0…24, "
                        + "such as ?bbox=11.2,47.9,12.2,48.5&zoom=10")
            }
            let document = PlaceLabelJSON.document(places.labels(in: view), zoom: view.zoom)
            if path == "/api/places" { return .json(document) }
            let script = "window.nmeaPlaces && window.nmeaPlaces(" + WebPage.scriptSafe(document) + ");\n"
            return HTTPResponse(contentType: "text/javascript; charset=utf-8", body: Array(script.utf8))
        default:
            return tile(path)
        }
    }

    /// `/tiles/Z/X/Y` (an extension after Y is allowed): the file's tile, or 404.
    private func tile(_ path: String) -> HTTPResponse {
        let parts = path.dropFirst("/tiles/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard let file = tiles?.file else {
            return .error(.notFound, "Not found: \(path). This server has no tile file (--tiles FILE.mbtiles)")
        }
        guard parts.count == 3, let zoom = Int(parts[0]), let x = Int(parts[1]),
            let y = Int(parts[2].prefix { $0 != "." }), let tile = file.tile(zoom: zoom, x: x, y: y)
        else {
            return .error(.notFound, "Not found: \(path): no such tile in \(file.path)")
        }
        return HTTPResponse(contentType: file.contentType, body: tile, headers: [Leaflet.cacheControl])
    }
}

/// The offline places the maps label, loaded from the place file on a thread of its own as the server starts
/// (``load()``), so the socket thread never reads the file: a request in the first moments waits for the load.
final class MapPlaces: Sendable {
    private let path: String?
    private let index = Locked<PlaceIndex??>(nil)
    private let loader = Locked<NativeThread?>(nil)

    /// Places from the file at `path`; `nil` for none (every view then has no labels).
    init(path: String?) { self.path = path }

    /// Starts loading the file (at most once).
    func load() {
        loader.withLock { loader in
            guard loader == nil, path != nil else { return }
            // The lock is taken here and released when loaded: a request meanwhile waits for it.
            let started = WakeUp()
            loader = NativeThread(name: "places") { [self] in
                index.withLock { index in
                    started.signal()
                    if index == nil { index = .some(path.flatMap { try? PlaceIndex(path: $0) }) }
                }
            }
            started.wait(timeout: .seconds(5))
        }
    }

    /// Waits for the loading thread (when the server stops).
    func join() { loader.withLock { $0 }?.join() }

    /// The labels for `view` (``Trips/PlaceIndex/labels(in:)``: the rule `nmea plot` shares).
    func labels(in view: MapView) -> [Place] { loaded()?.labels(in: view) ?? [] }

    /// A geocoder over the places (the days gone by name their trips' ends with it), `nil` without them.
    func geocoder() -> OfflineGeocoder? { loaded().map { OfflineGeocoder(index: $0) } }

    /// The places, once loaded (loading them here when ``load()`` was not called).
    private func loaded() -> PlaceIndex? {
        index.withLock { index -> PlaceIndex? in
            if let index { return index }
            let opened = path.flatMap { try? PlaceIndex(path: $0) }
            index = .some(opened)
            return opened
        }
    }
}
