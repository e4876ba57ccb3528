import Fleet
import Foundation
import NMEA
import TestSupport
import Testing

/// `nmea collect --db` between a real Mosquitto and a real PostgreSQL with PostGIS, fed by `nmea publish`.
@Suite(
    .serialized, .enabled(if: MosquittoBroker.isInstalled, "needs mosquitto, mosquitto_sub and mosquitto_passwd"),
    .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct CollectorDatabaseTests {
    /// Three vehicles publish simulated drives (every fix, 20× real time) while the collector is killed with SIGKILL
    /// twice and PostgreSQL is restarted once: every position and trip published is stored once, with its values.
    @Test func killsAndADatabaseRestartLoseNothingAndStoreNothingTwice() throws {
        let fleet = try FleetDatabase()
        let broker = try Broker()
        try broker.start()
        let logs = try (0..<3).map { try simulatedDrive(vehicle: $0, seconds: 240) }
        // What the broker hands out, as a plain subscriber of its own sees it: the expected rows.
        let witness = try subscriber(broker, topic: "owntracks/#")
        func startCollector() throws -> ChildProcess {
            try ChildProcess(
                [
                    BuiltExecutables.nmea, "collect", broker.url, "--db", fleet.url, "--client-id",
                    "collector-1",
                ], environment: fleet.environment)
        }
        var collector = try startCollector()
        #expect(
            waitUntil(timeout: .seconds(15)) { collector.error.contains("nmea collect: connected") },
            "\(collector.error)")
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        let publishers = try logs.enumerated().map { index, log in
            try ChildProcess([
                BuiltExecutables.nmea, "publish", log, "--mqtt", broker.url, "--mqtt-topic",
                "owntracks/acme/van\(index)",
                "--mqtt-interval", "0", "--mqtt-min-move", "0", "--speed", "20", "--mqtt-queue",
                TemporaryDirectory("queue").path,
            ])
        }
        func stored() -> Int { Int((try? fleet.query("SELECT count(*) FROM nmea.positions"))?.first ?? "") ?? 0 }
        #expect(waitUntil(timeout: .seconds(20)) { stored() >= 100 })
        collector.signal(SIGKILL)
        #expect(collector.wait(timeout: .seconds(10)) == 128 + SIGKILL)
        collector = try startCollector()
        #expect(waitUntil(timeout: .seconds(20)) { stored() >= 250 })
        try fleet.server.restart()
        #expect(
            waitUntil(timeout: .seconds(30)) { collector.error.contains("the database is back") },
            "\(collector.error)")
        #expect(collector.error.contains("nmea collect: the database is unreachable ("))
        #expect(waitUntil(timeout: .seconds(20)) { stored() >= 450 })
        collector.signal(SIGKILL)
        _ = collector.wait(timeout: .seconds(10))
        collector = try startCollector()
        for publisher in publishers {
            #expect(publisher.wait(timeout: .seconds(60)) == 0, "\(publisher.error)")
        }
        // Every message the witness saw, parsed: locations by vehicle and time, and the trips.
        var expectedPositions: [String] = []
        var expectedTrips: [String] = []
        #expect(waitUntil(timeout: .seconds(10)) { witness.outputLines.count == 3 * 241 + 3 })
        for line in witness.outputLines {
            let space = line.firstIndex(of: " ")!
            let topic = String(line[..<space])
            let payload = Array(line[line.index(after: space)...].utf8)
            let vehicle = topic.split(separator: "/").dropFirst().prefix(2).joined(separator: "/")
            if topic.hasSuffix("/trip") {
                let trip = try TripSummary(json: payload)
                expectedTrips.append(
                    [
                        vehicle, ISO8601.string(trip.start.timestamp), ISO8601.string(trip.end.timestamp),
                        trip.start.place ?? "", trip.end.place ?? "",
                    ].joined(separator: "|"))
            } else {
                let location = try OwnTracksLocation(json: payload)
                expectedPositions.append(expectedRow(vehicle, location))
            }
        }
        #expect(expectedPositions.count == 3 * 241 && Set(expectedPositions).count == expectedPositions.count)
        #expect(waitUntil(timeout: .seconds(30)) { stored() >= expectedPositions.count })
        #expect(collector.stop(SIGTERM) == 0)
        let rows = try fleet.query(
            """
            SELECT vehicle, extract(epoch FROM time)::bigint, ST_Y(position::geometry), ST_X(position::geometry),
                   altitude, round(speed::numeric, 3), course, accuracy, satellites
            FROM nmea.positions ORDER BY vehicle, time
            """)
        #expect(rows.count == expectedPositions.count)
        #expect(
            rows
                == expectedPositions.sorted(by: {
                    $0.split(separator: "|").prefix(2).joined(separator: "|")
                        < $1.split(separator: "|").prefix(2).joined(separator: "|")
                }))
        for index in 0..<3 {
            #expect(
                publishers[index].error.contains("nmea publish: 241 fixes and 1 trip, 242 queued"),
                "\(publishers[index].error)")
        }
        let trips = try fleet.query(
            """
            SELECT vehicle, to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   to_char(end_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), start_place, end_place
            FROM nmea.trips ORDER BY vehicle
            """)
        #expect(trips == expectedTrips.sorted())
        #expect(trips.count == 3 && trips.allSatisfy { !$0.hasSuffix("||") })
        // Each trip's path runs through its vehicle's stored positions.
        #expect(
            try fleet.query("SELECT vehicle, ST_NPoints(path::geometry) FROM nmea.trips ORDER BY vehicle")
                == ["acme/van0|241", "acme/van1|241", "acme/van2|241"])
        #expect(
            try fleet.query(
                """
                SELECT vehicle, extract(epoch FROM last_seen)::bigint - extract(epoch FROM first_seen)::bigint
                FROM nmea.vehicles ORDER BY vehicle
                """) == ["acme/van0|240", "acme/van1|240", "acme/van2|240"])

        // GDAL reads the positions as a point layer.
        if let ogrinfo = Tools.which("ogrinfo") {
            let info = try ChildProcess.run([
                ogrinfo, "-ro", "-so",
                "PG:host=\(fleet.server.socketDirectory) port=\(fleet.server.port) user=postgres dbname=fleet",
                "nmea.positions",
            ])
            #expect(info.status == 0, "\(info.error)")
            #expect(info.output.contains("Geometry: Point"), "\(info.output)")
            #expect(info.output.contains("Feature Count: \(expectedPositions.count)"), "\(info.output)")
        } else {
            Issue.record("ogrinfo (gdal-bin) is not installed")
        }
    }

    /// The broker sees no acknowledgement before the transaction commits: with the table locked, the collector has
    /// the messages but cannot store them; killed then, it leaves them with the broker, which hands them to the
    /// next run. (Acknowledged on receipt, as libmosquitto does by default, they would be gone.)
    @Test func messagesAreAcknowledgedOnlyAfterTheyAreStored() throws {
        let fleet = try FleetDatabase()
        let broker = try Broker()
        try broker.start()
        func startCollector() throws -> ChildProcess {
            try ChildProcess(
                [BuiltExecutables.nmea, "collect", broker.url, "--db", fleet.url, "--client-id", "held"],
                environment: fleet.environment)
        }
        var collector = try startCollector()
        #expect(waitUntil(timeout: .seconds(15)) { collector.error.contains("nmea collect: connected") })
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        // Another session holds the table, so the collector's INSERT waits.
        let locker = try ChildProcess(
            [
                Tools.which("psql")!, "-X", "-q", "-h", fleet.server.socketDirectory, "-p", String(fleet.server.port),
                "-U", "postgres", "-d", "fleet",
            ], input: .pipe)
        locker.inputPipe!.writeAllIgnoringErrors("BEGIN;\nLOCK TABLE nmea.positions IN ACCESS EXCLUSIVE MODE;\n")
        func locks(granted: Bool) -> Int {
            let rows = try? fleet.query(
                """
                SELECT count(*) FROM pg_locks WHERE relation = 'nmea.positions'::regclass AND granted = \(granted)
                """)
            return Int(rows?.first ?? "") ?? 0
        }
        #expect(waitUntil(timeout: .seconds(10)) { locks(granted: true) >= 1 })
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        for n in 0..<10 { publisher.publish(Support.drive(n)) }
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        #expect(waitUntil(timeout: .seconds(10)) { locks(granted: false) >= 1 }, "the collector never waited")
        collector.signal(SIGKILL)
        #expect(collector.wait(timeout: .seconds(10)) == 128 + SIGKILL)
        locker.closeInput()
        #expect(locker.wait(timeout: .seconds(10)) == 0)
        #expect(try fleet.query("SELECT count(*) FROM nmea.positions") == ["0"])
        collector = try startCollector()
        #expect(
            waitUntil(timeout: .seconds(20)) {
                (try? fleet.query("SELECT count(*) FROM nmea.positions")) == ["10"]
            })
        #expect(collector.stop(SIGTERM) == 0)
        #expect(
            collector.error.contains(
                "nmea collect: 10 positions and 0 trips stored from 1 vehicle (skipped: "
                    + "1 retained copies)\n"),
            "\(collector.error)")
    }

    @Test func twoCollectorsSharingASubscriptionStoreEveryMessageOnce() throws {
        let fleet = try FleetDatabase()
        let broker = try Broker()
        try broker.start()
        let collectors = try (0..<2).map { index in
            try ChildProcess(
                [
                    BuiltExecutables.nmea, "collect", broker.url, "--db", fleet.url, "--share", "fleet",
                    "--client-id", "shared-\(index)",
                ], environment: fleet.environment)
        }
        #expect(waitUntil(timeout: .seconds(15)) { collectors.allSatisfy { $0.error.contains("connected") } })
        for collector in collectors { #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)") }
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        let total = 600
        for n in 0..<total {
            let location = OwnTracksLocation(Support.drive(n / 3), trackerID: "t\(n % 3)")!
            publisher.enqueue(topic: "owntracks/acme/van\(n % 3)", payload: location.json, retain: false)
        }
        #expect(publisher.waitUntilDelivered(timeout: 20))
        publisher.close()
        func stored() -> Int { Int((try? fleet.query("SELECT count(*) FROM nmea.positions"))?.first ?? "") ?? 0 }
        #expect(waitUntil(timeout: .seconds(20)) { stored() == total })
        var counts: [Int] = []
        for collector in collectors {
            #expect(collector.stop(SIGTERM) == 0)
            let line = collector.error.split(separator: "\n").first { $0.contains("positions and 0 trips stored") }
            counts.append(line.flatMap { Int($0.split(separator: " ")[2]) } ?? -1)
        }
        #expect(counts.allSatisfy { $0 > 0 }, "\(collectors.map(\.error))")
        #expect(counts.reduce(0, +) == total, "\(counts)")
        #expect(
            try fleet.query("SELECT vehicle, count(*) FROM nmea.positions GROUP BY vehicle ORDER BY vehicle")
                == ["acme/van0|200", "acme/van1|200", "acme/van2|200"])
    }

    @Test func badPayloadsAreCountedAndSkippedAndNamesAreOnlyValues() throws {
        let fleet = try FleetDatabase()
        let broker = try Broker(logsPackets: true)
        try broker.start()
        let collector = try ChildProcess(
            [BuiltExecutables.nmea, "collect", broker.url, "--db", fleet.url],
            environment: fleet.environment)
        #expect(waitUntil(timeout: .seconds(15)) { collector.error.contains("connected") })
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        let evil = "owntracks/x'); DROP TABLE nmea.positions; --/van"
        let good = Array(#"{"_type":"location","tst":1796025600,"lat":48.1,"lon":11.5,"vel":36,"sat":8}"#.utf8)
        for (topic, payload) in [
            (evil, good), ("owntracks/acme/van7", Array("not json".utf8)),
            (
                "owntracks/acme/van7",
                Array(#"{"_type":"location","tst":1796025600,"lat":48.1,"lon":11.5,"vel":-4}"#.utf8)
            ),
            ("owntracks/acme/van7", Array(#"{"_type":"location","tst":1796025600,"lat":95,"lon":11.5}"#.utf8)),
            ("owntracks/acme/van7", Array(#"{"_type":"lwt","tst":1}"#.utf8)),
            ("owntracks/acme/van7/trip", Array(#"{"_type":"trip","start":{}}"#.utf8)),
            ("owntracks/acme/van7", good), ("owntracks/acme/van7", good),
        ] {
            publisher.enqueue(topic: topic, payload: payload, retain: false)
        }
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        // The collector acknowledges a message once it has dealt with it (stored, or counted and skipped): all 8.
        let id = try #require(announcement(of: collector)?.clientID)
        #expect(waitUntil(timeout: .seconds(10)) { broker.acknowledgements(from: id) == 8 }, "\(broker.log)")
        #expect(collector.stop(SIGTERM) == 0)
        #expect(
            collector.error.contains(
                "nmea collect: 2 positions and 0 trips stored from 2 vehicles (skipped: "
                    + "1 already stored, 1 other messages, 4 invalid)"), "\(collector.error)")
        #expect(
            try fleet.query("SELECT vehicle, speed, satellites FROM nmea.positions ORDER BY vehicle") == [
                "acme/van7|10|8", "x'); DROP TABLE nmea.positions; --/van|10|8",
            ])
    }

    @Test func aDatabaseThatCannotBeReachedAtStartIsAnError() throws {
        let broker = try Broker()
        try broker.start()
        let port = Ports.freeTCP()
        let run = try ChildProcess.run(
            [
                BuiltExecutables.nmea, "collect", broker.url, "--db",
                "postgresql://fleet@127.0.0.1:\(port)/fleet",
            ], timeout: .seconds(30))
        #expect(run.status == 1)
        #expect(
            run.error.hasPrefix(
                "Error: cannot use the database: connection to server at \"127.0.0.1\", port "
                    + "\(port) failed: Connection refused"), "\(run.error)")
    }
}

/// `nmea simulate`'s drive for vehicle `n` (its own start, place and seed), `seconds + 1` fixes at 1 Hz, RMC and
/// GGA.
func simulatedDrive(vehicle n: Int, seconds: Int) throws -> String {
    let path = TemporaryDirectory("drive").file("van\(n).nmea")
    let run = try ChildProcess.run([
        BuiltExecutables.nmea, "simulate", "--duration", String(seconds + 1), "--profile", "rmc-gga", "--lat",
        String(48.1374 + Double(n) * 0.05), "--lon", String(11.5755 - Double(n) * 0.05), "--seed", String(n + 1),
        "-o", path,
    ])
    guard run.status == 0 else { throw BrokerError(message: "nmea simulate: \(run.error)") }
    return path
}

/// The row the test's query prints for `location` of `vehicle`.
private func expectedRow(_ vehicle: String, _ location: OwnTracksLocation) -> String {
    func text(_ value: Int?) -> String { value.map(String.init) ?? "" }
    let speed: Double? = location.speedKmh.map { Double($0) / 3.6 }
    var fields: [String] = [vehicle, String(location.timestamp), "\(location.latitude)", "\(location.longitude)"]
    fields.append(text(location.altitudeMeters))
    fields.append(rounded(speed))
    fields.append(text(location.courseDegrees))
    fields.append(text(location.accuracyMeters))
    fields.append(text(location.satellites))
    return fields.joined(separator: "|")
}

/// A value as psql prints `round(x::numeric, 3)`, or "" for none.
private func rounded(_ value: Double?) -> String {
    guard let value else { return "" }
    return String(format: "%.3f", value)
}
