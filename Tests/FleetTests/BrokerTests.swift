import Fleet
import Foundation
import NMEA
import TestSupport
import Testing

/// Tests against real Mosquitto brokers, each on its own free loopback port, stopped by PID.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled, "needs mosquitto, mosquitto_sub and mosquitto_passwd"))
struct BrokerTests {
    @Test func aSubscriberReceivesTheExactMessages() throws {
        let broker = try Broker()
        try broker.start()
        let subscription = try subscriber(broker, topic: "owntracks/#", count: 4)
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        defer { publisher.close() }
        for n in 0..<3 { publisher.publish(Support.drive(n)) }
        publisher.publish(TripSummaryTests.trip)
        #expect(subscription.waitForExit(timeout: .seconds(10)))
        #expect(
            subscription.outputLines == [
                #"owntracks/acme/van7 {"_type":"location","tid":"n7","tst":1796025600,"lat":48.1374,"lon":11.5755,"alt":520,"vel":45,"cog":45,"acc":4}"#,
                #"owntracks/acme/van7 {"_type":"location","tid":"n7","tst":1796025601,"lat":48.1375,"lon":11.5756,"alt":520,"vel":45,"cog":45,"acc":4}"#,
                #"owntracks/acme/van7 {"_type":"location","tid":"n7","tst":1796025602,"lat":48.1376,"lon":11.5757,"alt":520,"vel":45,"cog":45,"acc":4}"#,
                "owntracks/acme/van7/trip " + String(decoding: TripSummaryTests.trip.json, as: UTF8.self),
            ])
        #expect(publisher.waitUntilDelivered(timeout: 5))
        let counters = publisher.counters
        #expect(counters.queued == 4 && counters.sent == 4 && counters.acknowledged == 4 && counters.pending == 0)
        #expect(counters.state == .connected && counters.dropped == 0)
    }

    @Test func theLastPositionIsRetainedForALateSubscriber() throws {
        let broker = try Broker()
        try broker.start()
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        for n in 0..<5 { publisher.publish(Support.drive(n)) }
        publisher.publish(TripSummaryTests.trip)  // not retained
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        let late = try subscriber(broker, topic: "owntracks/#", count: 1)
        #expect(late.waitForExit(timeout: .seconds(10)))
        #expect(
            late.outputLines == [
                "owntracks/acme/van7 "
                    + String(
                        decoding: OwnTracksLocation(Support.drive(4), trackerID: "n7")!.json,
                        as: UTF8.self)
            ])
    }

    @Test func theRateLimitKeepsAParkedVehicleQuiet() throws {
        let broker = try Broker()
        try broker.start()
        let subscription = try subscriber(broker, topic: "owntracks/#")
        var configuration = try publisherConfiguration(broker.url)
        configuration.rateLimit = PublishRateLimiter(intervalSeconds: 5, minimumMoveMeters: 25, heartbeatSeconds: 60)
        let publisher = try FleetPublisher(configuration)
        // Ten minutes parked (jitter of a metre), then a minute driving at about 14 m/s.
        for second in 0..<600 {
            publisher.publish(
                Support.fix(
                    seconds: Support.start + Int64(second),
                    latitude: 48.1374 + Double(second % 3) * 0.00001, longitude: 11.5755))
        }
        for second in 0..<60 {
            publisher.publish(
                Support.fix(
                    seconds: Support.start + 600 + Int64(second),
                    latitude: 48.1374 + Double(second) * 0.000125, longitude: 11.5755))
        }
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        let counters = publisher.counters
        // Parked: the first fix and a heartbeat a minute (10); driving: every 5 s, 70 m apart (12).
        #expect(counters.queued == 22)
        #expect(counters.rateLimited == 660 - 22)
        #expect(waitUntil(timeout: .seconds(5)) { subscription.outputLines.count == 22 })
    }

    @Test func nothingIsLostOrDoubledWhenTheBrokerIsKilledAndRestarted() throws {
        let broker = try Broker(persistence: true)
        try broker.start()
        let output = TemporaryDirectory("collected").path
        let collector = try ChildProcess([
            BuiltExecutables.nmea, "collect", broker.url, "-o", output, "--client-id", "collector-1",
            "--flush-interval", "0.2",
        ])
        #expect(waitUntil(timeout: .seconds(10)) { collector.error.contains("connected") })
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        // The session, subscription and all, is in the broker's database: the kill below does not lose it.
        #expect(broker.waitForSave(), "\(broker.log)")
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        var longestCall = 0.0
        func feed(_ n: Int) {
            let start = Date()
            publisher.publish(Support.drive(n))
            longestCall = max(longestCall, Date().timeIntervalSince(start))
            usleep(50_000)  // pacing under test: a vehicle publishing 20 fixes a second, through the outage too
        }
        for n in 0..<20 { feed(n) }
        #expect(publisher.waitUntilDelivered(timeout: 5))
        broker.kill(SIGKILL)
        let outageStart = Date()
        var n = 20
        while Date().timeIntervalSince(outageStart) < 3 {
            feed(n)
            n += 1
        }
        let duringOutage = n - 20
        #expect(publisher.counters.pending > 0)
        #expect(publisher.counters.state != .connected)
        try broker.start()
        for _ in 0..<20 {
            feed(n)
            n += 1
        }
        #expect(publisher.waitUntilDelivered(timeout: 20))
        let counters = publisher.counters
        publisher.close()
        #expect(counters.dropped == 0)
        #expect(counters.acknowledged == n)
        #expect(counters.connections >= 2)
        #expect(longestCall < 0.1, "a publish call took \(longestCall) s")
        // Give the collector time to receive everything, then stop it: it finishes its files and exits 0.
        let gpx = output + "/acme/van7/2026-11-30.gpx"
        waitUntil(timeout: .seconds(15)) { collectorLocations(collector, gpx) >= n }
        #expect(collector.stop(SIGTERM) == 0)
        let times = Support.gpxTimes(gpx)
        #expect(times == (0..<n).map(Support.driveTime), "\(duringOutage) fixes during the outage; got \(times.count)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.hasSuffix("</gpx>\n"))
        #expect(try String(contentsOfFile: output + "/acme/van7/2026-11-30.geojson", encoding: .utf8).hasSuffix("]}\n"))
    }

    @Test func twoCollectorsInAShareGroupSplitTheMessages() throws {
        let broker = try Broker(logsPackets: true)
        try broker.start()
        let first = TemporaryDirectory("first").path
        let second = TemporaryDirectory("second").path
        let collectors = try [first, second].enumerated().map { index, output in
            try ChildProcess([
                BuiltExecutables.nmea, "collect", broker.url, "-o", output, "--share", "collectors",
                "--client-id", "shared-\(index)", "--flush-interval", "0.2",
            ])
        }
        #expect(waitUntil(timeout: .seconds(10)) { collectors.allSatisfy { $0.error.contains("connected") } })
        for collector in collectors { #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)") }
        let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
        let total = 60
        for n in 0..<total { publisher.publish(Support.drive(n)) }
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        // Each message is acknowledged by the collector that wrote it: all of them, between the two.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                (0..<2).map { broker.acknowledgements(from: "shared-\($0)") }.reduce(0, +) == total
            }, "\(broker.log)")
        for collector in collectors { #expect(collector.stop(SIGINT) == 0) }
        let a = Set(Support.gpxTimes(first + "/acme/van7/2026-11-30.gpx"))
        let b = Set(Support.gpxTimes(second + "/acme/van7/2026-11-30.gpx"))
        #expect(!a.isEmpty && !b.isEmpty)
        #expect(a.isDisjoint(with: b))
        #expect(a.union(b) == Set((0..<total).map(Support.driveTime)))
    }

    @Test func theCollectorWritesTripsOnceAndSkipsDuplicatesAndStrangers() throws {
        let broker = try Broker(logsPackets: true)
        try broker.start()
        let output = TemporaryDirectory("collected").path
        let collector = try ChildProcess([
            BuiltExecutables.nmea, "collect", broker.url, "-o", output, "--flush-interval", "0.2",
        ])
        #expect(waitUntil(timeout: .seconds(10)) { collector.error.contains("connected") })
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        // The same fixes and trip twice (a publisher that lost its queue and sent everything again), then an
        // OwnTracks lwt and some garbage.
        for _ in 0..<2 {
            let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
            for n in 0..<10 { publisher.publish(Support.drive(n)) }
            publisher.publish(TripSummaryTests.trip)
            publisher.enqueue(
                topic: "owntracks/acme/van7", payload: Array(#"{"_type":"lwt","tst":1}"#.utf8),
                retain: false)
            publisher.enqueue(topic: "owntracks/acme/van7", payload: Array("not json".utf8), retain: false)
            #expect(publisher.waitUntilDelivered(timeout: 10))
            publisher.close()
        }
        // The collector acknowledges each message once it has dealt with it (written, or counted and skipped):
        // all 26 (13 a round).
        let id = try #require(announcement(of: collector)?.clientID)
        #expect(waitUntil(timeout: .seconds(10)) { broker.acknowledgements(from: id) == 26 }, "\(broker.log)")
        #expect(collector.stop(SIGTERM) == 0)
        #expect(Support.gpxTimes(output + "/acme/van7/2026-11-30.gpx") == (0..<10).map(Support.driveTime))
        let trips = try String(contentsOfFile: output + "/acme/van7/trips.jsonl", encoding: .utf8)
        #expect(trips == String(decoding: TripSummaryTests.trip.json, as: UTF8.self) + "\n")
        #expect(
            collector.error.contains(
                "nmea collect: 10 positions and 1 trips from 1 vehicle (skipped: "
                    + "11 duplicates, 2 other messages, 2 invalid)"))
    }

    @Test func aRestartedCollectorContinuesTheDaysFilesAndADirectoryHasOneCollector() throws {
        let broker = try Broker()
        try broker.start()
        let output = TemporaryDirectory("collected").path
        for round in 0..<2 {
            let collector = try ChildProcess([
                BuiltExecutables.nmea, "collect", broker.url, "-o", output, "--flush-interval", "0.2",
            ])
            #expect(waitUntil(timeout: .seconds(10)) { collector.error.contains("connected") })
            if round == 0 {
                let second = try ChildProcess([BuiltExecutables.nmea, "collect", broker.url, "-o", output])
                #expect(second.waitForExit(timeout: .seconds(10)))
                #expect(second.exitStatus == 1)
                #expect(
                    second.error == "Error: another collector is writing to '\(output)'; give each collector its "
                        + "own directory\n")
            }
            #expect(waitUntilSubscribed(collector, at: broker, times: round + 1), "\(broker.log)")
            let publisher = try FleetPublisher(try publisherConfiguration(broker.url))
            for n in (round * 3)..<(round * 3 + 3) { publisher.publish(Support.drive(n)) }
            #expect(publisher.waitUntilDelivered(timeout: 10))
            publisher.close()
            // Written in order after the broker's retained copy of the last round's last position (skipped).
            let gpx = output + "/acme/van7/2026-11-30.gpx"
            #expect(waitUntil(timeout: .seconds(10)) { Support.gpxTimes(gpx).count == round * 3 + 3 })
            #expect(collector.stop(SIGINT) == 0)
        }
        #expect(Support.gpxTimes(output + "/acme/van7/2026-11-30.gpx") == (0..<6).map(Support.driveTime))
        #expect(try geojsonTimes(output + "/acme/van7/2026-11-30.geojson") == (0..<6).map(Support.driveTime))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output + "/acme/van7").sorted() == [
                "2026-11-30.geojson", "2026-11-30.gpx",
            ])
    }

    @Test func wrongCredentialsAreReportedAndNothingIsLost() throws {
        let broker = try Broker(users: [("van7", "right")])
        try broker.start()
        let queue = TemporaryDirectory("queue").path
        let wrong = try FleetPublisher(
            try publisherConfiguration(
                "mqtt://van7:wrong@127.0.0.1:\(broker.port)",
                queue: queue))
        for n in 0..<10 { wrong.publish(Support.drive(n)) }
        #expect(waitUntil(timeout: .seconds(5)) { wrong.counters.lastError != nil })
        let counters = wrong.counters
        #expect(
            counters.lastError == "the broker refused the connection: not authorised"
                || counters.lastError == "the broker refused the connection: bad user name or password")
        #expect(counters.state != .connected)
        #expect(counters.pending == 10 && counters.acknowledged == 0)
        #expect(counters.summary.contains("queue 10"))
        wrong.close()
        // With the right password the queue goes out, in order.
        let subscription = try subscriber(
            broker, topic: "owntracks/#", count: 10,
            extra: ["-u", "van7", "-P", "right"])
        let right = try FleetPublisher(
            try publisherConfiguration(
                "mqtt://van7:right@127.0.0.1:\(broker.port)",
                queue: queue))
        #expect(right.counters.recovered == 10)
        #expect(right.waitUntilDelivered(timeout: 10))
        right.close()
        #expect(subscription.waitForExit(timeout: .seconds(10)))
        #expect(
            subscription.outputLines
                == (0..<10).map {
                    "owntracks/acme/van7 "
                        + String(
                            decoding: OwnTracksLocation(Support.drive($0), trackerID: "n7")!.json,
                            as: UTF8.self)
                })
    }

    @Test func anUnreachableBrokerNeverBlocksTheCaller() throws {
        let port = Ports.freeTCP()
        let queue = TemporaryDirectory("queue").path
        let publisher = try FleetPublisher(try publisherConfiguration("mqtt://127.0.0.1:\(port)", queue: queue))
        var longest = 0.0
        for n in 0..<500 {
            let start = Date()
            publisher.publish(Support.drive(n))
            longest = max(longest, Date().timeIntervalSince(start))
        }
        #expect(longest < 0.05, "a publish call took \(longest) s")
        #expect(waitUntil(timeout: .seconds(5)) { publisher.counters.failures >= 2 })
        let counters = publisher.counters
        #expect(counters.lastError == "cannot connect to mqtt://127.0.0.1:\(port): Connection refused")
        #expect(counters.pending == 500 && counters.sent == 0 && counters.dropped == 0)
        #expect(counters.summary.hasPrefix("mqtt "))
        let closing = Date()
        publisher.close()
        #expect(Date().timeIntervalSince(closing) < 2)
        // A later run with a broker there resumes the queue.
        let broker = try Broker(port: port)
        try broker.start()
        let subscription = try subscriber(broker, topic: "owntracks/#", count: 500)
        let resumed = try FleetPublisher(try publisherConfiguration(broker.url, queue: queue))
        #expect(resumed.counters.recovered == 500)
        #expect(resumed.waitUntilDelivered(timeout: 20))
        resumed.close()
        #expect(subscription.waitForExit(timeout: .seconds(10)))
        #expect(subscription.outputLines.count == 500)
        #expect(subscription.outputLines.last?.contains("\"tst\":\(Support.start + 499)") == true)
    }

    @Test func aPublisherReleasedWithoutClosingShutsDownAndFreesItsQueue() throws {
        let queue = TemporaryDirectory("queue").path
        let configuration = try publisherConfiguration("mqtt://127.0.0.1:\(Ports.freeTCP())", queue: queue)
        do {
            let publisher = try FleetPublisher(configuration)
            for n in 0..<5 { publisher.publish(Support.drive(n)) }
        }
        let again = try FleetPublisher(configuration)
        #expect(again.counters.recovered == 5)
        again.close()
    }

    @Test func aFullQueueDropsTheOldestCountsThemAndDeliversTheRest() throws {
        let port = Ports.freeTCP()
        var configuration = try publisherConfiguration("mqtt://127.0.0.1:\(port)")
        configuration.queue = DiskQueue.Options(maximumBytes: 32 * 1024)
        let publisher = try FleetPublisher(configuration)
        var longest = 0.0
        for n in 0..<3000 {
            let start = Date()
            publisher.publish(Support.drive(n))
            longest = max(longest, Date().timeIntervalSince(start))
        }
        #expect(longest < 0.05, "a publish call took \(longest) s")
        var counters = publisher.counters
        #expect(counters.queued == 3000)
        #expect(counters.dropped > 2000)
        #expect(counters.dropped + counters.pending == 3000)
        #expect(counters.lastQueueProblem?.hasPrefix("the queue is full (32 KiB): dropped the oldest") == true)
        #expect(counters.summary.contains("dropped \(counters.dropped)"))
        // The broker comes up: the newest positions go out, in order, ending with the last.
        let broker = try Broker(port: port)
        try broker.start()
        let subscription = try subscriber(broker, topic: "owntracks/#")
        #expect(publisher.waitUntilDelivered(timeout: 20))
        counters = publisher.counters
        publisher.close()
        // The publisher reconnects on its own (every 0.2 to 1 s) while the subscriber starts: on a busy machine its
        // first messages can reach the broker before the subscription does, and those the subscriber never sees
        // (four test processes at once: 5 s of waiting for as many lines as were acknowledged ran out). What it
        // sees is the newest, in order, none twice, ending with the last.
        let last = "\"tst\":\(Support.start + 2999)"
        #expect(waitUntil(timeout: .seconds(20)) { subscription.output.contains(last) })
        let stamps = subscription.outputLines.compactMap { line -> Int64? in
            guard let range = line.range(of: "\"tst\":") else { return nil }
            return Int64(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(!stamps.isEmpty && stamps.count <= counters.acknowledged)
        #expect(stamps == Array((Support.start + 3000 - Int64(stamps.count))..<(Support.start + 3000)))
    }

    @Test func publishReplaysALogAndReportsAnUnreachableBroker() throws {
        let broker = try Broker()
        try broker.start()
        let log = TemporaryDirectory("log").path + "/drive.nmea"
        try nmeaLog().write(toFile: log, atomically: true, encoding: .utf8)
        let subscription = try subscriber(broker, topic: "owntracks/#", count: 3)
        let run = try ChildProcess([
            BuiltExecutables.nmea, "publish", log, "--mqtt", broker.url, "--mqtt-topic", "owntracks/a/b",
            "--mqtt-interval", "0", "--mqtt-min-move", "0", "--mqtt-queue",
            TemporaryDirectory("queue").path,
        ])
        #expect(run.waitForExit(timeout: .seconds(20)))
        #expect(run.exitStatus == 0)
        #expect(run.error == "nmea publish: 3 fixes, 3 queued, 3 acknowledged by the broker\n")
        #expect(subscription.waitForExit(timeout: .seconds(10)))
        #expect(
            subscription.outputLines.first
                == #"owntracks/a/b {"_type":"location","tid":"b","tst":1796025600,"lat":48.1374,"lon":11.5755,"alt":520,"vel":45,"cog":45,"acc":4,"sat":8}"#
        )

        // Cleaning as in convert: the first fix is before --since, so two go out, and the summary says why.
        let cleaned = try ChildProcess([
            BuiltExecutables.nmea, "publish", log, "--mqtt", broker.url, "--mqtt-topic", "owntracks/a/c",
            "--mqtt-interval", "0", "--mqtt-min-move", "0", "--mqtt-queue", TemporaryDirectory("queue").path,
            "--since", "2026-11-30T08:00:01Z",
        ])
        #expect(cleaned.waitForExit(timeout: .seconds(20)))
        #expect(cleaned.exitStatus == 0)
        #expect(
            cleaned.error
                == "nmea publish: dropped 1 fix (1 outside --since/--until or without a time)\n"
                + "nmea publish: 2 fixes, 2 queued, 2 acknowledged by the broker\n")

        let port = Ports.freeTCP()
        let queue = TemporaryDirectory("queue").path
        let failing = try ChildProcess([
            BuiltExecutables.nmea, "publish", log, "--mqtt", "mqtt://127.0.0.1:\(port)",
            "--mqtt-queue", queue, "--wait", "1",
        ])
        #expect(failing.waitForExit(timeout: .seconds(20)))
        #expect(failing.exitStatus == 1)
        #expect(
            failing.error.contains(
                "nmea publish: 1 messages not acknowledged within 1 s (cannot connect to "
                    + "mqtt://127.0.0.1:\(port): Connection refused); they stay queued in \(queue) for the next run"))
    }

    @Test(.enabled(if: TLSFiles.openssl != nil, "needs openssl"))
    func tlsWithACAFileAndAClearErrorForTheWrongOne() throws {
        let tls = try TLSFiles.make()
        let broker = try Broker(tls: tls)
        try broker.start()
        let subscription = try subscriber(
            broker, topic: "owntracks/#", count: 2,
            extra: ["--cafile", tls.caCertificate])
        var configuration = try publisherConfiguration(broker.tlsURL)
        configuration.tlsCAFile = tls.caCertificate
        let publisher = try FleetPublisher(configuration)
        for n in 0..<2 { publisher.publish(Support.drive(n)) }
        #expect(publisher.waitUntilDelivered(timeout: 10))
        publisher.close()
        #expect(subscription.waitForExit(timeout: .seconds(10)))
        #expect(subscription.outputLines.count == 2)

        // A CA that did not sign the broker's certificate: refused, said so, and the fixes wait in the queue.
        let stranger = try TLSFiles.make()
        configuration = try publisherConfiguration(broker.tlsURL)
        configuration.tlsCAFile = stranger.caCertificate
        let refused = try FleetPublisher(configuration)
        refused.publish(Support.drive(0))
        #expect(waitUntil(timeout: .seconds(10)) { refused.counters.lastError != nil })
        let counters = refused.counters
        #expect(
            counters.lastError?.hasPrefix("cannot connect to mqtts://127.0.0.1:\(broker.port): TLS failed") == true,
            "\(counters.lastError ?? "")")
        #expect(counters.state != .connected && counters.pending == 1)
        refused.close()

        // A CA file that does not exist: refused at once.
        configuration.tlsCAFile = "/nonexistent/ca.crt"
        #expect(throws: FleetError.self) { try FleetPublisher(configuration) }
    }

    @Test func usageErrorsExit64() throws {
        for arguments in [
            ["publish", "--mqtt", "http://x"], ["publish", "--mqtt", "mqtt://h", "--mqtt-topic", "a/#"],
            ["publish"], ["collect", "mqtt://h"], ["collect", "mqtt://h", "-o", "x", "--share", "a/b"],
            ["publish", "--mqtt", "mqtt://h", "--speed", "0"],
        ] {
            let run = try ChildProcess([BuiltExecutables.nmea] + arguments)
            #expect(run.waitForExit(timeout: .seconds(10)))
            #expect(run.exitStatus == 64, "\(arguments)")
            #expect(run.error.hasPrefix("Error: "), "\(arguments)")
        }
    }
}

/// Locations the collector has written so far (from its flushed GPX file).
private func collectorLocations(_ collector: ChildProcess, _ gpx: String) -> Int {
    Support.gpxTimes(gpx).count
}

/// Three epochs of RMC and GGA, the same as `Support.drive(0…2)` in position, speed and course.
private func nmeaLog() -> String {
    var lines: [String] = []
    for n in 0..<3 {
        let fix = Support.drive(n)
        let latitude = fix.latitude!
        let longitude = fix.longitude!
        func minutes(_ degrees: Double, _ width: Int) -> String {
            let whole = Int(degrees)
            let rest = (degrees - Double(whole)) * 60
            let text = String(format: "%0\(width)d%07.4f", whole, rest)
            return text
        }
        let time = String(format: "0800%02d.00", n)
        let rmc = "GPRMC,\(time),A,\(minutes(latitude, 2)),N,\(minutes(longitude, 3)),E,24.298,45.0,301126,,,A"
        let gga = "GPGGA,\(time),\(minutes(latitude, 2)),N,\(minutes(longitude, 3)),E,1,08,0.8,520.0,M,47.3,M,,"
        for body in [rmc, gga] {
            let checksum = body.utf8.reduce(UInt8(0), ^)
            lines.append("$\(body)*\(String(format: "%02X", checksum))")
        }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
}
