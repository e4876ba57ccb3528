import Foundation
import Glibc
import Testing

/// `nmea record` end to end on real ptys (socat) and an emulated u-blox (umockdev): every fed epoch reaches the
/// tracks, the files stay valid through SIGKILL, a reconnection starts a new segment, errors are clear.
@Suite(.serialized) struct RecordCommandTests {
    struct Setup {
        let nmea: String
        let directory: TemporaryDirectory
        let pair: SocatPair
    }

    static func setUp(_ label: String) -> Setup? {
        guard let tools = DevicesCommandTests.tools(needUmockdev: false) else { return nil }
        guard which("socat") != nil else {
            Issue.record("SKIPPED: socat is not installed (the test script installs it)")
            return nil
        }
        let directory = TemporaryDirectory(label)
        let pair = SocatPair(directory: directory.path)
        guard pair.start() else {
            Issue.record("socat did not make its ptys")
            return nil
        }
        return Setup(nmea: tools.nmea, directory: directory, pair: pair)
    }

    /// Writes `epochs` RMC+GGA epochs at 10 Hz into `path`, starting at second `from`.
    static func feed(_ path: String, epochs: Int, from: Int = 0) -> Int {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var sent = 0
        for second in from..<(from + epochs) {
            let bytes = Array((sampleRMC(second: second) + sampleGGA(second: second)).utf8)
            guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else { break }
            sent += 1
            usleep(100_000)
        }
        return sent
    }

    static func points(inGPX path: String) -> [String] {
        (try? String(contentsOfFile: path, encoding: .utf8))?.components(separatedBy: "<trkpt ").dropFirst()
            .map { block in String(block.split(separator: ">")[0]) } ?? []
    }

    static func validates(_ gpx: String) -> Bool {
        guard let schema = schemaPath, which("xmllint") != nil else { return true }
        return run(["/usr/bin/env", "xmllint", "--noout", "--schema", schema, gpx]) == 0
    }

    static var schemaPath: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/schemas/gpx-1.1.xsd").path
        return access(path, R_OK) == 0 ? path : nil
    }

    @Test func everyFedEpochReachesBothTracksAndSIGTERMFinishesThem() throws {
        guard let setup = Self.setUp("record-term") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let gpx = setup.directory.file("t.gpx"), geojson = setup.directory.file("t.geojson")
        let raw = setup.directory.file("t.nmea")
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx,
                                 "-o", geojson, "--raw", raw],
                                environment: ["XDG_STATE_HOME": setup.directory.file("state")],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected at 9600 baud") })
        let sent = Self.feed(setup.pair.receiverSide, epochs: 30)
        #expect(sent == 30)
        #expect(waitUntil(timeout: .seconds(3)) { Self.points(inGPX: gpx).count == 30 })
        record.kill(SIGTERM)
        #expect(record.wait() == 0)
        #expect(Self.points(inGPX: gpx).count == 30)
        #expect(Self.points(inGPX: gpx).first == #"lat="48.1173" lon="11.51666667""#)
        #expect(Self.validates(gpx))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson)))
        let features = (json as? [String: Any])?["features"] as? [[String: Any]] ?? []
        let times = features.compactMap { ($0["properties"] as? [String: Any])?["coordTimes"] as? [Any] }
        #expect(times.map(\.count).reduce(0, +) == 30)
        let rawText = try String(contentsOfFile: raw, encoding: .utf8)
        #expect(rawText == (0..<30).map { sampleRMC(second: $0) + sampleGGA(second: $0) }.joined())
        #expect(record.standardError.contains("nmea record: 30 points in \(gpx), \(geojson); 0 lines rejected"))
    }

    @Test func afterSIGKILLTheFilesAreValidAndHoldTheFixes() throws {
        guard let setup = Self.setUp("record-kill") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let gpx = setup.directory.file("k.gpx")
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected") })
        _ = Self.feed(setup.pair.receiverSide, epochs: 15)
        #expect(waitUntil(timeout: .seconds(3)) { Self.points(inGPX: gpx).count == 15 })
        record.kill(SIGKILL)
        #expect(record.wait() == 128 + SIGKILL)
        #expect(Self.points(inGPX: gpx).count == 15)
        #expect(Self.validates(gpx))
    }

    @Test func aReconnectionStartsANewSegmentWithinASecond() throws {
        guard let setup = Self.setUp("record-replug") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let gpx = setup.directory.file("r.gpx")
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected") })
        _ = Self.feed(setup.pair.receiverSide, epochs: 10)
        #expect(waitUntil(timeout: .seconds(3)) { Self.points(inGPX: gpx).count == 10 })
        // Unplug: the far end goes away; then it comes back under the same names.
        setup.pair.stop()
        #expect(waitUntil(timeout: .seconds(3)) { record.standardError.contains("disconnected") })
        #expect(setup.pair.start())
        let back = Date()
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("reconnected at 9600 baud") })
        #expect(Date().timeIntervalSince(back) < 1.0)
        _ = Self.feed(setup.pair.receiverSide, epochs: 10, from: 100)
        #expect(waitUntil(timeout: .seconds(3)) { Self.points(inGPX: gpx).count == 20 })
        record.kill(SIGTERM)
        #expect(record.wait() == 0)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)
        #expect(Self.validates(gpx))
    }

    /// Writes a simulated working day (home, commute, office, commute, home; a fix every 50 s) into the receiver
    /// side as fast as the pty takes it.
    static func feedCommute(_ setup: Setup) throws {
        let day = Subprocess([setup.nmea, "simulate", "--route", "commute", "--profile", "rmc-gga", "--rate", "0.02"],
                             outputDirectory: setup.directory.path)
        #expect(day.wait() == 0)
        let nmea = try Data(contentsOf: URL(fileURLWithPath: day.stdoutPath))
        let fd = open(setup.pair.receiverSide, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        nmea.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = min(4096, bytes.count - offset)
                offset += max(0, Glibc.write(fd, bytes.baseAddress! + offset, count))
                usleep(20_000)
            }
        }
        close(fd)
    }

    @Test func tripsAreAppendedAsTheyFinishWithPlaceNames() throws {
        guard let setup = Self.setUp("record-trips") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let trips = setup.directory.file("trips.jsonl")
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
                                 "-o", setup.directory.file("day.gpx"), "--trips", trips],
                                environment: ["XDG_CACHE_HOME": setup.directory.file("cache")],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected") })
        try Self.feedCommute(setup)
        #expect(waitUntil(timeout: .seconds(10)) {
            ((try? String(contentsOfFile: trips, encoding: .utf8)) ?? "").split(separator: "\n").count == 2
        })
        record.kill(SIGTERM)
        #expect(record.wait() == 0)
        let lines = try String(contentsOfFile: trips, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        let start = first?["start"] as? [String: Any]
        #expect(start?["place"] as? String == "Munich, Bavaria, DE")
        #expect((first?["distance_m"] as? Double ?? 0) > 30_000)
        #expect(!record.standardError.contains("lost"))
    }

    @Test func mqttCarriesRateLimitedPositionsAndFinishedTripsToARealBroker() throws {
        guard let setup = Self.setUp("record-mqtt") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        guard let mosquitto = which("mosquitto") ?? (access("/usr/sbin/mosquitto", X_OK) == 0 ? "/usr/sbin/mosquitto" : nil),
              let mosquittoSub = which("mosquitto_sub") else {
            Issue.record("SKIPPED: mosquitto and mosquitto_sub are not installed (the test script installs them)")
            return
        }
        let port = freeTCPPort()
        setup.directory.write("broker.conf", "listener \(port) 127.0.0.1\nallow_anonymous true\n")
        let broker = Subprocess([mosquitto, "-c", setup.directory.file("broker.conf")],
                                outputDirectory: setup.directory.path)
        defer {
            broker.kill()
            _ = broker.wait()
        }
        #expect(waitUntil(timeout: .seconds(10)) { broker.standardError.contains("running") })
        let subscription = Subprocess([mosquittoSub, "-h", "127.0.0.1", "-p", String(port), "-t", "owntracks/#",
                                       "-q", "1", "-v", "-C", "188", "-W", "120"], outputDirectory: setup.directory.path)
        defer {
            subscription.kill()
            _ = subscription.wait()
        }
        #expect(waitUntil(timeout: .seconds(5)) { broker.standardError.contains("as auto-") })
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
                                 "-o", setup.directory.file("day.gpx"), "--mqtt", "mqtt://127.0.0.1:\(port)",
                                 "--mqtt-topic", "owntracks/fleet/van7"],
                                environment: ["XDG_CACHE_HOME": setup.directory.file("cache"),
                                              "XDG_STATE_HOME": setup.directory.file("state")],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected") })
        try Self.feedCommute(setup)
        func messages() -> [Substring] {
            ((try? String(contentsOfFile: subscription.stdoutPath, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        // The default rate limit (5 s, 25 m, a heartbeat every 300 s) lets 186 of the day's 756 fixes through; with
        // the 2 trips, mosquitto_sub has its 188 messages and exits.
        #expect(subscription.wait(timeout: .seconds(60)) == 0)
        record.kill(SIGTERM)
        #expect(record.wait() == 0)
        #expect(record.standardError.contains("mqtt disconnected · queue 0 · sent 188 · acked 188 · dropped 0"))
        let lines = messages()
        #expect(lines.count == 188)
        #expect(lines.first == #"owntracks/fleet/van7 {"_type":"location","tid":"n7","tst":1796025600,"lat":48.1374023,"lon":11.5755132,"alt":520,"vel":1,"cog":211,"acc":3}"#)
        #expect(lines.filter { $0.hasPrefix("owntracks/fleet/van7 ") }.count == 186)
        #expect(lines.filter { $0.hasPrefix("owntracks/fleet/van7/trip ") } == [
            #"owntracks/fleet/van7/trip {"_type":"trip","start":{"time":"2026-11-30T08:59:10Z","lat":48.137394,"lon":11.575510,"place":"Munich, Bavaria, DE"},"end":{"time":"2026-11-30T09:30:00Z","lat":48.355064,"lon":11.888291,"place":"Eitting, Bavaria, DE"},"distance_m":34168,"duration_s":1850,"avg_speed_kmh":66.5,"max_speed_kmh":90.0}"#,
            #"owntracks/fleet/van7/trip {"_type":"trip","start":{"time":"2026-11-30T17:29:10Z","lat":48.355049,"lon":11.888280,"place":"Eitting, Bavaria, DE"},"end":{"time":"2026-11-30T18:00:00Z","lat":48.269792,"lon":11.456211,"place":"2 km NE of Dachau, Bavaria, DE"},"distance_m":34168,"duration_s":1850,"avg_speed_kmh":66.5,"max_speed_kmh":90.0}"#,
        ])
    }

    @Test func anUnreachableBrokerLeavesTheTracksAloneAndKeepsTheMessagesQueued() throws {
        guard let setup = Self.setUp("record-mqtt-down") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let port = freeTCPPort()  // nothing listens there
        let gpx = setup.directory.file("t.gpx"), queue = setup.directory.file("queue")
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx,
                                 "--mqtt", "mqtt://127.0.0.1:\(port)", "--mqtt-topic", "owntracks/fleet/van7",
                                 "--mqtt-interval", "0", "--mqtt-min-move", "0", "--mqtt-queue", queue],
                                environment: ["XDG_CACHE_HOME": setup.directory.file("cache")],
                                outputDirectory: setup.directory.path)
        #expect(waitUntil(timeout: .seconds(5)) { record.standardError.contains("connected at 9600 baud") })
        #expect(Self.feed(setup.pair.receiverSide, epochs: 10) == 10)
        #expect(waitUntil(timeout: .seconds(3)) { Self.points(inGPX: gpx).count == 10 })
        record.kill(SIGTERM)
        #expect(record.wait() == 0)
        #expect(Self.points(inGPX: gpx).count == 10)
        #expect(Self.validates(gpx))
        #expect(record.standardError.contains(
            "nmea record: mqtt disconnected · queue 10 · sent 0 · acked 0 · dropped 0 · cannot connect to "
                + "mqtt://127.0.0.1:\(port): Connection refused\n"))
    }

    @Test func aMissingDeviceAndAnUnwritableTrackAreClearErrors() throws {
        guard let tools = DevicesCommandTests.tools(needUmockdev: false) else { return }
        let directory = TemporaryDirectory("record-errors")
        defer { directory.remove() }
        let missing = Subprocess([tools.nmea, "record", "/dev/ttyNOPE0", "-o", directory.file("x.gpx")],
                                 outputDirectory: directory.path)
        #expect(missing.wait() == 1)
        #expect(missing.standardError.contains("/dev/ttyNOPE0"))
        let full = Subprocess([tools.nmea, "record", "/dev/ttyNOPE0", "-o", directory.file("nodir/x.gpx")],
                              outputDirectory: directory.path)
        #expect(full.wait() == 1)
        #expect(full.standardError.contains("cannot create"))
        let usage = Subprocess([tools.nmea, "record", "--baud", "1234", "-o", directory.file("x.gpx")],
                               outputDirectory: directory.path)
        #expect(usage.wait() == 64)
        #expect(usage.standardError.hasPrefix("Error: The value '1234' is invalid for '--baud <rate>'"))
        let noOutput = Subprocess([tools.nmea, "record"], outputDirectory: directory.path)
        #expect(noOutput.wait() == 64)
        #expect(noOutput.standardError.hasPrefix("Error: Missing expected argument '-o <file>'"))
    }

    @Test func aFullDiskIsReportedAndEndsTheRun() throws {
        guard let setup = Self.setUp("record-full") else { return }
        defer { setup.pair.stop(); setup.directory.remove() }
        let record = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", "/dev/full.gpx",
                                 "-o", "/dev/full"], outputDirectory: setup.directory.path)
        _ = record.wait(timeout: .seconds(5))
        // A .gpx name is needed for the format: /dev/full itself has none, so that is a usage error first.
        #expect(record.standardError.contains("Cannot tell the format of '/dev/full'"))
        let gpx = setup.directory.file("full.gpx")
        #expect(symlink("/dev/full", gpx) == 0)
        let full = Subprocess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx],
                              outputDirectory: setup.directory.path)
        #expect(full.wait(timeout: .seconds(10)) == 1)
        #expect(full.standardError.contains("No space left on device"))
    }

    @Test func autoFindsAnEmulatedUbloxAndLogsFromIt() throws {
        guard let tools = DevicesCommandTests.tools(needUmockdev: true), let umockdev = tools.umockdev else { return }
        let directory = TemporaryDirectory("record-umockdev")
        defer { directory.remove() }
        directory.write("ublox7.umockdev", DevicesCommandTests.ublox7)
        directory.write("nmea.script", DevicesCommandTests.nmeaScript(seconds: 4))
        let gpx = directory.file("u.gpx")
        let record = Subprocess(
            [umockdev, "-d", directory.file("ublox7.umockdev"), "-s", "/dev/ttyACM0=" + directory.file("nmea.script"),
             "--", tools.nmea, "record", "auto", "-o", gpx],
            environment: ["XDG_STATE_HOME": directory.file("state")], outputDirectory: directory.path)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count >= 3 })
        // umockdev-run does not pass signals on: stop `nmea record` itself.
        run(["/usr/bin/env", "pkill", "-TERM", "-f", "record auto -o \(gpx)"])
        #expect(record.wait(timeout: .seconds(10)) == 0)
        #expect(record.standardError.contains("/dev/ttyACM0: connected"))
        #expect(Self.points(inGPX: gpx).first == #"lat="48.1173" lon="11.51666667""#)
        #expect(Self.validates(gpx))
    }
}
