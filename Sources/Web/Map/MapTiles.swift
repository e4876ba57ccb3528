import JSON
import NMEA

/// The tiles under the pages' maps: a tile server's URL template, or a raster MBTiles file this server serves at
/// `/tiles/{z}/{x}/{y}`. Without either the maps draw the offline places alone and need no network.
public struct MapTiles: Sendable {
    /// What Leaflet loads: `https://tile.example.org/{z}/{x}/{y}.png`, or `/tiles/{z}/{x}/{y}` for a file.
    public let template: String
    /// Shown in the map's corner, as HTML (escaped here from the text given or the file's metadata).
    public let attribution: String
    public let minimumZoom: Int
    public let maximumZoom: Int
    /// The file behind `/tiles/`, when the tiles are one.
    let file: MBTiles?

    /// A tile server: `template` with `{z}`, `{x}` and `{y}`, credited with `attribution` (by default the
    /// OpenStreetMap contributors for openstreetmap.org's servers, else the server's host).
    public init(template: String, attribution: String? = nil) {
        self.template = template
        let origin = WebPage.origin(of: template) ?? template
        let host = origin.firstRange(of: "://").map { String(origin[$0.upperBound...]) } ?? origin
        let credit =
            attribution
            ?? (host == "openstreetmap.org" || host.hasSuffix(".openstreetmap.org")
                ? "© OpenStreetMap contributors" : "Tiles: \(host)")
        self.attribution = TextEscaping.xml(credit)
        minimumZoom = 0
        maximumZoom = 19
        file = nil
    }

    /// The tiles of an MBTiles file (opened by the caller, so that a bad file is a usage error before anything
    /// starts), credited as its metadata says unless `attribution` is given.
    public init(file: MBTiles, attribution: String? = nil) {
        template = "/tiles/{z}/{x}/{y}"
        let credit = attribution ?? file.attribution ?? "Tiles: \(file.name ?? "MBTiles file")"
        // The metadata's attribution is HTML by the specification; a text given here is text.
        self.attribution = attribution == nil && file.attribution != nil ? credit : TextEscaping.xml(credit)
        minimumZoom = file.minimumZoom ?? 0
        maximumZoom = file.maximumZoom ?? 19
        self.file = file
    }

    /// `{"url":…,"attribution":…,"minzoom":…,"maxzoom":…}` for the pages' scripts.
    var json: [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("url")
        json.string(template)
        json.key("attribution")
        json.string(attribution)
        json.key("minzoom")
        json.number(minimumZoom)
        json.key("maxzoom")
        json.number(maximumZoom)
        json.endObject()
        return json.bytes
    }

    /// The origin the page may load images from besides itself: the tile server's, `nil` for a file.
    var imageOrigin: String? { file == nil ? WebPage.origin(of: template) : nil }
}
