import Glibc
import System
import TestSupport
import Testing

@testable import Web

/// The map's routes without a browser: the embedded Leaflet is Debian's, the places answer, the tiles of a file.
@Suite struct MapRoutesTests {
    static let debianLeaflet = "/usr/share/javascript/leaflet"

    static func get(_ routes: MapRoutes, _ target: String, method: String = "GET") -> HTTPResponse? {
        let head = "\(method) \(target) HTTP/1.1\r\nHost: x\r\n\r\n"
        let parsed = Array(head.utf8).withUnsafeBytes { HTTPRequest.parse($0, limit: 8192) }
        guard case .request(let request, _) = parsed else { return nil }
        return routes.respond(to: request)
    }

    @Test(
        .enabled(
            if: access(debianLeaflet + "/leaflet.min.js", R_OK) == 0,
            "libjs-leaflet is not installed (scripts/test-packages.txt): the embedded copy is not compared"))
    func theEmbeddedLeafletIsDebiansByteForByte() throws {
        let script = try #require(readFile(Self.debianLeaflet + "/leaflet.min.js"))
        let style = try #require(readFile(Self.debianLeaflet + "/leaflet.css"))
        #expect(Array(Leaflet.script.utf8) == script)
        #expect(Array(Leaflet.style.utf8) == style)
        let routes = MapRoutes(tiles: nil, places: MapPlaces(path: nil))
        let served = try #require(Self.get(routes, "/leaflet.js"))
        #expect(served.body == script)
        #expect(served.contentType == "text/javascript; charset=utf-8")
        #expect(served.headers == ["Cache-Control: public, max-age=86400"])
    }

    @Test func placesAnswerForAViewAndRefuseABadOne() throws {
        let routes = MapRoutes(
            tiles: nil, places: MapPlaces(path: Locations.packageRoot + "/Resources/places.bin"))
        let places = try #require(Self.get(routes, "/api/places?bbox=11.2,47.95,12.3,48.55&zoom=10"))
        #expect(places.status == .ok)
        #expect(
            String(decoding: places.body, as: UTF8.self).hasPrefix(
                #"{"zoom":10,"places":[{"name":"Munich","lat":48.13743,"lon":11.57549,"population":1260000,"rank":1},"#)
        )
        let script = try #require(Self.get(routes, "/places.js?bbox=11.2,47.95,12.3,48.55&zoom=10"))
        #expect(script.body == Array("window.nmeaPlaces && window.nmeaPlaces(".utf8) + places.body + Array(");\n".utf8))
        #expect(Self.get(routes, "/api/places?bbox=1,2,3&zoom=10")?.status == .badRequest)
        #expect(Self.get(routes, "/api/places?bbox=11.2,47.95,12.3,48.55")?.status == .badRequest)
        #expect(Self.get(routes, "/api/places", method: "POST")?.status == .methodNotAllowed)
        // Without a place file: no labels, not an error.
        let none = MapRoutes(tiles: nil, places: MapPlaces(path: nil))
        #expect(Self.get(none, "/api/places?bbox=0,0,1,1&zoom=3")?.body == Array(#"{"zoom":3,"places":[]}"#.utf8))
        #expect(Self.get(none, "/tiles/1/0/0")?.status == .notFound)
        #expect(Self.get(none, "/api/position") == nil)  // the page's own routes
    }

    @Test func theTileSourcesCreditTheirTiles() {
        let osm = MapTiles(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect(osm.attribution == "© OpenStreetMap contributors")
        #expect(osm.imageOrigin == "https://tile.openstreetmap.org")
        let other = MapTiles(template: "https://tiles.example.org/{z}/{x}/{y}.png")
        #expect(other.attribution == "Tiles: tiles.example.org")
        let given = MapTiles(template: "http://10.0.0.2:8080/{z}/{x}/{y}.png", attribution: "Ours <b>")
        #expect(given.attribution == "Ours &lt;b&gt;")
        #expect(
            String(decoding: given.json, as: UTF8.self).hasPrefix(#"{"url":"http://10.0.0.2:8080/{z}/{x}/{y}.png","#))
    }
}
