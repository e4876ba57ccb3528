import Fleet
import Foundation
import NMEA
import System
import TestSupport
import Testing

/// Geofences in a real PostgreSQL with PostGIS: events from the store, from `nmea collect --http` to `nmea fleet
/// events`, Mosquitto and a webhook receiver that is down for a while; `nmea fleet report` against `nmea trips`.
@Suite(
    .serialized, .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct GeofenceTests {
    /// Longitude `ten_thousandths / 10,000`, as text and exactly as it parses.
    static func longitude(_ tenThousandths: Int) -> Double { Double(tenThousandths) / 10_000 }

    /// A drive east along 48° N from 11.0000° to 11.0500° E, 0.0002° (14.9 m) a second, through the circle `depot`
    /// (centre 48° N 11.010° E, 200 m: its boundary at 11.007312° and 11.012688°) and the polygon `site` (11.030° to
    /// 11.040°), with six fixes jittering ±3 m on each western boundary: (time offset, longitude in 1/10,000°, or
    /// an exact longitude for the jitter).
    static func drive() -> [Double] {
        var longitudes: [Double] = []
        for step in 0...250 {
            let longitude = Self.longitude(110_000 + 2 * step)
            longitudes.append(longitude)
            if step == 35 {  // 11.0070: next to the circle's western boundary
                for n in 0..<6 { longitudes.append(11.007312 + (n % 2 == 0 ? -0.00004 : 0.00004)) }
            }
            if step == 149 {  // 11.0298: next to the polygon's western edge
                for n in 0..<6 { longitudes.append(11.030 + (n % 2 == 0 ? -0.00004 : 0.00004)) }
            }
        }
        return longitudes
    }

    static func addFences(_ fleet: FleetDatabase) throws {
        for arguments in [
            ["depot", "--circle", "48.0,11.010,200"],
            ["site", "--polygon", "47.99 11.030, 47.99 11.040, 48.01 11.040, 48.01 11.030"],
        ] {
            let added = try FleetCommandTests.run(fleet, ["geofence", "add"] + arguments)
            #expect(added.status == 0, "\(added.error)")
        }
    }

    /// Events from the store: a late position that moves a crossing moves its event; a repeated one changes
    /// nothing; a position on the boundary (within the margin) changes nothing.
    @Test func latePositionsMoveTheCrossingAndRepeatsChangeNothing() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let fences = GeofenceStore(database)
        #expect(try fences.add(Geofence(name: "depot", shape: try Geofence.circle(parsing: "48.0,11.010,200"))))
        #expect(try !fences.add(Geofence(name: "depot", shape: try Geofence.circle(parsing: "48.0,11.010,300"))))
        let store = try PositionStore(database)
        func at(_ second: Int64, _ tenThousandths: Int) -> StoredPosition {
            StoredPosition(
                vehicle: "van-9", timestamp: Support.start + second, latitude: 48,
                longitude: Self.longitude(tenThousandths))
        }
        // Outside, on the boundary (11.0074: 193 m), then inside from second 10 (11.0080: 149 m).
        var first = (0..<4).map { at(Int64($0), 110_000 + 10 * $0) }
        first += [at(8, 110_074), at(10, 110_080), at(11, 110_090)]
        let written = try store.write(positions: first, trips: [])
        #expect(written.events.map(\.timestamp) == [Support.start + 10])
        // A late position inside at second 9: the enter moves to it.
        let late = try store.write(positions: [at(9, 110_078)], trips: [])
        #expect(
            late.events == [
                FenceEvent(
                    vehicle: "van-9", fence: "depot", kind: .enter, timestamp: Support.start + 9, latitude: 48,
                    longitude: 11.0078)
            ])
        // Repeated: stored before, nothing new.
        let repeated = try store.write(positions: [at(10, 110_080), at(9, 110_078)], trips: [])
        #expect(repeated.positions == 0)
        #expect(repeated.events.isEmpty)
        // Out: far away (no position near the fence, the fence found by the last enter).
        let away = try store.write(positions: [at(30, 120_000)], trips: [])
        #expect(away.events.map(\.kind) == [.exit])
        let all = try fences.events(vehicle: nil, since: nil)
        #expect(all.map { "\($0.kind.rawValue) \($0.timestamp - Support.start)" } == ["enter 9", "exit 30"])
    }

    /// A vehicle reporting over HTTP through a circle and a polygon, with jitter on both boundaries, a repeated
    /// report and two swapped: exactly one enter and one exit per crossing in `nmea fleet events`, on MQTT, and at a
    /// webhook receiver that only comes up once all four events are stored (nothing lost meanwhile).
    @Test(
        .enabled(if: MosquittoBroker.isInstalled, "needs mosquitto"),
        .enabled(if: Tools.which("curl") != nil && Tools.which("python3") != nil, "needs curl and python3"))
    func aDriveThroughTwoFencesMakesFourEventsEverywhere() throws {
        let fleet = try FleetDatabase()
        try Self.addFences(fleet)
        let broker = try Broker()
        try broker.start()
        let witness = try subscriber(broker, topic: "owntracks/+/event")
        let files = TemporaryDirectory("geofence")
        files.write("van-1 Van 1\n", to: "devices")
        let httpPort = Ports.freeTCP()
        let webhookPort = Ports.freeTCP()
        let collector = try ChildProcess(
            [
                BuiltExecutables.nmea, "collect", broker.url, "--db", fleet.url, "--client-id", "geofence-1", "--http",
                "127.0.0.1:\(httpPort)", "--devices", files.file("devices"), "--webhook",
                "http://127.0.0.1:\(webhookPort)/hook", "--event-queue", files.file("events-queue"),
            ], environment: fleet.environment)
        #expect(waitUntil(timeout: .seconds(15)) { Ports.isListening(httpPort) }, "\(collector.error)")
        let longitudes = Self.drive()
        var urls = longitudes.enumerated().map { n, longitude in
            "http://127.0.0.1:\(httpPort)/?id=van-1&lat=48&lon=\(DecimalFormatter.string(longitude))"
                + "&timestamp=\(Support.start + Int64(n))&speed=29"
        }
        let enterDepot = try #require(longitudes.firstIndex(of: 11.0076))
        urls.insert(urls[enterDepot], at: enterDepot + 1)  // repeated at once
        urls.swapAt(200, 201)  // inside the polygon: out of order
        let codes = try HTTPCollectorTests.curlCodes(urls)
        #expect(codes == Array(repeating: 200, count: urls.count))
        func index(_ longitude: Double) throws -> Int64 { Int64(try #require(longitudes.firstIndex(of: longitude))) }
        let expected = [
            FenceEvent(
                vehicle: "van-1", fence: "depot", kind: .enter, timestamp: Support.start + Int64(enterDepot),
                latitude: 48, longitude: 11.0076),
            FenceEvent(
                vehicle: "van-1", fence: "depot", kind: .exit, timestamp: Support.start + (try index(11.013)),
                latitude: 48, longitude: 11.013),
            FenceEvent(
                vehicle: "van-1", fence: "site", kind: .enter, timestamp: Support.start + (try index(11.0302)),
                latitude: 48, longitude: 11.0302),
            FenceEvent(
                vehicle: "van-1", fence: "site", kind: .exit, timestamp: Support.start + (try index(11.0402)),
                latitude: 48, longitude: 11.0402),
        ]
        let events = try FleetCommandTests.run(fleet, ["events", "--json"])
        #expect(events.status == 0, "\(events.error)")
        #expect(events.output == String(decoding: FleetJSON.events(expected), as: UTF8.self) + "\n")
        #expect(waitUntil(timeout: .seconds(15)) { witness.outputLines.count == 4 }, "\(witness.output)")
        #expect(
            witness.outputLines
                == expected.map { "owntracks/van-1/event " + String(decoding: $0.ownTracksTransition, as: UTF8.self) })
        // The webhook's receiver comes up only now: every event was tried and failed at least once.
        let received = files.file("received")
        files.write(
            """
            import http.server, sys
            class Receiver(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                    with open(sys.argv[2], 'ab') as out:
                        out.write(self.path.encode() + b' ' + body + b'\\n')
                    self.send_response(200)
                    self.send_header('Content-Length', '0')
                    self.end_headers()
                def log_message(self, *arguments):
                    pass
            http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), Receiver).serve_forever()
            """, to: "receiver.py")
        let receiver = try ChildProcess(["python3", files.file("receiver.py"), String(webhookPort), received])
        defer { _ = receiver.stop() }
        #expect(waitUntil(timeout: .seconds(60)) { readTextFile(received).split(separator: "\n").count == 4 })
        #expect(
            readTextFile(received).split(separator: "\n").map(String.init)
                == expected.map { "/hook " + String(decoding: $0.json, as: UTF8.self) })
        #expect(collector.stop() == 0, "\(collector.error)")
        #expect(
            collector.error.contains(
                "nmea collect: 4 geofence events, 4 queued for the broker, 4 delivered to the webhook\n"),
            "\(collector.error)")
        #expect(
            collector.error.contains("HTTP reports stored from \(urls.count) requests (not stored: 1 already stored)"))
    }

    /// `nmea fleet report` of a day equals `nmea trips` of that day's track from `nmea fleet track`.
    @Test func theReportEqualsTrips() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let store = try PositionStore(database)
        // Parked 10 min, 6 km east at 15 m/s, parked 10 min, back, parked 10 min: every 5 s.
        var positions: [StoredPosition] = []
        var second: Int64 = 0
        func add(_ tenMillionths: Int, speed: Double) {
            positions.append(
                StoredPosition(
                    vehicle: "acme/van9", timestamp: Support.start + second, latitude: 48.1,
                    longitude: Double(115_000_000 + tenMillionths) / 10_000_000, speed: speed))
            second += 5
        }
        for _ in 0..<120 { add(0, speed: 0) }
        for step in 1...80 { add(step * 10_000, speed: 15) }  // 0.001° a step
        for _ in 0..<120 { add(800_000, speed: 0) }
        for step in 1...80 { add(800_000 - step * 10_000, speed: 20) }
        for _ in 0..<120 { add(0, speed: 0) }
        try store.write(positions: positions, trips: [])
        let report = try FleetCommandTests.run(fleet, ["report", "--day", "2026-11-30", "--json", "--no-places"])
        #expect(report.status == 0, "\(report.error)")
        let directory = TemporaryDirectory("report")
        let track = try FleetCommandTests.run(
            fleet, ["track", "--vehicle", "acme/van9", "--day", "2026-11-30", "-o", directory.file("day.gpx")])
        #expect(track.status == 0, "\(track.error)")
        let trips = try ChildProcess.run([
            BuiltExecutables.nmea, "trips", "--json", "--no-places", directory.file("day.gpx"),
        ])
        #expect(trips.status == 0, "\(trips.error)")
        let day = try #require(
            (try JSONSerialization.jsonObject(with: Data(report.outputBytes)) as? [String: Any])?["days"]
                as? [[String: Any]])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(trips.outputBytes)) as? [String: Any])
        let tripList = try #require(document["trips"] as? [[String: Any]])
        let stopList = try #require(document["stops"] as? [[String: Any]])
        #expect(day.count == 1)
        let figures = try #require(day.first)
        #expect(tripList.count == 2)
        #expect(figures["trips"] as? Int == tripList.count)
        #expect(figures["stops"] as? Int == stopList.count)
        let distance = tripList.reduce(0.0) { $0 + ($1["distance_m"] as? Double ?? 0) }
        #expect(abs((figures["distance_m"] as? Double ?? 0) - distance) <= 1)
        #expect(figures["driving_s"] as? Double == tripList.reduce(0.0) { $0 + ($1["duration_s"] as? Double ?? 0) })
        #expect(figures["max_speed_kmh"] as? Double == tripList.compactMap { $0["max_speed_kmh"] as? Double }.max())
        #expect(figures["max_speed_kmh"] as? Double == 72)
        #expect(figures["positions"] as? Int == positions.count)
        #expect(figures["vehicle"] as? String == "acme/van9")
        let csv = try FleetCommandTests.run(fleet, ["report", "--day", "2026-11-30", "--csv", "--no-places"])
        #expect(csv.outputLines.count == 2)
        #expect(csv.outputLines.first?.hasPrefix("vehicle,day,distance_m,driving_s,trips,stops,max_speed_kmh") == true)
    }
}
