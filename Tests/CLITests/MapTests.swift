import Glibc
import System
import TestSupport
import Testing

/// The maps (issue 31): the page's Leaflet map over the offline places, following zoom and pan; tiles from an
/// MBTiles file under the track; `nmea plot` naming the places the page names for the same view.
@Suite(.serialized) struct MapTests {
    static var hasChromium: Bool { Tools.available("chromium") }
    static var hasPython: Bool { Tools.available("python3") }
    static let artifacts = Locations.packageRoot + "/.build/test-artifacts"

    /// A place label: its name and where it is, from the page's DOM or the plot's SVG.
    struct Label: Hashable {
        var name: String
        var latitude: Double
        var longitude: Double
    }

    /// The place labels in a page's DOM (`<div class="place" data-name=… data-lat=… data-lon=…>`), in order.
    static func pageLabels(_ dom: String) -> [Label] {
        dom.allMatches(between: "<div class=\"place", and: ">").compactMap { attributes in
            guard let name = attributes.value(of: "data-name"), let lat = attributes.value(of: "data-lat"),
                let lon = attributes.value(of: "data-lon"), let latitude = Double(lat), let longitude = Double(lon)
            else { return nil }
            return Label(name: name, latitude: latitude, longitude: longitude)
        }
    }

    /// The labels `/api/places?QUERY` answers, in order.
    static func apiLabels(port: UInt16, _ query: String) throws -> [Label] {
        let body = try RawHTTP.get(port: port, "/api/places?" + query).body
        return body.allMatches(between: "{\"name\":\"", and: "}").compactMap { object in
            let name = String(object.prefix { $0 != "\"" })
            guard let lat = object.allMatches(between: "\"lat\":", and: ",").first.flatMap(Double.init),
                let lon = object.allMatches(between: "\"lon\":", and: ",").first.flatMap(Double.init)
            else { return nil }
            return Label(name: name, latitude: lat, longitude: lon)
        }
    }

    /// The query of the view the page drew its places for (`data-view` on the map).
    static func pageView(_ dom: String) -> String? {
        dom.allMatches(between: "data-view=\"", and: "\"").first?.replacing("&amp;", with: "&")
    }

    // MARK: Places on the page

    @Test(.enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func thePageLabelsPlacesNearTheTrackAndNoneFromAcrossTheWorld() throws {
        let served = try WebPageTests.Served()
        #expect(served.waitForTheEnd())
        let dom = try WebPageTests.chromium(
            ["--dump-dom", "--window-size=1280,900"], url: "http://127.0.0.1:\(served.port)/",
            directory: served.directory)
        #expect(dom.contains("<body data-ready=\"1\">"))
        let labels = Self.pageLabels(dom)
        // The commute runs from Munich (48.14, 11.58) to Eitting (48.36, 11.89): every label is within 60 km of
        // the track's middle, and Munich, the largest, is the first.
        #expect(labels.count >= 3, "\(labels)")
        #expect(labels.first?.name == "Munich")
        for label in labels {
            #expect(
                abs(label.latitude - 48.25) < 0.55 && abs(label.longitude - 11.73) < 0.85,
                "\(label) is far from the track")
        }
        // What the page drew is what /api/places answers for its view: the rule nmea plot uses too.
        let view = try #require(Self.pageView(dom))
        #expect(try Self.apiLabels(port: served.port, view) == labels)
        // The map's furniture: Leaflet's zoom buttons, the scale, the north arrow, our buttons, the credits.
        #expect(dom.contains("leaflet-control-zoom-in") && dom.contains("leaflet-control-scale"))
        #expect(dom.contains("id=\"north-arrow\"") && dom.contains("id=\"follow\"") && dom.contains("id=\"fit\""))
        #expect(dom.contains("GeoNames</a> (CC BY 4.0)"))
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func zoomingAndPanningChangeThePlacesShown() throws {
        let served = try WebPageTests.Served()
        #expect(served.waitForTheEnd())
        // The view in the address (`#map=ZOOM/LAT/LON`) is set through Leaflet's setView, as a shared link would.
        func labels(_ hash: String) throws -> (labels: [Label], view: String) {
            let dom = try WebPageTests.chromium(
                ["--dump-dom", "--window-size=1280,900"], url: "http://127.0.0.1:\(served.port)/#map=\(hash)",
                directory: served.directory)
            let view = try #require(Self.pageView(dom), "no view in \(hash)")
            #expect(view.hasSuffix("&zoom=" + String(hash.prefix { $0 != "/" })), "\(view)")
            let labels = Self.pageLabels(dom)
            #expect(try Self.apiLabels(port: served.port, view) == labels, "\(hash)")
            return (labels, view)
        }
        let middle = try labels("10/48.25/11.73")
        let zoomedIn = try labels("12/48.25/11.73")
        let zoomedOut = try labels("8/48.25/11.73")
        let panned = try labels("12/48.25/12.03")
        let names = { (labels: [Label]) in Set(labels.map(\.name)) }
        // Zoomed out: Munich among the few largest, and fewer places near the middle; zoomed in: villages the
        // middle view leaves out, and nothing from beyond its smaller view.
        #expect(names(zoomedOut.labels).contains("Munich"))
        #expect(!names(zoomedIn.labels).contains("Munich"))
        #expect(!names(zoomedIn.labels).subtracting(names(middle.labels)).isEmpty)
        for label in zoomedIn.labels {
            #expect(abs(label.latitude - 48.25) < 0.12 && abs(label.longitude - 11.73) < 0.25, "\(label)")
        }
        // Panned 0.3° east: the view moved by as much, and it shows other places.
        #expect(panned.labels.allSatisfy { $0.longitude > 11.73 }, "\(panned.labels)")
        #expect(names(panned.labels) != names(zoomedIn.labels))
        #expect(!names(panned.labels).isEmpty && !names(zoomedIn.labels).isEmpty)
    }

    // MARK: Tiles from an MBTiles file

    /// A raster MBTiles file (made with Python's sqlite3, as a user's tool would) with one 256×256 PNG of
    /// `color` for every tile of zooms 0 to 8 over southern Bavaria, and a differently colored tile at
    /// zoom 3, column 4, TMS row 5 (XYZ row 2).
    static func makeMBTiles(_ path: String, color: (Int, Int, Int)) throws {
        let script = """
            import sqlite3, struct, sys, zlib
            def png(r, g, b):
                raw = b"".join(b"\\x00" + bytes([r, g, b]) * 256 for _ in range(256))
                def chunk(kind, data):
                    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
                return (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0))
                        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            db = sqlite3.connect(sys.argv[1])
            db.executescript("CREATE TABLE metadata (name text, value text);"
                             "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);"
                             "CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);")
            for name, value in [("name", "Test colour"), ("format", "png"), ("minzoom", "0"), ("maxzoom", "8"),
                                ("attribution", "Colour test tiles")]:
                db.execute("INSERT INTO metadata VALUES (?, ?)", (name, value))
            tile = png(\(color.0), \(color.1), \(color.2))
            import math
            for z in range(9):
                n = 2 ** z
                def column(lon): return int((lon + 180) / 360 * n)
                def row(lat):
                    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2
                    return int(y * n)
                for x in range(column(10.5), column(13.0) + 1):
                    for y in range(row(48.9), row(47.6) + 1):
                        if (z, x, n - 1 - y) != (3, 4, 5):
                            db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, n - 1 - y, tile))
            db.execute("INSERT OR REPLACE INTO tiles VALUES (3, 4, 5, ?)", (png(1, 2, 3),))
            db.commit()
            """
        let outcome = try ChildProcess.run(["python3", "-c", script, path])
        #expect(outcome.status == 0, "\(outcome.error)")
    }

    /// How many pixels of a PNG screenshot have exactly `color`, counted by Python's zlib (the PNG's rows
    /// unfiltered), and the pixels in all.
    static func count(_ color: (Int, Int, Int), in png: String) throws -> (matching: Int, all: Int) {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], "rb").read()
            pos, idat, width, height = 8, b"", 0, 0
            while pos < len(data):
                length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b"IHDR":
                    width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
                    channels = {2: 3, 6: 4}[ctype]
                if kind == b"IDAT": idat += body
                pos += 12 + length
            raw, stride, prev, rows, i = zlib.decompress(idat), width * channels, None, [], 0
            for _ in range(height):
                f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
                for x in range(stride):
                    a = line[x - channels] if x >= channels else 0
                    b = prev[x] if prev is not None else 0
                    c = prev[x - channels] if prev is not None and x >= channels else 0
                    if f == 1: line[x] = (line[x] + a) & 255
                    elif f == 2: line[x] = (line[x] + b) & 255
                    elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                    elif f == 4:
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                rows.append(bytes(line)); prev = line
            want = bytes([int(v) for v in sys.argv[2:5]])
            matching = sum(1 for row in rows for x in range(0, stride, channels) if row[x:x + 3] == want)
            print(matching, width * height)
            """
        let outcome = try ChildProcess.run(
            ["python3", "-c", script, png, "\(color.0)", "\(color.1)", "\(color.2)"], timeout: .seconds(300))
        let numbers = outcome.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 2 else { return (0, 0) }
        return (numbers[0], numbers[1])
    }

    @Test(
        .enabled(if: BuiltExecutables.hasNMEA && hasChromium && hasPython, "needs the built nmea, chromium, python3"))
    func tilesFromAnMBTilesFileAreServedAndDrawnUnderTheTrack() throws {
        let directory = TemporaryDirectory("mbtiles")
        defer { directory.remove() }
        let file = directory.file("colour.mbtiles")
        let colour = (186, 140, 250)
        try Self.makeMBTiles(file, color: colour)
        let served = try WebPageTests.Served(["--tiles", file])
        #expect(served.waitForTheEnd(), "\(served.process.error)")

        // The tile server: XYZ rows (the file's TMS row 5 at zoom 3 is row 2), the file's bytes, cached a day.
        let tile = try RawHTTP.get(port: served.port, "/tiles/3/4/2")
        #expect(tile.status == 200)
        #expect(tile.header("Content-Type") == "image/png")
        #expect(tile.header("Cache-Control") == "public, max-age=86400")
        let other = try RawHTTP.get(port: served.port, "/tiles/8/136/88")
        #expect(other.status == 200 && other.body != tile.body)
        #expect(try RawHTTP.get(port: served.port, "/tiles/3/4/5").status == 404)
        #expect(try RawHTTP.get(port: served.port, "/tiles/9/0/0").status == 404)
        #expect(try RawHTTP.get(port: served.port, "/tiles/a/b/c").status == 404)
        let page = try RawHTTP.get(port: served.port, "/")
        #expect(page.header("Content-Security-Policy")?.contains("img-src 'self' data:;") == true)
        #expect(page.body.contains(#""tiles":{"url":"/tiles/{z}/{x}/{y}","attribution":"Colour test tiles","#))

        // In the browser: the map is the tiles' colour where the track is not, the track over it.
        _ = try? Directory.create(Self.artifacts)
        let path = Self.artifacts + "/map-mbtiles-1280x900.png"
        unlink(path)
        _ = try WebPageTests.chromium(
            ["--screenshot=\(path)", "--window-size=1280,900", "--hide-scrollbars"],
            url: "http://127.0.0.1:\(served.port)/", directory: served.directory)
        let pixels = try Self.count(colour, in: path)
        #expect(pixels.all == 1280 * 900)
        // The map is about 800×420 of the 1280×900: a quarter of the screenshot, less the labels and the track.
        #expect(Double(pixels.matching) > 0.2 * Double(pixels.all), "\(pixels)")
        let track = try Self.count((217, 45, 32), in: path)  // ≥ 90 km/h, #d92d20
        #expect(track.matching > 200, "the track is not drawn over the tiles: \(track)")
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func aTilesFileThatIsNoMBTilesIsAUsageError() throws {
        let directory = TemporaryDirectory("bad-mbtiles")
        defer { directory.remove() }
        let file = directory.file("bad.mbtiles")
        _ = try ChildProcess.run(["sh", "-c", "echo not sqlite > '\(file)'"])
        let outcome = try Tool.run(["serve", WebPageTests.commute, "--http", "0", "--tiles", file])
        #expect(outcome.status == 64)
        #expect(outcome.error.hasPrefix("Error: --tiles \(file): "), "\(outcome.error)")
        let missing = try Tool.run(["serve", WebPageTests.commute, "--http", "0", "--tiles", "/nonexistent.mbtiles"])
        #expect(missing.status == 64)
        #expect(missing.error.hasPrefix("Error: --tiles /nonexistent.mbtiles: no such file"))
    }

    // MARK: Days gone by

    /// `[[lon, lat], …]` of every segment in a GeoJSON document, in order.
    static func coordinates(_ geojson: String) -> [[(Double, Double)]] {
        geojson.allMatches(between: "\"coordinates\":[", and: "]]").map { line in
            line.split(separator: "]").compactMap { pair in
                let numbers = pair.split(whereSeparator: { $0 == "[" || $0 == "," }).compactMap { Double($0) }
                return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
            }
        }
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func historyListsTheDaysAsTripsDoesServesTheirTracksAsConvertReadsThemAndReplaysOne() throws {
        let directory = TemporaryDirectory("history")
        defer { directory.remove() }
        let days = directory.file("days")
        _ = try? Directory.create(days)
        // Two days, as record --rotate daily would leave them: the commute on 30 November, a drive on 1 December.
        #expect(try Tool.run(["convert", WebPageTests.commute, "-o", days + "/2026-11-30.gpx"]).status == 0)
        let drive = directory.file("drive.nmea")
        let simulated = try Tool.run([
            "simulate", "--route", "drive", "--start", "2026-12-01T09:00:00Z", "--duration", "900", "-o", drive,
        ])
        #expect(simulated.status == 0)
        #expect(try Tool.run(["convert", drive, "-o", days + "/2026-12-01.gpx"]).status == 0)

        let served = try WebPageTests.Served(["--history", days])
        #expect(served.waitForTheEnd(), "\(served.process.error)")
        // The directory is read on a thread of its own as the server starts: the days are there shortly.
        var list = try RawHTTP.get(port: served.port, "/api/days")
        #expect(
            waitUntil(timeout: .seconds(20)) {
                list = (try? RawHTTP.get(port: served.port, "/api/days")) ?? list
                return list.body.allMatches(between: "\"day\":\"", and: "\"").count == 2
            }, "\(list.body)")
        #expect(list.status == 200)
        #expect(list.header("Content-Type") == "application/json")
        let listed = list.body.allMatches(between: "{\"day\":\"", and: "}")
        #expect(listed.count == 2, "\(list.body)")
        for (entry, name) in zip(listed, ["2026-11-30", "2026-12-01"]) {
            #expect(entry.hasPrefix(name + "\""))
            let file = days + "/\(name).gpx"
            let distance = try #require(entry.allMatches(between: "\"distance_m\":", and: ",").first.flatMap(Int.init))
            let trips = try #require(entry.split(separator: ":").last.flatMap { Int($0) })
            // nmea trips' figures for the day's file: its trips, and its total (the sum of the trips' distances).
            let text = try Tool.run(["trips", file]).output
            let json = try Tool.run(["trips", "--json", file]).output
            let tripDistances = json.allMatches(between: "\"distance_m\":", and: ",").compactMap(Int.init)
            #expect(trips == tripDistances.count, "\(entry)")
            #expect(abs(tripDistances.reduce(0, +) - distance) <= tripDistances.count, "\(entry) vs \(tripDistances)")
            let kilometres = (Double(distance) / 1000).formatted2
            #expect(
                text.contains("\(tripDistances.count) trip\(tripDistances.count == 1 ? "" : "s"), \(kilometres) km"),
                "\(text)")
            // The day's track: the points nmea convert reads from the file, segment for segment.
            let track = try RawHTTP.get(port: served.port, "/api/track?day=\(name)")
            #expect(track.status == 200)
            let geojson = directory.file("\(name).geojson")
            #expect(try Tool.run(["convert", file, "-o", geojson]).status == 0)
            let expected = Self.coordinates(try #require(directory.read("\(name).geojson")))
            let points = Self.coordinates(track.body)
            #expect(points.map(\.count) == expected.map(\.count))
            #expect(points.joined().count > 800)
            for (a, b) in zip(points.joined(), expected.joined()) {
                #expect(abs(a.0 - b.0) < 6e-7 && abs(a.1 - b.1) < 6e-7, "\(a) vs \(b)")
            }
            #expect(try RawHTTP.get(port: served.port, "/api/trips?day=\(name)").body + "\n" == json)
        }
        #expect(try RawHTTP.get(port: served.port, "/api/track?day=2026-12-05").status == 404)
        #expect(try RawHTTP.get(port: served.port, "/api/track?day=yesterday").status == 400)

        // The page replays a day: ?day= shows its track and trips, ?at= puts the replay where the track was then.
        let dom = try WebPageTests.chromium(
            ["--dump-dom", "--window-size=1280,900"],
            url: "http://127.0.0.1:\(served.port)/?day=2026-12-01&at=09:07:30", directory: served.directory)
        #expect(dom.contains("<body data-ready=\"1\">"))
        #expect(dom.contains("<h2>Track of 2026-12-01</h2>"))
        #expect(dom.contains("<option value=\"2026-11-30\">2026-11-30 · 68.3 km · 2 trips</option>"))
        #expect(dom.contains("<option value=\"2026-12-01\" selected=\"\">2026-12-01 · 10.9 km · 1 trip</option>"))
        let rows = dom.allMatches(between: "<tr data-index=", and: "</tr>")
        #expect(rows.count == 1 && rows.first?.contains("<td>2026-12-01 09:00:00 UTC</td>") == true, "\(rows)")
        // At 09:07:30 the drive (a fix a second) was at its 451st point.
        let points = Self.coordinates(try RawHTTP.get(port: served.port, "/api/track?day=2026-12-01").body).joined()
        let then = Array(points)[450]
        let marker = try #require(dom.allMatches(between: "id=\"replay-marker\"", and: ">").first)
        #expect(marker.contains("data-time=\"2026-12-01T09:07:30.000Z\""))
        #expect(
            marker.contains("data-lat=\"\(format6(then.1))\" data-lon=\"\(format6(then.0))\""), "\(marker) vs \(then)")
    }

    // MARK: nmea plot

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func thePlotNamesMunichEittingAndPlacesBetweenAsThePageWould() throws {
        let directory = TemporaryDirectory("plot-places")
        defer { directory.remove() }
        let svgPath = directory.file("commute.svg")
        let outcome = try Tool.run(["plot", WebPageTests.commute, "-o", svgPath])
        #expect(outcome.status == 0, "\(outcome.error)")
        let svg = try #require(directory.read("commute.svg"))
        let labels = svg.allMatches(between: "<g class=\"place\" ", and: ">").compactMap { attributes -> Label? in
            guard let name = attributes.value(of: "data-name"),
                let latitude = attributes.value(of: "data-lat").flatMap(Double.init),
                let longitude = attributes.value(of: "data-lon").flatMap(Double.init)
            else { return nil }
            return Label(name: name, latitude: latitude, longitude: longitude)
        }
        #expect(labels.contains { $0.name == "Munich" })
        // Eitting, where the day's stop is, named as nmea trips names it (and as a place).
        let trips = try Tool.run(["trips", "--json", WebPageTests.commute]).output
        #expect(trips.contains(#""place":"Eitting, Bavaria, DE""#))
        #expect(svg.contains("class=\"halo stop-label\">Eitting, Bavaria, DE · 8 h 00 min</text>"))
        // Between them (Munich 48.137, 11.575; Eitting 48.362, 11.887): places along the way.
        let between = labels.filter {
            $0.latitude > 48.16 && $0.latitude < 48.34 && $0.longitude > 11.6 && $0.longitude < 11.86
        }
        #expect(between.count >= 3, "\(labels)")

        // The page's server answers the plot's view with the same places, in the same order.
        let bbox = try #require(svg.allMatches(between: "data-bbox=\"", and: "\"").first)
        let zoom = try #require(svg.allMatches(between: "data-zoom=\"", and: "\"").first)
        let served = try WebPageTests.Served()
        #expect(served.waitForTheEnd())
        #expect(try Self.apiLabels(port: served.port, "bbox=\(bbox)&zoom=\(zoom)") == labels)

        // The picture, kept for a look.
        _ = try? Directory.create(Self.artifacts)
        _ = try ChildProcess.run(["rsvg-convert", svgPath, "-o", Self.artifacts + "/plot-commute.png"])
    }
}

/// `48.134660`: six decimals, as the page writes them.
private func format6(_ value: Double) -> String {
    let micro = Int((value * 1e6).rounded())
    let whole = micro / 1_000_000
    let fraction = String(abs(micro % 1_000_000))
    return "\(value < 0 && whole == 0 ? "-" : "")\(whole)." + String(repeating: "0", count: 6 - fraction.count)
        + fraction
}

extension Double {
    /// Two decimals: `68.33`.
    fileprivate var formatted2: String {
        let hundredths = Int((self * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + (fraction.count == 1 ? "0" : "") + fraction
    }
}

extension String {
    /// The value of `name="…"` in a tag's attributes, unescaped.
    fileprivate func value(of name: String) -> String? {
        allMatches(between: name + "=\"", and: "\"").first.map {
            $0.replacing("&amp;", with: "&").replacing("&quot;", with: "\"").replacing("&lt;", with: "<")
                .replacing("&gt;", with: ">").replacing("&#39;", with: "'")
        }
    }
}
