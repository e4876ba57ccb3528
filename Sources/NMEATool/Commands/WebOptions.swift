import Pipeline
import System
import Trips
import Web

/// `--http [ADDR:]PORT`, `--tiles URL` and `--exit-at-end`: the page in the browser (`serve`, `record`).
struct WebOptions {
    /// The options, declared once.
    static let options: [OptionSpec] =
        [
            OptionSpec(
                long: "http", valueName: "[addr:]port",
                help: "Also serve the page (position, status, track, trips, satellites) and its JSON API here "
                    + "(127.0.0.1 unless an address is given).")
        ] + serverOptions + [
            OptionSpec(
                long: "exit-at-end",
                help: "With --http, exit when a replayed log ends instead of keeping the page up until SIGINT/SIGTERM.")
        ]

    /// How the page's server serves: shared with `fleet serve`, whose page has no replay to end.
    static let serverOptions: [OptionSpec] = [
        OptionSpec(
            long: "http-max-clients", valueName: "n",
            help: "With --http, browsers and API clients served at once; the next gets a 503.", defaultValue: "64"),
        OptionSpec(
            long: "tiles", valueName: "url",
            help: "With --http, draw map tiles from this URL template under the map "
                + "(https://tile.example.org/{z}/{x}/{y}.png); without it the page needs no network."),
    ]

    var listen: ListenAddress?
    var maxClients = 64
    var tiles: String?
    var exitsAtEnd = false

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let text = arguments.value("http") {
            guard let address = ListenAddress(parsing: text) else {
                throw arguments.invalid(text, for: "http", because: "expected [ADDR:]PORT")
            }
            listen = address
        }
        if arguments.value("http-max-clients") != nil {
            guard listen != nil else {
                throw arguments.usageError("--http-max-clients is about the page: it needs --http")
            }
            maxClients = try arguments.integer("http-max-clients", default: 64, in: 1...4096)
        }
        if let tiles = arguments.value("tiles") {
            guard listen != nil else { throw arguments.usageError("--tiles draws the page's map: it needs --http") }
            guard tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}"),
                tiles.hasPrefix("http://") || tiles.hasPrefix("https://")
            else {
                throw arguments.invalid(
                    tiles, for: "tiles", because: "expected an http(s) URL with {z}, {x} and {y} in it")
            }
            self.tiles = tiles
        }
        exitsAtEnd = arguments.flag("exit-at-end")
        if exitsAtEnd && listen == nil {
            throw arguments.usageError("--exit-at-end is about the page: it needs --http")
        }
    }

    /// Whether the command keeps running after a replayed log has ended.
    var keepsServingAtEnd: Bool { listen != nil && !exitsAtEnd }

    /// Starts the page's server on `pipeline` (before the pipeline starts), saying where on `console`.
    func start(on pipeline: ReceiverPipeline, command: String, console: StatusLine) throws(RuntimeError) -> WebServer? {
        guard let listen else { return nil }
        var configuration = WebServer.Configuration(listen: listen)
        configuration.tiles = tiles
        configuration.maxConnections = maxClients
        do {
            let server = try WebServer.started(
                pipeline: pipeline, configuration: configuration,
                places: { TripsCommand.makeGeocoder(command: command) })
            let bound = server.boundAddress ?? listen
            console.print("the page is at http://\(bound)/")
            return server
        } catch {
            throw RuntimeError(error.description)
        }
    }
}
