import Pipeline
import System
import Trips
import Web

/// `--http [ADDR:]PORT`, `--tiles URL|FILE.mbtiles`, `--tiles-attribution` and `--exit-at-end`: the page in the
/// browser (`serve`, `record`; `fleet serve` shares the server's options).
struct WebOptions {
    /// `--http`: where the page is served.
    static let http = httpOption(
        help: "Also serve the page (position, status, track, trips, satellites) and its JSON API here "
            + "(127.0.0.1 unless an address is given).")
    private static let maxClients = Option<Int>(
        long: "http-max-clients", valueName: "n",
        help: "With --http, browsers and API clients served at once; the next gets a 503.", default: 64,
        in: 1...4096)
    private static let tiles = Option<String?>(
        long: "tiles", valueName: "url|file",
        help: "With --http, draw map tiles under the map: a raster MBTiles file served from here (offline), or a "
            + "tile server's URL template (https://tile.example.org/{z}/{x}/{y}.png); without it the map shows the "
            + "offline places and needs no network.", completion: .file
    ) { tiles throws(ValueError) in
        if tiles.hasPrefix("http://") || tiles.hasPrefix("https://") {
            guard tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}") else {
                throw .invalid(tiles, because: "expected an http(s) URL with {z}, {x} and {y} in it")
            }
        } else if !tiles.hasSuffix(".mbtiles") {
            throw .invalid(tiles, because: "expected an http(s) URL template or an .mbtiles file")
        }
        return tiles
    }
    private static let tilesAttribution = Option<String?>(
        long: "tiles-attribution", valueName: "text",
        help: "With --tiles, the credit shown on the map (by default the MBTiles file's, '© OpenStreetMap "
            + "contributors' for openstreetmap.org, else the tile server's host).")
    private static let history = Option<String?>(
        long: "history", valueName: "dir",
        help: "With --http, the days gone by: a directory of daily track files (record --rotate daily's GPX, or any "
            + "GPX or GeoJSON of ours) that the page lists with their distance and trips and replays.",
        completion: .directory)
    private static let exitAtEnd = Flag(
        long: "exit-at-end",
        help: "With --http, exit when a replayed log ends instead of keeping the page up until SIGINT/SIGTERM.")

    /// The options, declared once.
    static let options: [any OptionDeclaration] = [http] + serverOptions + [history, exitAtEnd]

    /// How the page's server serves: shared with `fleet serve`, whose page has no replay to end.
    static let serverOptions: [any OptionDeclaration] = [maxClients, tiles, tilesAttribution]

    /// `--http [ADDR:]PORT` with a command's own help (`fleet serve`'s is required).
    static func httpOption(help: String, isRequired: Bool = false) -> Option<ListenAddress?> {
        Option<ListenAddress?>(
            long: "http", valueName: "[addr:]port", help: help, isRequired: isRequired
        ) { text throws(ValueError) in
            guard let address = ListenAddress(parsing: text) else {
                throw .invalid(text, because: "expected [ADDR:]PORT")
            }
            return address
        }
    }

    var listen: ListenAddress?
    var maxClients = 64
    var tiles: MapTiles?
    var history: String?
    var exitsAtEnd = false

    /// The options given; `http` is the command's `--http`, `hasReplay` whether it has `--exit-at-end`.
    init(_ arguments: ParsedArguments, http: Option<ListenAddress?> = Self.http, hasReplay: Bool = true)
        throws(UsageError)
    {
        listen = try arguments.value(http)
        if arguments.isGiven(Self.maxClients) {
            guard listen != nil else {
                throw arguments.usageError("--http-max-clients is about the page: it needs --http")
            }
            maxClients = try arguments.value(Self.maxClients)
        }
        if arguments.isGiven(Self.tiles) {
            guard listen != nil else { throw arguments.usageError("--tiles draws the page's map: it needs --http") }
            let attribution = try arguments.value(Self.tilesAttribution)
            tiles = try Self.mapTiles(try arguments.value(Self.tiles) ?? "", attribution: attribution, arguments)
        } else if arguments.isGiven(Self.tilesAttribution) {
            throw arguments.usageError("--tiles-attribution credits the tiles: it needs --tiles")
        }
        if hasReplay, arguments.isGiven(Self.history) {
            guard listen != nil else { throw arguments.usageError("--history is shown on the page: it needs --http") }
            let directory = try arguments.value(Self.history) ?? ""
            guard (try? FileStatus(path: directory))?.kind == .directory else {
                throw arguments.usageError("--history \(directory): no such directory")
            }
            history = directory
        }
        exitsAtEnd = hasReplay && arguments.flag(Self.exitAtEnd)
        if exitsAtEnd && listen == nil {
            throw arguments.usageError("--exit-at-end is about the page: it needs --http")
        }
    }

    /// The tiles `--tiles` names: a URL template, or an MBTiles file opened now (a file that is no MBTiles, or holds
    /// vector tiles, is a usage error before anything starts).
    private static func mapTiles(_ tiles: String, attribution: String?, _ arguments: ParsedArguments)
        throws(UsageError) -> MapTiles
    {
        if tiles.hasPrefix("http://") || tiles.hasPrefix("https://") {
            return MapTiles(template: tiles, attribution: attribution)
        }
        guard (try? FileStatus(path: tiles))?.kind == .regular else {
            throw arguments.usageError("--tiles \(tiles): no such file")
        }
        do {
            return MapTiles(file: try MBTiles(path: tiles), attribution: attribution)
        } catch {
            throw arguments.usageError("--tiles \(error.description)")
        }
    }

    /// Whether the command keeps running after a replayed log has ended.
    var keepsServingAtEnd: Bool { listen != nil && !exitsAtEnd }

    /// Starts the page's server on `pipeline` (before the pipeline starts), saying where on `console`.
    func start(on pipeline: ReceiverPipeline, command: String, console: StatusLine) throws(RuntimeError) -> WebServer? {
        guard let listen else { return nil }
        var configuration = WebServer.Configuration(listen: listen)
        configuration.tiles = tiles
        configuration.placeFile = PlaceIndex.locate()
        configuration.history = history
        configuration.maxConnections = maxClients
        do {
            let server = try WebServer.started(
                pipeline: pipeline, configuration: configuration,
                places: { PlaceOptions.geocoder(command: command) })
            let bound = server.boundAddress ?? listen
            console.print("the page is at http://\(bound)/")
            return server
        } catch {
            throw RuntimeError(error.description)
        }
    }
}
