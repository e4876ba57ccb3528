import Glibc
import System
import TestSupport
import Testing

/// `nmea serve LOG --http`: the page and its API, from a replayed log, checked against `nmea parse --fixes`,
/// `nmea trips --json` and `nmea convert`, and loaded in a real browser (headless Chromium).
@Suite(.serialized) struct WebPageTests {
    static let commute = Locations.packageRoot + "/nmea-samples/commute.nmea"
    static var hasChromium: Bool { Tools.available("chromium") }

    /// A `nmea serve commute.nmea --speed max --http` running until the test ends, with the log read to its end.
    final class Served {
        let process: ChildProcess
        let port: UInt16
        let directory: TemporaryDirectory

        init(_ extra: [String] = [], log: String = WebPageTests.commute, function: String = #function) throws {
            directory = TemporaryDirectory(function)
            port = UInt16(Ports.freeTCP())
            let gpsdPort = Ports.freeTCP()
            process = try ChildProcess(
                [
                    BuiltExecutables.nmea, "serve", log, "--speed", "max", "--listen",
                    "127.0.0.1:\(gpsdPort)", "--http", "127.0.0.1:\(port)",
                ] + extra,
                environment: ["XDG_CACHE_HOME": directory.file("cache")])
        }

        /// Waits until the page's status says the log has ended (its final state).
        func waitForTheEnd() -> Bool {
            waitUntil(timeout: .seconds(60), pollingEvery: .milliseconds(100)) {
                (try? RawHTTP.get(port: port, "/api/status").body.contains("\"connection\":\"ended\"")) == true
            }
        }

        deinit {
            _ = process.stop()
            directory.remove()
        }
    }

    /// The last line of `nmea parse --fixes` with a position.
    static func lastFix() throws -> String {
        let outcome = try Tool.run(["parse", "--fixes", commute])
        return try #require(outcome.output.split(separator: "\n").last { $0.contains("\"lat\"") }.map(String.init))
    }

    static func convertedSegments() throws -> (segments: Int, points: Int) {
        let directory = TemporaryDirectory("convertedSegments")
        defer { directory.remove() }
        let outcome = try Tool.run(["convert", commute, "-o", directory.file("commute.gpx")])
        #expect(outcome.status == 0)
        let gpx = directory.read("commute.gpx") ?? ""
        return (gpx.components("<trkseg>"), gpx.components("<trkpt "))
    }

    // MARK: The API

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func theAPIAgreesWithParseTripsAndConvert() throws {
        let served = try Served()
        #expect(served.waitForTheEnd(), "the page never said the log had ended: \(served.process.error)")

        // The position: parse --fixes' last fix, its place, degrees and minutes, and an age.
        let position = try RawHTTP.get(port: served.port, "/api/position")
        #expect(position.status == 200)
        #expect(position.header("Content-Type") == "application/json")
        let withoutAge = try #require(position.body.firstRange(of: ",\"age_s\":")).lowerBound
        let expected =
            try Self.lastFix().dropLast()
            + #","place":"Munich, Bavaria, DE","dm":"48°08.2451' N 11°34.5656' E","decimal":"48.137418° N, 11.576093° E""#
        #expect(String(position.body[..<withoutAge]) == expected)
        #expect(position.body.hasSuffix("}"))

        // The trips: exactly nmea trips --json.
        let trips = try RawHTTP.get(port: served.port, "/api/trips")
        let tripsOutcome = try Tool.run(["trips", "--json", Self.commute], input: nil)
        #expect(trips.body == tripsOutcome.output.trimmingNewline)
        #expect(trips.body.components("\"distance_m\"") == 2)

        // The track: the segments and points nmea convert writes.
        let track = try RawHTTP.get(port: served.port, "/api/track")
        let converted = try Self.convertedSegments()
        #expect(track.body.components("\"type\":\"Feature\"") == converted.segments)
        #expect(track.body.components("Z\"") == converted.points)  // one time per point
        let later = try RawHTTP.get(port: served.port, "/api/track?since=2026-11-30T18:29:40Z")
        #expect(later.body.components("Z\"") == 2)
        #expect(later.body.contains("\"continues\":true"))

        // The status.
        let status = try RawHTTP.get(port: served.port, "/api/status")
        #expect(
            status.body
                == #"{"device":"\#(Self.commute)","connection":"ended","reason":"end of file","rate_hz":0.1,"#
                + #""fix":"3D fix (GPS)","satellites_used":23,"systems":[],"sentences":7560,"rejected_lines":0,"#
                + #""fixes":3781}"#)
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func badRequestsGetTheirStatus() throws {
        let served = try Served()
        #expect(served.waitForTheEnd())
        #expect(try RawHTTP.get(port: served.port, "/etc/passwd").status == 404)
        #expect(try RawHTTP.get(port: served.port, "/../../etc/passwd").status == 404)
        #expect(try RawHTTP.get(port: served.port, "/api/track?since=yesterday").status == 400)
        let post = try RawHTTP.get(port: served.port, "/api/position", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let page = try RawHTTP.get(port: served.port, "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        #expect(page.header("Access-Control-Allow-Origin") == nil)
        // The first response already shows the position and its place: never an empty state once a fix exists.
        #expect(page.body.contains(#"<div class="big" id="decimal">48.137418° N, 11.576093° E</div>"#))
        #expect(page.body.contains(#"<div id="place">Munich, Bavaria, DE</div>"#))
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func theEventStreamStartsWithTheState() throws {
        let served = try Served()
        #expect(served.waitForTheEnd())
        let client = try LineClient(port: served.port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: { $0.contains("event: vessels") && $0.last == "" }))
        #expect(client.lines.contains("Content-Type: text/event-stream"))
        // The state, in this order; a status that changed since may follow it in the same read (a busy machine).
        let events = client.lines.filter { $0.hasPrefix("event: ") }
        let state = ["event: position", "event: status", "event: sky", "event: trip", "event: vessels"]
        #expect(Array(events.prefix(5)) == state)
        #expect(events.dropFirst(5).allSatisfy { $0 == "event: status" }, "\(events)")
        let position = try #require(client.lines.first { $0.hasPrefix("data: {\"time\"") })
        #expect(position.hasPrefix("data: " + (try Self.lastFix().dropLast())))
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
    func thePageStaysUpUntilSIGTERMUnlessExitAtEnd() throws {
        let served = try Served()
        #expect(served.waitForTheEnd())
        // At the end it says it stays, and goes on answering.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                served.process.error.contains("the page stays up with the log's final state until SIGINT or SIGTERM")
            })
        #expect(try RawHTTP.get(port: served.port, "/api/status").status == 200)
        #expect(served.process.isRunning)
        #expect(served.process.stop() == 0)
        #expect(served.process.error.contains("the page stays up with the log's final state until SIGINT or SIGTERM"))

        let once = try Served(["--exit-at-end"])
        #expect(once.process.waitForExit(timeout: .seconds(60)))
        #expect(once.process.exitStatus == 0)
    }

    // MARK: In a real browser

    @Test(.enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func chromiumShowsThePositionThePlaceTheTripsAndTheTrack() throws {
        let served = try Served()
        #expect(served.waitForTheEnd())
        let dom = try Self.chromium(
            ["--dump-dom"], url: "http://127.0.0.1:\(served.port)/", directory: served.directory)
        #expect(dom.contains("<body data-ready=\"1\">"), "the page's script did not finish: \(dom.prefix(300))")
        #expect(dom.contains(#"<div class="big" id="decimal">48.137418° N, 11.576093° E</div>"#))
        #expect(dom.contains(#"<div id="dm">48°08.2451' N 11°34.5656' E</div>"#))
        // The place of the last fix is where nmea trips says the last trip ended.
        let trips = try Tool.run(["trips", "--json", Self.commute]).output
        let lastEnd = try #require(trips.lastMatch(between: "\"end\":{", and: "}"))
        let place = try #require(lastEnd.lastMatch(between: "\"place\":\"", and: "\""))
        #expect(dom.contains("<div id=\"place\">\(place)</div>"))
        #expect(dom.contains(#"<dd id="fix">3D fix</dd>"#))
        // The trips table: nmea trips --json's trips, newest first.
        let rows = dom.allMatches(between: "<tr data-index=", and: "</tr>")
        #expect(rows.count == 2)
        #expect(rows.first?.contains("<td>2026-11-30 17:29:50 UTC</td><td>2026-11-30 18:00:00 UTC</td>") == true)
        #expect(
            rows.first?.contains("<td>Eitting, Bavaria, DE</td><td class=\"wide\">Munich, Bavaria, DE</td>") == true)
        #expect(rows.last?.contains("<td>2026-11-30 08:59:50 UTC</td>") == true)
        #expect(rows.last?.contains("<td>34.2 km</td>") == true)
        // The map (Leaflet): the lines of each segment nmea convert writes (a line per run of one speed color),
        // the start, end and position markers, the scale, the north arrow.
        let converted = try Self.convertedSegments()
        let segments = Set(dom.allMatches(between: "<path class=\"segment segment-", and: "\""))
        #expect(segments == Set((0..<converted.segments).map(String.init)), "\(segments)")
        #expect(dom.components("stroke=\"#d92d20\"") >= 2)  // the two trips' motorway stretches, ≥ 90 km/h
        #expect(dom.contains("id=\"start-marker\"") && dom.contains("id=\"end-marker\""))
        #expect(dom.contains("id=\"position-marker\""))
        #expect(dom.contains("leaflet-control-scale-line") && dom.contains("id=\"north-arrow\""))
        #expect(dom.contains("title=\"Eitting, Bavaria, DE, 7 h 59 min\""))  // the stop (28,790 s)
        #expect(dom.contains("<dd id=\"status-connection\">ended (end of file)</dd>"))
        // The log has no GSV: the sky plot says why it is empty, and the age does not count on after the end.
        #expect(
            dom.contains(
                "<p id=\"sky-note\" class=\"muted\">No satellites in view: this receiver sends no GSV sentences "
                    + "(its fix uses 23).</p>"))
        #expect(dom.contains("<dd id=\"age\">– (the log has ended)</dd>"))
    }

    @Test(.enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func screenshotsOnADesktopAndAPhoneAreNotBlank() throws {
        let served = try Served()
        #expect(served.waitForTheEnd())
        let artifacts = Locations.packageRoot + "/.build/test-artifacts"
        _ = try? Directory.create(artifacts)
        for (width, height) in [(1280, 800), (390, 844)] {
            let path = artifacts + "/web-page-\(width)x\(height).png"
            unlink(path)
            _ = try Self.chromium(
                ["--screenshot=\(path)", "--window-size=\(width),\(height)", "--hide-scrollbars"],
                url: "http://127.0.0.1:\(served.port)/", directory: served.directory)
            let png = try #require(readFile(path), "no screenshot at \(path)")
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(Self.pngSize(png) == (width, height))
            // A blank page compresses to a few kilobytes; the map, text and table do not.
            #expect(png.count > 30_000, "\(path) is \(png.count) bytes: blank?")
        }
    }

    @Test(
        "AIS vessels on the page: the same stations and numbers as nmea ais, each a labelled dot with a course line",
        .enabled(if: BuiltExecutables.hasNMEA && hasChromium, "needs the built nmea and chromium"))
    func vesselsOnThePage() throws {
        let log = Locations.packageRoot + "/nmea-samples/harbour-ais.nmea"
        let served = try Served(log: log)
        #expect(served.waitForTheEnd())
        let listed = try Tool.run(["ais", "--json", log]).output
        let shown = try RawHTTP.get(port: served.port, "/api/vessels").body
        // The page's vessels are nmea ais's (those with a position), each with how long ago it was heard.
        var withoutAges = shown
        while let range = withoutAges.firstRange(of: #/,"age_s":[0-9.]+/#) { withoutAges.removeSubrange(range) }
        #expect(withoutAges + "\n" == listed, "\(shown)")
        let dom = try Self.chromium(
            ["--dump-dom"], url: "http://127.0.0.1:\(served.port)/", directory: served.directory)
        #expect(dom.contains("<body data-ready=\"1\" data-vessels=\"2\">"), "\(dom.prefix(300))")
        let labels = dom.allMatches(between: "<div class=\"leaflet-tooltip vessel-label", and: "</div>")
            .compactMap { $0.split(separator: ">").last.map(String.init) }
        #expect(Set(labels) == ["SEEADLER", "NORDERLICHT"], "\(labels)")
        // Two dots, apart (the map fits the vessels when there is no track of our own), and two course lines.
        let dots = dom.allMatches(between: "<path class=\"vessel leaflet-interactive\"", and: ">")
            .compactMap { $0.lastMatch(between: " d=\"", and: "a") }
        #expect(dots.count == 2 && Set(dots).count == 2, "\(dots)")
        #expect(dom.components("stroke=\"#0e9384\" stroke-opacity=\"1\" stroke-width=\"2\"") == 2)
    }

    /// Runs headless Chromium on `url` (stopping it at the page's load), returning what it printed.
    static func chromium(_ arguments: [String], url: String, directory: TemporaryDirectory) throws -> String {
        let outcome = try ChildProcess.run(
            [
                "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(directory.file("chromium"))", "--timeout=8000",
            ] + arguments + [url],
            environment: ["HOME": directory.path], timeout: .seconds(90))
        return outcome.output
    }

    /// The width and height in a PNG's IHDR.
    static func pngSize(_ png: [UInt8]) -> (Int, Int) {
        guard png.count > 24 else { return (0, 0) }
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}

extension String {
    /// How many times `target` occurs.
    fileprivate func components(_ target: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }

    /// Every text between `start` and the next `end` (the map tests read the DOM with it too).
    func allMatches(between start: String, and end: String) -> [String] {
        var matches: [String] = []
        var rest = self[...]
        while let open = rest.firstRange(of: start), let close = rest[open.upperBound...].firstRange(of: end) {
            matches.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return matches
    }

    fileprivate func lastMatch(between start: String, and end: String) -> String? {
        allMatches(between: start, and: end).last
    }
}
