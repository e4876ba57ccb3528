import Foundation
import Glibc
import System
import TestSupport
import Testing

/// `nmea record` end to end on real ptys (socat) and an emulated u-blox (umockdev): every fed epoch reaches the
/// tracks, the files stay valid through SIGKILL, a reconnection starts a new segment, errors are clear.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct RecordCommandTests {
    static let hasSocat = Tools.available("socat")
    static let needsSocat: Comment = "socat is not installed (scripts/test installs it)"

    struct Setup {
        let nmea = BuiltExecutables.nmea
        let directory: TemporaryDirectory
        let pair: SocatPair
    }

    /// A directory and a socat pty pair in it.
    static func setUp(_ label: String) throws -> Setup {
        let directory = TemporaryDirectory(label)
        let pair = SocatPair(directory: directory.path)
        try #require(pair.start(), "socat did not make its ptys")
        return Setup(directory: directory, pair: pair)
    }

    /// Writes `epochs` RMC+GGA epochs at 10 Hz into `path`, starting at second `from`.
    static func feed(_ path: String, epochs: Int, from: Int = 0) -> Int {
        guard let fd = try? FileDescriptor.open(path, .writeOnly, options: [.noControllingTerminal, .closeOnExec])
        else { return 0 }
        defer { try? fd.close() }
        var sent = 0
        for second in from..<(from + epochs) {
            guard (try? fd.writeAll(Array((sampleRMC(second: second) + sampleGGA(second: second)).utf8))) != nil
            else { break }
            sent += 1
            sleep(for: .milliseconds(100))  // pacing under test: a 10 Hz receiver
        }
        return sent
    }

    static func points(inGPX path: String) -> [String] {
        (try? String(contentsOfFile: path, encoding: .utf8))?.components(separatedBy: "<trkpt ").dropFirst()
            .map { block in String(block.split(separator: ">")[0]) } ?? []
    }

    /// The GPX 1.1 schema in the shared schemas, and xmllint to check tracks against it.
    static let gpxSchema: String? = Locations.schemas.map { $0 + "/gpx-1.1.xsd" }.flatMap {
        access($0, R_OK) == 0 ? $0 : nil
    }
    static let canValidateGPX = gpxSchema != nil && Tools.available("xmllint")
    static let needsValidator: Comment =
        "xmllint (libxml2-utils) or gpx-1.1.xsd (../shared/schemas) is missing: the recorded tracks cannot be validated"

    /// Whether `gpx` is valid GPX 1.1 (for tests enabled by ``canValidateGPX``).
    static func validates(_ gpx: String) throws -> Bool {
        let schema = try #require(gpxSchema)
        let xmllint = try #require(Tools.which("xmllint"))
        return try ChildProcess.run([xmllint, "--noout", "--schema", schema, gpx]).status == 0
    }

    @Test(
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        .enabled(if: RecordCommandTests.canValidateGPX, RecordCommandTests.needsValidator))
    func everyFedEpochReachesBothTracksAndSIGTERMFinishesThem() throws {
        let setup = try Self.setUp("record-term")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let gpx = setup.directory.file("t.gpx")
        let geojson = setup.directory.file("t.geojson")
        let raw = setup.directory.file("t.nmea")
        let record = try ChildProcess(
            [
                setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx,
                "-o", geojson, "--raw", raw,
            ],
            environment: ["XDG_STATE_HOME": setup.directory.file("state")])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected at 9600 baud") })
        let sent = Self.feed(setup.pair.receiverSide, epochs: 30)
        #expect(sent == 30)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count == 30 })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        #expect(Self.points(inGPX: gpx).count == 30)
        #expect(Self.points(inGPX: gpx).first == #"lat="48.1173" lon="11.51666667""#)
        #expect(try Self.validates(gpx))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson)))
        let features = (json as? [String: Any])?["features"] as? [[String: Any]] ?? []
        let times = features.compactMap { ($0["properties"] as? [String: Any])?["coordTimes"] as? [Any] }
        #expect(times.map(\.count).reduce(0, +) == 30)
        let rawText = try String(contentsOfFile: raw, encoding: .utf8)
        #expect(rawText == (0..<30).map { sampleRMC(second: $0) + sampleGGA(second: $0) }.joined())
        #expect(record.error.contains("nmea record: 30 points in \(gpx), \(geojson); 0 lines rejected"))
    }

    @Test(
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        .enabled(if: RecordCommandTests.canValidateGPX, RecordCommandTests.needsValidator))
    func afterSIGKILLTheFilesAreValidAndHoldTheFixes() throws {
        let setup = try Self.setUp("record-kill")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let gpx = setup.directory.file("k.gpx")
        let record = try ChildProcess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected") })
        _ = Self.feed(setup.pair.receiverSide, epochs: 15)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count == 15 })
        record.signal(SIGKILL)
        #expect(record.wait() == 128 + SIGKILL)
        #expect(Self.points(inGPX: gpx).count == 15)
        #expect(try Self.validates(gpx))
    }

    @Test(
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        .enabled(if: RecordCommandTests.canValidateGPX, RecordCommandTests.needsValidator))
    func aReconnectionStartsANewSegmentWithinASecond() throws {
        let setup = try Self.setUp("record-replug")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let gpx = setup.directory.file("r.gpx")
        let record = try ChildProcess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected") })
        _ = Self.feed(setup.pair.receiverSide, epochs: 10)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count == 10 })
        // Unplug: the far end goes away; then it comes back under the same names.
        setup.pair.stop()
        #expect(waitUntil(timeout: .seconds(10)) { record.error.contains("disconnected") })
        #expect(setup.pair.start())
        let back = Date()
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("reconnected at 9600 baud") })
        #expect(Date().timeIntervalSince(back) < 1.0)
        _ = Self.feed(setup.pair.receiverSide, epochs: 10, from: 100)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count == 20 })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)
        #expect(try Self.validates(gpx))
    }

    /// Writes a simulated working day (home, commute, office, commute, home; a fix every 50 s) into the receiver
    /// side as fast as the pty takes it.
    static func feedCommute(_ setup: Setup) throws {
        let day = try ChildProcess(
            [setup.nmea, "simulate", "--route", "commute", "--profile", "rmc-gga", "--rate", "0.02"])
        #expect(day.wait() == 0)
        let nmea = day.outputBytes
        let fd = try FileDescriptor.open(
            setup.pair.receiverSide, .writeOnly, options: [.noControllingTerminal, .closeOnExec])
        defer { try? fd.close() }
        var offset = 0
        while offset < nmea.count {
            let count = min(4096, nmea.count - offset)
            offset += nmea.withUnsafeBytes { bytes in
                (try? fd.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))) ?? 0
            }
            sleep(for: .milliseconds(20))  // pacing under test: the day arrives in 4 KiB bursts, as from a receiver
        }
    }

    @Test(.enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat))
    func tripsAreAppendedAsTheyFinishWithPlaceNames() throws {
        let setup = try Self.setUp("record-trips")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let trips = setup.directory.file("trips.jsonl")
        let record = try ChildProcess(
            [
                setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
                "-o", setup.directory.file("day.gpx"), "--trips", trips,
            ],
            environment: ["XDG_CACHE_HOME": setup.directory.file("cache")])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected") })
        try Self.feedCommute(setup)
        #expect(
            waitUntil(timeout: .seconds(10)) {
                ((try? String(contentsOfFile: trips, encoding: .utf8)) ?? "").split(separator: "\n").count == 2
            })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        let lines = try String(contentsOfFile: trips, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 2)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        let start = first?["start"] as? [String: Any]
        #expect(start?["place"] as? String == "Munich, Bavaria, DE")
        #expect((first?["distance_m"] as? Double ?? 0) > 30_000)
        #expect(!record.error.contains("lost"))
    }

    @Test(
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        .enabled(
            if: Tools.available("mosquitto", "mosquitto_sub"),
            "mosquitto and mosquitto_sub are not installed (scripts/test installs them)"))
    func mqttCarriesRateLimitedPositionsAndFinishedTripsToARealBroker() throws {
        let setup = try Self.setUp("record-mqtt")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let mosquitto = try #require(Tools.which("mosquitto"))
        let mosquittoSub = try #require(Tools.which("mosquitto_sub"))
        let port = Ports.freeTCP()
        setup.directory.write("listener \(port) 127.0.0.1\nallow_anonymous true\n", to: "broker.conf")
        let broker = try ChildProcess([mosquitto, "-c", setup.directory.file("broker.conf")])
        defer {
            broker.signal(SIGTERM)
            _ = broker.wait()
        }
        #expect(waitUntil(timeout: .seconds(10)) { broker.error.contains("running") })
        let subscription = try ChildProcess([
            mosquittoSub, "-h", "127.0.0.1", "-p", String(port), "-t", "owntracks/#",
            "-q", "1", "-v", "-C", "188", "-W", "120",
        ])
        defer {
            subscription.signal(SIGTERM)
            _ = subscription.wait()
        }
        #expect(waitUntil(timeout: .seconds(5)) { broker.error.contains("as auto-") })
        let record = try ChildProcess(
            [
                setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
                "-o", setup.directory.file("day.gpx"), "--mqtt", "mqtt://127.0.0.1:\(port)",
                "--mqtt-topic", "owntracks/fleet/van7",
            ],
            environment: [
                "XDG_CACHE_HOME": setup.directory.file("cache"),
                "XDG_STATE_HOME": setup.directory.file("state"),
            ])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected") })
        try Self.feedCommute(setup)
        func messages() -> [Substring] {
            ((try? String(contentsOfFile: subscription.outputPath!, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        // The default rate limit (5 s, 25 m, a heartbeat every 300 s) lets 186 of the day's 756 fixes through; with
        // the 2 trips, mosquitto_sub has its 188 messages and exits.
        #expect(subscription.wait(timeout: .seconds(60)) == 0)
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        #expect(record.error.contains("mqtt disconnected · queue 0 · sent 188 · acked 188 · dropped 0"))
        let lines = messages()
        #expect(lines.count == 188)
        #expect(
            lines.first
                == #"owntracks/fleet/van7 {"_type":"location","tid":"n7","tst":1796025600,"lat":48.1374023,"lon":11.5755132,"alt":520,"vel":1,"cog":211,"acc":3,"sat":24}"#
        )
        #expect(lines.filter { $0.hasPrefix("owntracks/fleet/van7 ") }.count == 186)
        #expect(
            lines.filter { $0.hasPrefix("owntracks/fleet/van7/trip ") } == [
                #"owntracks/fleet/van7/trip {"_type":"trip","start":{"time":"2026-11-30T08:59:10Z","lat":48.137394,"lon":11.575510,"place":"Munich, Bavaria, DE"},"end":{"time":"2026-11-30T09:30:00Z","lat":48.355064,"lon":11.888291,"place":"Eitting, Bavaria, DE"},"distance_m":34168,"duration_s":1850,"avg_speed_kmh":66.5,"max_speed_kmh":90.0}"#,
                #"owntracks/fleet/van7/trip {"_type":"trip","start":{"time":"2026-11-30T17:29:10Z","lat":48.355049,"lon":11.888280,"place":"Eitting, Bavaria, DE"},"end":{"time":"2026-11-30T18:00:00Z","lat":48.137532,"lon":11.578577,"place":"Munich, Bavaria, DE"},"distance_m":34169,"duration_s":1850,"avg_speed_kmh":66.5,"max_speed_kmh":90.0}"#,
            ])
    }

    @Test(
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        .enabled(if: RecordCommandTests.canValidateGPX, RecordCommandTests.needsValidator))
    func anUnreachableBrokerLeavesTheTracksAloneAndKeepsTheMessagesQueued() throws {
        let setup = try Self.setUp("record-mqtt-down")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let port = Ports.freeTCP()  // nothing listens there
        let gpx = setup.directory.file("t.gpx")
        let queue = setup.directory.file("queue")
        let record = try ChildProcess(
            [
                setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx,
                "--mqtt", "mqtt://127.0.0.1:\(port)", "--mqtt-topic", "owntracks/fleet/van7",
                "--mqtt-interval", "0", "--mqtt-min-move", "0", "--mqtt-queue", queue,
            ],
            environment: ["XDG_CACHE_HOME": setup.directory.file("cache")])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected at 9600 baud") })
        #expect(Self.feed(setup.pair.receiverSide, epochs: 10) == 10)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count == 10 })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        #expect(Self.points(inGPX: gpx).count == 10)
        #expect(try Self.validates(gpx))
        #expect(
            record.error.contains(
                "nmea record: mqtt disconnected · queue 10 · sent 0 · acked 0 · dropped 0 · cannot connect to "
                    + "mqtt://127.0.0.1:\(port): Connection refused\n"))
    }

    @Test func aMissingDeviceAndAnUnwritableTrackAreClearErrors() throws {
        let nmea = BuiltExecutables.nmea
        let directory = TemporaryDirectory("record-errors")
        defer { directory.remove() }
        let missing = try ChildProcess([nmea, "record", "/dev/ttyNOPE0", "-o", directory.file("x.gpx")])
        #expect(missing.wait() == 1)
        #expect(missing.error.contains("/dev/ttyNOPE0"))
        // A missing directory is made (issue 25: one rule for every output); a path through a file cannot be.
        let full = try ChildProcess([nmea, "record", "/dev/ttyNOPE0", "-o", "/dev/null/x.gpx"])
        #expect(full.wait() == 1)
        #expect(full.error.contains("cannot create"))
        let usage = try ChildProcess([nmea, "record", "--baud", "1234", "-o", directory.file("x.gpx")])
        #expect(usage.wait() == 64)
        #expect(usage.error.hasPrefix("Error: The value '1234' is invalid for '--baud <rate>'"))
        let noOutput = try ChildProcess([nmea, "record"])
        #expect(noOutput.wait() == 64)
        #expect(noOutput.error.hasPrefix("Error: Missing expected argument '-o <file>'"))
    }

    @Test(.enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat))
    func aFullDiskIsReportedAndEndsTheRun() throws {
        let setup = try Self.setUp("record-full")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let record = try ChildProcess([
            setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", "/dev/full.gpx",
            "-o", "/dev/full",
        ])
        _ = record.wait(timeout: .seconds(5))
        // A .gpx name is needed for the format: /dev/full itself has none, so that is a usage error first.
        #expect(record.error.contains("Cannot tell the format of '/dev/full'"))
        let gpx = setup.directory.file("full.gpx")
        #expect(symlink("/dev/full", gpx) == 0)
        let full = try ChildProcess([setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx])
        #expect(full.wait(timeout: .seconds(10)) == 1)
        #expect(full.error.contains("No space left on device"))
    }

    @Test(
        .enabled(if: DevicesCommandTests.hasUmockdev, DevicesCommandTests.needsUmockdev),
        .enabled(if: RecordCommandTests.canValidateGPX, RecordCommandTests.needsValidator))
    func autoFindsAnEmulatedUbloxAndLogsFromIt() throws {
        let nmea = BuiltExecutables.nmea
        let umockdev = try #require(Tools.which("umockdev-run"))
        let directory = TemporaryDirectory("record-umockdev")
        defer { directory.remove() }
        directory.write(DevicesCommandTests.ublox7, to: "ublox7.umockdev")
        directory.write(DevicesCommandTests.nmeaScript(seconds: 4), to: "nmea.script")
        let gpx = directory.file("u.gpx")
        let record = try ChildProcess(
            [
                umockdev, "-d", directory.file("ublox7.umockdev"), "-s",
                "/dev/ttyACM0=" + directory.file("nmea.script"),
                "--", nmea, "record", "auto", "-o", gpx,
            ],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(inGPX: gpx).count >= 3 })
        // umockdev-run does not pass signals on: stop `nmea record` itself.
        _ = try ChildProcess.run(["pkill", "-TERM", "-f", "^\(nmea) record auto -o \(gpx)"])  // not umockdev-run
        #expect(record.wait(timeout: .seconds(10)) == 0)
        #expect(record.error.contains("/dev/ttyACM0: connected"))
        #expect(Self.points(inGPX: gpx).first == #"lat="48.1173" lon="11.51666667""#)
        #expect(try Self.validates(gpx))
    }
}
