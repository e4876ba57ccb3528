import Fleet
import Glibc
import NMEA
import System
import TestSupport
import Threading

// Usage: FleetDBBenchmark [--runs N] [--messages N] [--vehicles N] [--rows N] [--skip-ingest] [--skip-queries]
// Starts its own mosquitto and PostgreSQL (TestSupport's) on free loopback ports and prints medians.

var runs = 3
var messages = 200_000
var vehicles = 1_000
var rows = 10_000_000
var ingest = true
var queries = true
do {
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--skip-ingest": ingest = false
        case "--skip-queries": queries = false
        case "--runs", "--messages", "--vehicles", "--rows":
            guard let value = arguments.next().flatMap(Int.init), value > 0 else { usage() }
            switch argument {
            case "--runs": runs = value
            case "--messages": messages = value
            case "--vehicles": vehicles = value
            default: rows = value
            }
        default: usage()
        }
    }
}

func usage() -> Never {
    complain(
        "usage: FleetDBBenchmark [--runs N] [--messages N] [--vehicles N] [--rows N] [--skip-ingest] "
            + "[--skip-queries]\n")
    exit(64)
}

func complain(_ text: String) {
    var line = text
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func now() -> Double { MonotonicTime.now().seconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// `value` with `decimals` decimals (the one number writer).
func fixed(_ value: Double, _ decimals: Int = 0) -> String { DecimalFormatter.string(value, decimals: decimals) }

func fail(_ message: String) -> Never {
    complain(message + "\n")
    exit(1)
}

/// A PostgreSQL of our own with a database `fleet` (PostGIS installed) that the superuser reaches over the socket.
func startDatabase() -> (PostgresServer, String) {
    do {
        let server = try PostgresServer()
        try server.start()
        try server.createDatabase("fleet", owner: "postgres")
        return (server, "host=\(server.socketDirectory) port=\(server.port) user=postgres dbname=fleet")
    } catch {
        fail("PostgreSQL: \(error)")
    }
}

// MARK: Ingest

let start: Int64 = 1_796_025_600

/// The OwnTracks payload of vehicle `vehicle`'s `n`th fix.
func payload(_ n: Int, vehicle: Int) -> [UInt8] {
    let seconds = start + Int64(n)
    let second = Int(seconds % 86_400)
    var fix = Fix(
        date: UTCDate(daysSinceEpoch: Int(seconds / 86_400)),
        time: UTCTime(hour: UInt8(second / 3600), minute: UInt8(second / 60 % 60), second: UInt8(second % 60)),
        latitude: 48.1374 + Double(n % 10_000) * 0.0001 + Double(vehicle) * 0.001,
        longitude: 11.5755 + Double(n % 10_000) * 0.0001, altitudeMeters: 520, speed: 12.5,
        courseDegrees: 45, quality: .gps, mode: .threeD)
    fix.hdop = 0.8
    fix.satellitesUsed = 9
    return OwnTracksLocation(fix, trackerID: "bv")!.json
}

/// Positions/s stored by `collectors` collectors (one share group when more than one), from a backlog of
/// `messages` messages the broker queued for their sessions.
@MainActor func ingestRate(collectors count: Int) -> Double {
    let broker: MosquittoBroker
    do {
        broker = try MosquittoBroker()
        try broker.start()
    } catch {
        fail("mosquitto: \(error)")
    }
    defer { broker.kill() }
    let (server, target) = startDatabase()
    defer { server.stop() }
    let url = BrokerURL(host: "127.0.0.1", port: broker.port)
    let configurations = (0..<count).map { index in
        var configuration = FleetCollector.Configuration(broker: url, database: target)
        configuration.clientID = "bench-\(getpid())-\(index)"
        if count > 1 { configuration.shareGroup = "bench" }
        return configuration
    }
    // Register the sessions (and make the schema), then let the broker queue the backlog for them.
    for configuration in configurations {
        let collector = try! FleetCollector(configuration)
        let began = now()
        try! collector.run {
            collector.connectionStatus.state == .connected && now() - began > 0.3 || now() - began > 10
        }
    }
    let queue = TemporaryDirectory("fleet-bench-queue")
    defer { queue.remove() }
    var settings = FleetPublisher.Configuration(broker: url, topic: "owntracks/bench/van")
    settings.queueDirectory = queue.path
    settings.clientID = "bench-publisher-\(getpid())"
    settings.maximumInflight = 1000
    let publisher = try! FleetPublisher(settings)
    for n in 0..<messages {
        let vehicle = n % vehicles
        publisher.enqueue(
            topic: "owntracks/fleet/v\(vehicle)", payload: payload(n / vehicles, vehicle: vehicle),
            retain: false)
    }
    guard publisher.waitUntilDelivered(timeout: 600) else { fail("publishing did not finish") }
    publisher.close()
    // Now drain it, each collector on a thread of its own.
    let collectors = configurations.map { try! FleetCollector($0) }
    let stored = { collectors.reduce(0) { $0 + $1.statistics.storedPositions } }
    let finished = Locked(false)
    let began = now()
    let threads = collectors.map { collector in
        NativeThread(name: "collector") {
            try! collector.run { finished.current || now() - began > 600 }
        }
    }
    var end = 0.0
    while end == 0 && now() - began < 600 {
        if stored() >= messages { end = now() }
        usleep(2_000)
    }
    finished.withLock { $0 = true }
    for collector in collectors { collector.wakeUp() }
    for thread in threads { thread.join() }
    guard end > 0 else { fail("only \(stored()) of \(messages) were stored") }
    let counted = (try? server.query("SELECT count(*) FROM nmea.positions", database: "fleet"))?.first ?? "?"
    guard counted == String(messages) else { fail("the table holds \(counted) rows, not \(messages)") }
    let commits = collectors.reduce(0) { $0 + $1.statistics.commits }
    complain(
        "  \(count) collector\(count == 1 ? "" : "s"): \(messages) positions in \(fixed(end - began, 2)) s, "
            + "\(commits) transactions, per collector \(collectors.map { String($0.statistics.storedPositions) }), "
            + "in the database \(collectors.map { fixed($0.statistics.databaseSeconds, 2) }) s\n")
    return Double(messages) / (end - began)
}

// MARK: Queries

@MainActor func queryTimes() -> (last: [Double], day: [Double], plan: [String]) {
    let (server, target) = startDatabase()
    defer { server.stop() }
    let database: PostgresConnection
    do {
        database = try PostgresConnection(target)
        // Version 1's tables, filled as its collectors left them, then migration 2 (timed): the upgrade of a
        // store that already holds 10 M rows.
        try FleetSchema.migrate(database, upTo: 1)
        let perVehicle = rows / vehicles
        let began = now()
        // One position a minute per vehicle, vehicle by vehicle (the primary key's order), then the vehicles.
        try database.execute(
            """
            INSERT INTO nmea.positions (vehicle, time, position, altitude, speed, course, accuracy, satellites)
            SELECT 'fleet/v' || lpad(v::text, 4, '0'),
                   timestamptz '2026-11-24 00:00:00+00' + i * interval '1 minute' + v * interval '37 ms',
                   ST_SetSRID(ST_MakePoint(11.5 + v * 0.001 + i * 0.00001, 48.1 + i * 0.00001), 4326)::geography,
                   520, 12.5, 45, 4, 9
            FROM generate_series(0, $1::int - 1) v, generate_series(0, $2::int - 1) i
            """, [String(vehicles), String(perVehicle)])
        try database.execute(
            """
            INSERT INTO nmea.vehicles (vehicle, first_seen, last_seen, last_position)
            SELECT DISTINCT ON (vehicle) vehicle, min(time) OVER (PARTITION BY vehicle), time, position
            FROM nmea.positions ORDER BY vehicle, time DESC
            """)
        try database.execute("VACUUM ANALYZE nmea.positions")
        let made = now() - began
        let migrating = now()
        try FleetSchema.migrate(database)
        let migrated = now() - migrating
        try database.execute("VACUUM ANALYZE nmea.vehicles")
        let size = try database.execute("SELECT pg_size_pretty(pg_total_relation_size('nmea.positions'))")[0, 0] ?? "?"
        complain(
            "  \(vehicles * perVehicle) rows for \(vehicles) vehicles made in \(fixed(made, 1)) s "
                + "(table and index: \(size)); migration to version \(FleetSchema.currentVersion) took "
                + "\(fixed(migrated * 1000)) ms\n")
    } catch {
        fail("generating the rows: \(error)")
    }
    let fleet = FleetQueries(database)
    let day = (Int64(UTCDate(year: 2026, month: 11, day: 27).daysSinceEpoch)) * 86_400
    var last: [Double] = []
    var track: [Double] = []
    for round in 0..<(4 * runs + 3) {
        var began = now()
        let positions = try! fleet.lastPositions()
        let lastTime = now() - began
        began = now()
        let points = try! fleet.track(
            vehicle: "fleet/v0\(500 + round % 400)",
            from: day, to: day + 86_400)
        let dayTime = now() - began
        guard positions.count == vehicles, points.count == 1440 || rows / vehicles < 1440 * 4 else {
            fail("unexpected answers: \(positions.count) vehicles, \(points.count) positions")
        }
        if round >= 3 {
            last.append(lastTime)
            track.append(dayTime)
        }
    }
    var plan: [String] = []
    for sql in [
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) " + FleetQueries.lastPositionsQuery,
        """
        EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT * FROM nmea.positions
        WHERE vehicle = 'fleet/v0500' AND time >= '2026-11-27' AND time < '2026-11-28' ORDER BY time
        """,
    ] {
        if let result = try? database.execute(sql) {
            plan += (0..<result.rowCount).compactMap { result[$0, 0] }
        }
    }
    return (last, track, plan)
}

print(
    "Fleet store figures: medians; mosquitto and PostgreSQL 15 + PostGIS on this machine, "
        + "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores")
if ingest {
    for count in [1, 2] {
        var rates: [Double] = []
        for _ in 0..<runs { rates.append(ingestRate(collectors: count)) }
        print(
            "ingest, \(count) collector\(count == 1 ? "" : "s sharing a subscription"): "
                + "\(fixed(median(rates))) positions/s (\(messages) messages for \(vehicles) vehicles; runs: "
                + "\(rates.map { fixed($0) }.joined(separator: " ")))")
    }
}
if queries {
    let (last, day, plan) = queryTimes()
    print(
        "last position of every vehicle (\(vehicles), \(rows) rows): \(fixed(median(last) * 1000, 2)) ms "
            + "(min \(fixed((last.min() ?? 0) * 1000, 2)), max \(fixed((last.max() ?? 0) * 1000, 2)); \(last.count) runs)"
    )
    print(
        "one vehicle's day (1,440 positions): \(fixed(median(day) * 1000, 2)) ms "
            + "(min \(fixed((day.min() ?? 0) * 1000, 2)), max \(fixed((day.max() ?? 0) * 1000, 2)); \(day.count) runs)")
    for line in plan { print("  " + line) }
}
