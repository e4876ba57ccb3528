import Fleet
import Foundation
import NMEA
import System
import TestSupport
import Testing

/// `nmea fleet last|trips|track` against a real PostgreSQL filled through the store, compared byte for byte.
@Suite(
    .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct FleetCommandTests {
    /// A database with two vehicles: van7 drove three fixes two minutes ago (and on 2026-11-30 with a trip),
    /// van8 parked in Sydney a day and a bit ago.
    static func filled() throws -> (FleetDatabase, now: Int64) {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let now = Int64(try database.execute("SELECT floor(extract(epoch FROM now()))::bigint")[0, 0]!)!
        let store = try PositionStore(database)
        var positions = (0..<3).map { n in
            StoredPosition(
                vehicle: "acme/van7", timestamp: Support.start + Int64(n) * 60,
                latitude: 48.1374 + Double(n) * 0.01, longitude: 11.5755 + Double(n) * 0.01,
                altitudeMeters: 520, speed: 12.5, courseDegrees: 45, accuracyMeters: 4, satellites: 9)
        }
        positions.append(
            StoredPosition(
                vehicle: "acme/van7", timestamp: now - 125, latitude: 48.2, longitude: 11.6,
                speed: 10))
        positions.append(
            StoredPosition(
                vehicle: "acme/van8", timestamp: now - 90_000, latitude: -33.8688197,
                longitude: 151.20929))
        let trip = try StoredTrip(
            vehicle: "acme/van7",
            summary: TripSummary(
                start: .init(
                    timestamp: Support.start * 1_000_000_000, latitude: 48.1374, longitude: 11.5755,
                    place: "Munich, Bavaria, DE"),
                end: .init(
                    timestamp: (Support.start + 120) * 1_000_000_000, latitude: 48.1574, longitude: 11.5955,
                    place: nil),
                distanceMeters: 2710, durationSeconds: 120, averageSpeedKmh: 81.3, maximumSpeedKmh: 90))
        try store.write(positions: positions, trips: [trip])
        return (fleet, now)
    }

    static func run(_ fleet: FleetDatabase, _ arguments: [String], directory: String? = nil) throws
        -> ChildProcess.Outcome
    {
        try ChildProcess.run(
            [BuiltExecutables.nmea, "fleet"] + arguments + ["--db", fleet.url],
            environment: fleet.environment, directory: directory)
    }

    @Test func lastShowsEveryVehicleWithItsAgeAndPlace() throws {
        let (fleet, now) = try Self.filled()
        let table = try Self.run(fleet, ["last"])
        #expect(table.status == 0, "\(table.error)")
        func time(_ seconds: Int64) -> String {
            let text = ISO8601.string(seconds * 1_000_000_000)
            return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
        }
        #expect(
            table.output == """
                VEHICLE    LAST FIX (UTC)           AGE  POSITION              km/h  PLACE
                acme/van7  \(time(now - 125))    2 min  48.20000, 11.60000    36.0  3 km W of Unterföhring, Bavaria, DE
                acme/van8  \(time(now - 90_000))  1 d 1 h  -33.86882, 151.20929        Sydney, New South Wales, AU

                """, "\(table.output)")
        let json = try Self.run(fleet, ["last", "--json", "--no-places"])
        #expect(json.status == 0)
        // The ages grow while the test runs: compared apart.
        var text = json.output
        var ages: [Int] = []
        while let range = text.firstRange(of: #""age_s":"#) {
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            ages.append(Int(digits) ?? -1)
            text.replaceSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: digits.count), with: "AGE")
        }
        #expect(ages.count == 2 && (125...135).contains(ages[0]) && (90_000...90_010).contains(ages[1]), "\(ages)")
        #expect(
            text == #"{"vehicles":[{"vehicle":"acme/van7","time":""# + ISO8601.string((now - 125) * 1_000_000_000)
                + #"",AGE,"lat":48.2,"lon":11.6,"speed_kmh":36.0,"place":null},{"vehicle":"acme/van8","time":""#
                + ISO8601.string((now - 90_000) * 1_000_000_000) + #"",AGE,"lat":-33.8688197,"lon":151.20929,"#
                + #""place":null}]}"# + "\n")
    }

    @Test func tripsAsATableJSONAndGeoJSON() throws {
        let (fleet, _) = try Self.filled()
        let table = try Self.run(fleet, ["trips", "--vehicle", "acme/van7", "--since", "2026-11-30"])
        #expect(table.status == 0, "\(table.error)")
        #expect(
            table.output == """
                VEHICLE    START (UTC)          END (UTC)            DURATION  DISTANCE  AVG km/h  MAX km/h  FROM → TO
                acme/van7  2026-11-30 08:00:00  2026-11-30 08:02:00   0:02:00   2.71 km      81.3      90.0  Munich, Bavaria, DE → 48.15740, 11.59550

                1 trip, 2.71 km in 0:02:00

                """)
        #expect(try Self.run(fleet, ["trips", "--until", "2026-11-30"]).output == "No trips.\n")
        #expect(try Self.run(fleet, ["trips", "--vehicle", "acme/van8"]).output == "No trips.\n")
        let json = try Self.run(fleet, ["trips", "--json"])
        #expect(
            json.output == #"{"trips":[{"vehicle":"acme/van7","start":{"time":"2026-11-30T08:00:00Z","lat":48.137400,"#
                + #""lon":11.575500,"place":"Munich, Bavaria, DE"},"end":{"time":"2026-11-30T08:02:00Z","lat":48.157400,"#
                + #""lon":11.595500,"place":null},"distance_m":2710,"duration_s":120,"avg_speed_kmh":81.3,"max_speed_kmh":90.0}]}"#
                + "\n")
        let directory = TemporaryDirectory("trips")
        let written = try Self.run(fleet, ["trips", "-o", "november.geojson"], directory: directory.path)
        #expect(written.status == 0)
        #expect(written.error == "nmea fleet trips: 1 trip in november.geojson\n")
        #expect(Directory.entries(directory.path) == ["november.geojson"])
        #expect(
            directory.read("november.geojson") == #"{"type":"FeatureCollection","features":[{"type":"Feature","#
                + #""geometry":{"type":"LineString","coordinates":[[11.5755,48.1374],[11.5855,48.1474],[11.5955,48.1574]]},"#
                + #""properties":{"vehicle":"acme/van7","start":{"time":"2026-11-30T08:00:00Z","lat":48.137400,"#
                + #""lon":11.575500,"place":"Munich, Bavaria, DE"},"end":{"time":"2026-11-30T08:02:00Z","lat":48.157400,"#
                + #""lon":11.595500,"place":null},"distance_m":2710,"duration_s":120,"avg_speed_kmh":81.3,"#
                + #""max_speed_kmh":90.0}}]}"# + "\n")
        if let ogrinfo = Tools.which("ogrinfo") {
            let info = try ChildProcess.run([ogrinfo, "-ro", "-al", "-so", directory.file("november.geojson")])
            #expect(
                info.output.contains("Geometry: Line String") && info.output.contains("Feature Count: 1"),
                "\(info.output)")
        }
    }

    @Test func trackWritesTheDayAsGPXOnlyWhenThereIsOne() throws {
        let (fleet, _) = try Self.filled()
        let directory = TemporaryDirectory("track")
        let run = try Self.run(
            fleet, ["track", "--vehicle", "acme/van7", "--day", "2026-11-30", "-o", "day.gpx"],
            directory: directory.path)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "nmea fleet track: 3 positions of acme/van7 in day.gpx\n")
        #expect(Directory.entries(directory.path) == ["day.gpx"])
        #expect(
            Support.gpxTimes(directory.file("day.gpx"))
                == ["2026-11-30T08:00:00Z", "2026-11-30T08:01:00Z", "2026-11-30T08:02:00Z"])
        let gpx = directory.read("day.gpx") ?? ""
        let points = gpx.split(separator: "\n").filter { $0.contains("<trkpt ") }.map(String.init)
        #expect(points.count == 3)
        let second: String =
            #"      <trkpt lat="48.1474" lon="11.5855"><ele>520</ele>"#
            + #"<time>2026-11-30T08:01:00Z</time><fix>3d</fix><sat>9</sat><extensions><gpxtpx:TrackPointExtension>"#
            + #"<gpxtpx:speed>12.5</gpxtpx:speed><gpxtpx:course>45</gpxtpx:course></gpxtpx:TrackPointExtension>"#
            + #"<nmea:hacc>4</nmea:hacc></extensions></trkpt>"#  // the stored accuracy (OwnTracks acc)
        #expect(points.dropFirst().first == second, "\(gpx)")
        if let xmllint = Tools.which("xmllint"), let schemas = Locations.schemas {
            let valid = try ChildProcess.run([
                xmllint, "--noout", "--schema", schemas + "/gpx-1.1.xsd",
                directory.file("day.gpx"),
            ])
            #expect(valid.status == 0, "\(valid.error)")
        }
        let empty = try Self.run(
            fleet, ["track", "--vehicle", "acme/van7", "--day", "2026-11-29", "-o", "none.gpx"],
            directory: directory.path)
        #expect(empty.status == 1)
        #expect(empty.error == "Error: no positions of 'acme/van7' on 2026-11-29\n")
        #expect(Directory.entries(directory.path) == ["day.gpx"])
        let bad = try Self.run(fleet, ["track", "--vehicle", "acme/van7", "--day", "30.11.2026", "-o", "x.gpx"])
        #expect(bad.status == 64)
        #expect(
            bad.error.hasPrefix("Error: The value '30.11.2026' is invalid for '--day <date>': expected YYYY-MM-DD\n"))
    }

    @Test func aTripWithoutStoredPositionsIsALineFromItsStartToItsEnd() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let trip = try StoredTrip(
            vehicle: "acme/van9",
            summary: TripSummary(
                start: .init(timestamp: Support.start * 1_000_000_000, latitude: 48.1374, longitude: 11.5755),
                end: .init(
                    timestamp: (Support.start + 600) * 1_000_000_000, latitude: -33.8688197, longitude: 151.20929),
                distanceMeters: 0, durationSeconds: 600, averageSpeedKmh: 0, maximumSpeedKmh: 0))
        try PositionStore(database).write(positions: [], trips: [trip])
        let written = try Self.run(fleet, ["trips", "-o", "-"])
        #expect(written.status == 0, "\(written.error)")
        #expect(
            written.output.hasPrefix(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","#
                    + #""coordinates":[[11.5755,48.1374],[151.20929,-33.8688197]]},"properties":{"vehicle":"acme/van9","#
                    + #""start":{"time":"2026-11-30T08:00:00Z","lat":48.137400,"lon":11.575500,"place":null},"#),
            "\(written.output)")
    }

    /// Issue 12, item 4: every geometry is valid. A trip whose stored path has no two distinct positions is a line
    /// from its start to its end; one that starts and ends at one place without a path is a Point (GDAL's
    /// `ST_IsValid` agrees; on main both were LineStrings of one place).
    @Test func tripsWithoutTwoDistinctPositionsAreStillValidGeometries() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        func trip(_ vehicle: String, to latitude: Double) throws -> StoredTrip {
            try StoredTrip(
                vehicle: vehicle,
                summary: TripSummary(
                    start: .init(timestamp: Support.start * 1_000_000_000, latitude: 48.1374, longitude: 11.5755),
                    end: .init(
                        timestamp: (Support.start + 600) * 1_000_000_000, latitude: latitude, longitude: 11.5755),
                    distanceMeters: 0, durationSeconds: 600, averageSpeedKmh: 0, maximumSpeedKmh: 0))
        }
        // Parked through its trip: a stored path of two positions at one place.
        let parked = [300, 400].map { second in
            StoredPosition(
                vehicle: "acme/one", timestamp: Support.start + Int64(second), latitude: 48.14, longitude: 11.58)
        }
        try PositionStore(database).write(
            positions: parked, trips: [try trip("acme/one", to: 48.15), try trip("acme/round", to: 48.1374)])
        let directory = TemporaryDirectory("valid-trips")
        let written = try Self.run(fleet, ["trips", "-o", "trips.geojson"], directory: directory.path)
        #expect(written.status == 0, "\(written.error)")
        let text = directory.read("trips.geojson") ?? ""
        #expect(text.contains(#""geometry":{"type":"LineString","coordinates":[[11.5755,48.1374],[11.5755,48.15]]}"#))
        #expect(text.contains(#""geometry":{"type":"Point","coordinates":[11.5755,48.1374]}"#))
        if let ogrinfo = Tools.which("ogrinfo") {
            let sql = "SELECT COUNT(*) AS n, SUM(ST_IsValid(geometry)) AS valid FROM trips"
            let info = try ChildProcess.run(
                [ogrinfo, "-ro", "-q", "-dialect", "sqlite", "-sql", sql, directory.file("trips.geojson")])
            #expect(
                info.output.contains("n (Integer) = 2") && info.output.contains("valid (Integer) = 2"), "\(info.output)"
            )
        }
    }

    @Test func anEmptyDatabaseAndAnUnreachableOneAreExplained() throws {
        let fleet = try FleetDatabase()
        let empty = try Self.run(fleet, ["last"])
        #expect(empty.status == 1)
        #expect(empty.error == "Error: the database has no fleet tables yet: 'nmea collect --db URL' creates them\n")
        let port = Ports.freeTCP()
        let unreachable = try ChildProcess.run([
            BuiltExecutables.nmea, "fleet", "trips", "--db",
            "postgresql://fleet@127.0.0.1:\(port)/fleet",
        ])
        #expect(unreachable.status == 1)
        #expect(
            unreachable.error.hasPrefix(
                "Error: cannot connect to the database: connection to server at "
                    + "\"127.0.0.1\", port \(port) failed: Connection refused"))
    }
}

/// `nmea fleet serve`: the fleet's page and its API against `fleet last --json` and `fleet trips --json`, live as
/// the database changes, and in headless Chromium.
@Suite(
    .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct FleetServeTests {
    /// `"age_s":N` replaced by `AGE` (the ages grow while a test runs).
    static func withoutAges(_ text: String) -> String {
        var text = text
        while let range = text.firstRange(of: #""age_s":"#) {
            let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            text.replaceSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: digits.count), with: "AGE")
        }
        return text
    }

    /// `nmea fleet serve` on `fleet`, listening on a free port (the test's `#expect` records it when it does not).
    static func serve(
        _ fleet: FleetDatabase, _ directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (server: ChildProcess, port: UInt16) {
        let port = UInt16(Ports.freeTCP())
        var environment = fleet.environment
        environment["XDG_CACHE_HOME"] = directory.file("cache")
        let server = try ChildProcess(
            [
                BuiltExecutables.nmea, "fleet", "serve", "--db", fleet.url, "--http", "127.0.0.1:\(port)", "--refresh",
                "0.3",
            ],
            environment: environment)
        #expect(
            waitUntil(timeout: .seconds(20)) { Ports.isListening(Int(port)) }, "\(server.error)",
            sourceLocation: sourceLocation)
        return (server, port)
    }

    /// Headless Chromium on `url` (stopped at the page's load): what it printed.
    static func chromium(_ arguments: [String], url: String, directory: TemporaryDirectory) throws -> String {
        try ChildProcess.run(
            [
                "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(directory.file("chromium"))", "--timeout=8000",
            ] + arguments + [url], environment: ["HOME": directory.path], timeout: .seconds(90)
        ).output
    }

    /// A position of a third vehicle, written as a collector would.
    static func addVan9(_ fleet: FleetDatabase, at now: Int64) throws {
        let store = try PositionStore(try fleet.connect())
        try store.write(
            positions: [StoredPosition(vehicle: "acme/van9", timestamp: now, latitude: 52.52, longitude: 13.405)],
            trips: [])
    }

    @Test func theFleetPageServesWhatFleetLastAndTripsPrintAndFollowsTheDatabase() throws {
        let (fleet, now) = try FleetCommandTests.filled()
        let directory = TemporaryDirectory("fleet-serve")
        defer { directory.remove() }
        let (server, port) = try Self.serve(fleet, directory)
        defer { _ = server.stop() }

        let last = try FleetCommandTests.run(fleet, ["last", "--json"])
        let vehicles = try RawHTTP.get(port: port, "/api/vehicles")
        #expect(vehicles.status == 200)
        #expect(Self.withoutAges(vehicles.body) + "\n" == Self.withoutAges(last.output))
        #expect(vehicles.body.contains(#""place":"Sydney, New South Wales, AU""#))
        let trips = try RawHTTP.get(port: port, "/api/trips")
        #expect(trips.body + "\n" == (try FleetCommandTests.run(fleet, ["trips", "--json"])).output)
        #expect(
            try RawHTTP.get(port: port, "/api/geofence-events").body + "\n"
                == (try FleetCommandTests.run(fleet, ["events", "--json"])).output)
        let added = try FleetCommandTests.run(fleet, ["geofence", "add", "depot", "--circle", "48.1374,11.5755,150"])
        #expect(added.status == 0, "\(added.error)")
        let fences = try FleetCommandTests.run(fleet, ["geofence", "list", "--json"])
        #expect(fences.output.contains(#""properties":{"name":"depot","shape":"circle","margin_m":10,"radius_m":150}"#))
        #expect(
            waitUntil(timeout: .seconds(10)) {
                (try? RawHTTP.get(port: port, "/api/geofences").body + "\n") == fences.output
            })

        // An event stream gets the fleet at once, and again when a vehicle moves.
        let client = try LineClient(port: port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: { $0.contains("event: fleet") }))
        try Self.addVan9(fleet, at: now)
        #expect(client.read(until: { $0.contains { $0.contains("acme/van9") } }, timeout: .seconds(10)))
        #expect(try RawHTTP.get(port: port, "/api/vehicles").body.contains(#""vehicle":"acme/van9""#))
        #expect(try RawHTTP.get(port: port, "/api/status").body.hasPrefix(#"{"database":"ok","refreshed":""#))
        #expect(try RawHTTP.get(port: port, "/api/vehicles", method: "DELETE").status == 405)
    }

    /// In a browser: a row and a marker per vehicle, with its place; the trip.
    @Test(
        .enabled(
            if: Tools.available("chromium"), "chromium is not installed: the fleet page is not checked in a browser"))
    func theFleetPageShowsEveryVehicleAndTheTripInChromium() throws {
        let (fleet, now) = try FleetCommandTests.filled()
        try Self.addVan9(fleet, at: now)
        let added = try FleetCommandTests.run(fleet, ["geofence", "add", "depot", "--circle", "48.1374,11.5755,150"])
        #expect(added.status == 0, "\(added.error)")
        let directory = TemporaryDirectory("fleet-browser")
        defer { directory.remove() }
        let (server, port) = try Self.serve(fleet, directory)
        defer { _ = server.stop() }
        let dom = try Self.chromium(["--dump-dom"], url: "http://127.0.0.1:\(port)/", directory: directory)
        #expect(dom.contains("<body data-ready=\"1\" class=\"fleet\">"))
        for vehicle in ["acme/van7", "acme/van8", "acme/van9"] {
            #expect(dom.contains("<tr data-vehicle=\"\(vehicle)\"><td>\(vehicle)</td>"), "\(vehicle)")
            #expect(dom.contains("data-vehicle=\"\(vehicle)\"></path>"), "\(vehicle)")  // its dot on the map
            #expect(dom.contains("<div class=\"vehicle-label\" data-vehicle=\"\(vehicle)\""), "\(vehicle)")
        }
        #expect(dom.contains("<td>Sydney, New South Wales, AU</td>"))
        #expect(dom.contains("data-fence=\"depot\"></path>"))
        #expect(dom.contains("No geofence event yet."))
        #expect(dom.contains("<td>acme/van7</td><td>2026-11-30 08:00:00 UTC</td><td>2026-11-30 08:02:00 UTC</td>"))
    }

    /// A vehicle's days: `/api/days` lists the days its trips started on; `/api/track?vehicle=&day=` is read on the
    /// server's thread (202 until then) and gives the day's stored positions; the page opens on a day and replays it.
    @Test(
        .enabled(
            if: Tools.available("chromium"), "chromium is not installed: the fleet page is not checked in a browser"))
    func aVehiclesDayIsListedServedAndReplayed() throws {
        let (fleet, _) = try FleetCommandTests.filled()
        let directory = TemporaryDirectory("fleet-days")
        defer { directory.remove() }
        let (server, port) = try Self.serve(fleet, directory)
        defer { _ = server.stop() }
        let days = try RawHTTP.get(port: port, "/api/days")
        #expect(days.body.contains(#"{"vehicle":"acme/van7","day":"2026-11-30","distance_m":2710,"trips":1}"#))
        let path = "/api/track?vehicle=acme%2Fvan7&day=2026-11-30"
        let first = try RawHTTP.get(port: port, path)
        #expect(first.status == 202 && first.header("Retry-After") == "1")
        var track = first
        #expect(
            waitUntil(timeout: .seconds(10)) {
                track = (try? RawHTTP.get(port: port, path)) ?? track
                return track.status == 200
            })
        // The three positions of 08:00, 08:01 and 08:02, as nmea fleet track --day writes them.
        #expect(
            track.body.contains(
                #""coordinates":[[11.575500,48.137400],[11.585500,48.147400],[11.595500,48.157400]]"#), "\(track.body)")
        #expect(track.body.contains(#""times":["2026-11-30T08:00:00Z","2026-11-30T08:01:00Z","2026-11-30T08:02:00Z"]"#))
        #expect(try RawHTTP.get(port: port, "/api/track?vehicle=acme%2Fvan7&day=30.11.2026").status == 400)

        let dom = try Self.chromium(
            ["--dump-dom"], url: "http://127.0.0.1:\(port)/?vehicle=acme%2Fvan7&day=2026-11-30&at=08:01:30",
            directory: directory)
        #expect(dom.contains("<body data-ready=\"1\" class=\"fleet\">"))
        #expect(dom.contains("<option value=\"2026-11-30\" selected=\"\">2026-11-30 · 2.7 km · 1 trip</option>"))
        // Half-way between the positions of 08:01 and 08:02.
        let marker = try #require(dom.firstRange(of: "id=\"replay-marker\"").map { dom[$0.upperBound...].prefix(200) })
        #expect(
            marker.contains(#"data-time="2026-11-30T08:01:30.000Z" data-lat="48.152400" data-lon="11.590500""#),
            "\(marker)")
    }

    /// Vehicles parked side by side (as a newcomer saw acme/van7 and acme/van9 printed over each other): each
    /// name is shown, clear of the others, of every dot and of the map's controls (the zoom buttons, the scale,
    /// the north arrow, the credits), at a desktop's size and a phone's. The boxes are the ones the page measured
    /// in the browser and wrote into the DOM (`data-box`: x, y, width, height).
    @Test(
        .enabled(
            if: Tools.available("chromium"), "chromium is not installed: the fleet page is not checked in a browser"))
    func namesOfVehiclesParkedTogetherAvoidEachOtherAndTheMapsControls() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let now = Int64(try database.execute("SELECT floor(extract(epoch FROM now()))::bigint")[0, 0]!)!
        // Three vans within 60 m in Munich, and one in Berlin: the map's view spans Germany.
        let parked: [(String, Double, Double)] = [
            ("acme/van7", 48.2, 11.6), ("acme/van9", 48.2003, 11.6006), ("acme/van8", 48.1997, 11.6004),
            ("acme/van12", 52.52, 13.405),
        ]
        try PositionStore(database).write(
            positions: parked.map {
                StoredPosition(vehicle: $0.0, timestamp: now - 60, latitude: $0.1, longitude: $0.2)
            },
            trips: [])
        let directory = TemporaryDirectory("fleet-labels")
        defer { directory.remove() }
        let (server, port) = try Self.serve(fleet, directory)
        defer { _ = server.stop() }
        let artifacts = Locations.packageRoot + "/.build/test-artifacts"
        _ = try? Directory.create(artifacts)
        for (width, height) in [(1280, 900), (390, 844)] {
            let size = ["--window-size=\(width),\(height)", "--hide-scrollbars"]
            let dom = try Self.chromium(size + ["--dump-dom"], url: "http://127.0.0.1:\(port)/", directory: directory)
            #expect(dom.contains("<body data-ready=\"1\" class=\"fleet\">"))
            directory.write(dom, to: "fleet-page-\(width)x\(height).html")
            _ = try? ChildProcess.run(["cp", directory.file("fleet-page-\(width)x\(height).html"), artifacts])
            func boxes(after marker: String) -> [(x: Double, y: Double, w: Double, h: Double)] {
                var found: [(x: Double, y: Double, w: Double, h: Double)] = []
                var rest = dom[...]
                while let start = rest.firstRange(of: marker) {
                    rest = rest[start.upperBound...]
                    let tag = rest.prefix { $0 != ">" }
                    guard let open = tag.firstRange(of: "data-box=\"") else { continue }
                    let numbers = tag[open.upperBound...].prefix { $0 != "\"" }.split(separator: ",").compactMap {
                        Double($0)
                    }
                    if numbers.count == 4 { found.append((numbers[0], numbers[1], numbers[2], numbers[3])) }
                }
                return found
            }
            func overlap(
                _ a: (x: Double, y: Double, w: Double, h: Double), _ b: (x: Double, y: Double, w: Double, h: Double)
            ) -> Bool {
                a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
            }
            let labels = boxes(after: "<div class=\"vehicle-label\"")
            let furniture = boxes(after: "data-furniture=\"1\"")
            #expect(labels.count == 4, "every name shown at \(width)×\(height): \(labels)")
            #expect(furniture.count >= 4, "zoom, scale, north arrow, credits, Fit: \(furniture)")
            for (i, label) in labels.enumerated() {
                for other in labels[(i + 1)...] { #expect(!overlap(label, other), "\(label) and \(other)") }
                for control in furniture { #expect(!overlap(label, control), "\(label) on a control \(control)") }
            }
            _ = try Self.chromium(
                size + ["--screenshot=\(artifacts)/fleet-page-\(width)x\(height).png"],
                url: "http://127.0.0.1:\(port)/",
                directory: directory)
        }
    }
}
