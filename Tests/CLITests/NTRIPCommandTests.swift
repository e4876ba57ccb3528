import Foundation
import GPSDFixtures
import Glibc
import NMEA
import Simulation
import System
import TestSupport
import Testing
import Threading

/// `nmea record --ntrip` with real peers: RTKLIB's `str2str` as the caster (fed a recorded RTCM 3 stream by the test,
/// as a base station would), an emulated u-blox F9 on a pty as the receiver.
@Suite(
    .serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"),
    .enabled(if: Tools.available("str2str"), "str2str (Debian's rtklib) is not installed"),
    .enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
struct NTRIPCommandTests {
    static let nmea = BuiltExecutables.nmea

    /// The RTCM 3 frames of a log of the corpus, whole, in order.
    static func frames(_ bytes: [UInt8]) -> [[UInt8]] {
        var framer = Framer()
        var frames: [[UInt8]] = []
        framer.feed(bytes) { event in
            if case .binaryFrame(let frame) = event, frame.kind == .rtcm3 { frames.append(Array(frame.bytes)) }
        }
        return frames
    }

    /// str2str as an NTRIP caster (`base:secret`, mount TEST) whose input is `feed`'s port.
    static func caster(port: Int, feed: BaseStationFeed) throws -> ChildProcess {
        try ChildProcess([
            "str2str", "-in", "tcpcli://127.0.0.1:\(feed.port)", "-out", "ntripc://base:secret@:\(port)/TEST",
        ])
    }

    /// The RTK state of each point of a GPX track, in order: `float`, `fixed` (`nmea:rtk`), or its `fix`.
    static func qualities(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.components(separatedBy: "<trkpt").dropFirst().map { point in
            if let rtk = point.components(separatedBy: "<nmea:rtk>").dropFirst().first {
                return String(rtk.prefix { $0 != "<" })
            }
            let fix = point.components(separatedBy: "<fix>").dropFirst().first
            return fix.map { String($0.prefix { $0 != "<" }) } ?? "?"
        }
    }

    @Test(
        "record --ntrip through str2str: every frame reaches the receiver, in order, once; it turns RTK float, then fixed, and falls back when they stop; a caster restarted costs one reconnection"
    )
    func recordThroughStr2str() throws {
        let log = [UInt8](
            try #require(FileManager.default.contents(atPath: Locations.gnssCorpus! + "/rtcm/ublox-f9p-rtcm.log")))
        let expected = Self.frames(log)
        #expect(expected.count == 15)
        let receiver = try EmulatedUBlox(model: .f9)
        defer { receiver.stop() }
        let feed = try BaseStationFeed()
        let casterPort = Ports.freeTCP()
        var caster = try Self.caster(port: casterPort, feed: feed)
        defer { _ = caster.stop(SIGINT) }
        #expect(feed.waitForConnection(timeout: .seconds(10)), "str2str did not connect: \(caster.error)")
        #expect(waitUntil(timeout: .seconds(10)) { Ports.isListening(casterPort) })
        let directory = TemporaryDirectory("record-ntrip")
        let record = try ChildProcess(
            [
                Self.nmea, "record", receiver.pty.slavePath, "--baud", "9600", "-o", directory.path + "/track.gpx",
                "--ntrip", "ntrip://base@127.0.0.1:\(casterPort)/TEST", "--ntrip-gga", "5",
            ], environment: ["NMEA_NTRIP_PASSWORD": "secret"])
        #expect(waitUntil(timeout: .seconds(20)) { record.error.contains("receiving") }, "\(record.error)")
        #expect(waitUntil(timeout: .seconds(20)) { record.error.contains("connected at 9600 baud") })
        let commandLine = try #require(FileManager.default.contents(atPath: "/proc/\(record.pid)/cmdline"))
        #expect(commandLine.count > 20 && !String(decoding: commandLine, as: UTF8.self).contains("secret"))
        // The base station sends the log at about 1 kB/s, what a 9600-baud line carries.
        try feed.send(log, piece: 200, every: .milliseconds(200))
        #expect(waitUntil(timeout: .seconds(10)) { receiver.inspect { $0.corrections.frames.count } == expected.count })
        sleep(for: .seconds(2))
        // The caster goes away and comes back: one reconnection, then the stream again.
        _ = caster.stop(SIGINT)
        sleep(for: .milliseconds(500))
        caster = try Self.caster(port: casterPort, feed: feed)
        #expect(feed.waitForConnection(timeout: .seconds(10)), "str2str did not connect again: \(caster.error)")
        #expect(
            waitUntil(timeout: .seconds(40)) { record.error.components(separatedBy: "receiving").count == 3 },
            "\(record.error)")
        try feed.send(log, piece: 200, every: .milliseconds(200))
        #expect(
            waitUntil(timeout: .seconds(10)) { receiver.inspect { $0.corrections.frames.count } == 2 * expected.count })
        // No more corrections: the receiver falls back to a plain fix within 5 s.
        sleep(for: .seconds(8))
        #expect(record.stop(SIGINT) == 0, "\(record.error)")
        let received = receiver.inspect { $0.corrections.frames }
        #expect(received == expected + expected, "frames in order, each once")
        let qualities = try Self.qualities(directory.path + "/track.gpx")
        let firstFloat = try #require(qualities.firstIndex(of: "float"), "\(qualities)")
        let firstFixed = try #require(qualities.firstIndex(of: "fixed"), "\(qualities)")
        #expect(firstFloat < firstFixed)
        #expect(qualities.suffix(2) == ["3d", "3d"], "\(qualities)")
        // The track is valid GPX 1.1 with the extension.
        if let schemas = Locations.schemas, Tools.available("xmllint") {
            let lint = try ChildProcess.run(
                ["xmllint", "--noout", "--schema", schemas + "/gpx-1.1.xsd", directory.path + "/track.gpx"])
            #expect(lint.status == 0, "\(lint.error)")
        }
        #expect(record.error.contains("in 2 connections"), "\(record.error)")
        let sent = try #require(
            record.error.components(separatedBy: "in 2 connections, ").last?.prefix { $0.isNumber }, "\(record.error)")
        #expect((Int(sent) ?? 0) >= 3, "GGA every 5 s over about 25 s: \(record.error)")
        #expect(!record.error.contains("secret"))
    }
}

extension NTRIPCommandTests {
    /// `nmea serve tcp://FEED --ntrip-caster PORT/BASE`, with logins from `users` when given.
    static func ourCaster(feed: BaseStationFeed, port: Int, users: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            [
                nmea, "serve", "tcp://127.0.0.1:\(feed.port)", "--listen", "127.0.0.1:0",
                "--ntrip-caster", "127.0.0.1:\(port)/BASE",
            ] + (users.map { ["--ntrip-caster-users", $0] } ?? []))
    }

    /// Waits until a client is connected to `port` (and a moment more, for its request to be answered).
    static func waitForClient(of port: Int) -> Bool {
        let connected = waitUntil(timeout: .seconds(10)) {
            Ports.tcpSockets().contains { $0.localPort == port && $0.state == .established }
        }
        sleep(for: .seconds(1))
        return connected
    }

    @Test(
        "serve --ntrip-caster: str2str reads the stream byte for byte, with a login from an htpasswd -B file",
        .enabled(if: Tools.available("htpasswd", "curl"), "htpasswd (apache2-utils) or curl is not installed"))
    func str2strReadsOurCaster() throws {
        let log = [UInt8](
            try #require(FileManager.default.contents(atPath: Locations.gnssCorpus! + "/rtcm/ublox-f9p-rtcm.log")))
        let directory = TemporaryDirectory("ntrip-caster")
        let users = directory.path + "/users"
        let made = try ChildProcess.run(["htpasswd", "-B", "-b", "-c", users, "rover", "s3cret"])
        #expect(made.status == 0, "\(made.error)")
        let feed = try BaseStationFeed()
        let port = Ports.freeTCP()
        let serve = try Self.ourCaster(feed: feed, port: port, users: users)
        #expect(feed.waitForConnection(timeout: .seconds(10)), "\(serve.error)")
        #expect(waitUntil(timeout: .seconds(10)) { Ports.isListening(port) }, "\(serve.error)")
        // A wrong password: 401, and nothing streamed.
        let refused = try ChildProcess.run(
            [
                "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "rover:wrong",
                "http://127.0.0.1:\(port)/BASE",
            ])
        #expect(refused.output == "401", "\(refused.output) \(refused.error)")
        let output = directory.path + "/received.rtcm"
        let client = try ChildProcess([
            "str2str", "-in", "ntrip://rover:s3cret@127.0.0.1:\(port)/BASE", "-out", "file://" + output,
        ])
        #expect(Self.waitForClient(of: port))
        try feed.send(log, piece: 500, every: .milliseconds(50))
        let expected = Self.frames(log).flatMap { $0 }
        #expect(
            waitUntil(timeout: .seconds(10)) {
                (FileManager.default.contents(atPath: output)?.count ?? 0) >= expected.count
            })
        _ = client.stop(SIGINT)
        #expect([UInt8](FileManager.default.contents(atPath: output) ?? Data()) == expected, "byte for byte")
        // The sourcetable names the base's position from its 1005.
        let sources = try ChildProcess.run([Self.nmea, "ntrip", "sources", "ntrip://127.0.0.1:\(port)", "--json"])
        #expect(sources.status == 0, "\(sources.error)")
        #expect(sources.output.contains("\"mount\":\"BASE\""), "\(sources.output)")
        #expect(sources.output.contains("\"authentication\":\"B\""), "\(sources.output)")
        #expect(serve.stop(SIGINT) == 0, "\(serve.error)")
        #expect(
            serve.error.contains(
                "NTRIP caster: 15 RTCM frames (1788 bytes) from the source; 1 client streamed, 1 sourcetables, 1 logins refused"
            ), "\(serve.error)")
    }

    @Test(
        "record --ntrip from our own caster: base to rover; a UBX-only receiver turns RTK fixed, and the page and gpsd clients show the corrections",
        .enabled(if: Tools.available("gpspipe", "curl"), "gpspipe (gpsd-clients) or curl is not installed"))
    func recordFromOurCaster() throws {
        let log = [UInt8](
            try #require(FileManager.default.contents(atPath: Locations.gnssCorpus! + "/rtcm/ublox-f9p-rtcm.log")))
        let feed = try BaseStationFeed()
        let port = Ports.freeTCP()
        let serve = try Self.ourCaster(feed: feed, port: port)
        defer { _ = serve.stop(SIGINT) }
        #expect(feed.waitForConnection(timeout: .seconds(10)), "\(serve.error)")
        #expect(waitUntil(timeout: .seconds(10)) { Ports.isListening(port) })
        let receiver = try EmulatedUBlox(model: .f9)
        defer { receiver.stop() }
        // UBX only: NAV-PVT says RTK, and nothing says the corrections' age: the client does.
        let config = try ChildProcess.run(
            [Self.nmea, "config", receiver.pty.slavePath, "--nmea", "off", "--ubx", "nav-pvt,nav-eoe"],
            timeout: .seconds(60))
        #expect(config.status == 0, "\(config.error)")
        let directory = TemporaryDirectory("record-own-caster")
        let (gpsdPort, httpPort) = (Ports.freeTCP(), Ports.freeTCP())
        let record = try ChildProcess([
            Self.nmea, "record", receiver.pty.slavePath, "--baud", "9600", "-o", directory.path + "/track.gpx",
            "--ntrip", "ntrip://127.0.0.1:\(port)/BASE", "--serve", "\(gpsdPort)", "--http", "127.0.0.1:\(httpPort)",
        ])
        #expect(waitUntil(timeout: .seconds(20)) { record.error.contains("receiving") }, "\(record.error)")
        #expect(waitUntil(timeout: .seconds(20)) { record.error.contains("connected at 9600 baud") })
        let expected = Self.frames(log)
        let sender = NativeThread {
            // The 15 frames of the log over 6 s, three times: 18 s of fresh corrections.
            for _ in 0..<3 { try? feed.send(log, piece: 200, every: .milliseconds(200)) }
        }
        // While they flow: gpsd clients see RTK fixed with the corrections' age; the page shows the corrections.
        sleep(for: .seconds(9))
        let watch = try ChildProcess.run(["gpspipe", "-w", "-n", "12", "127.0.0.1:\(gpsdPort)"], timeout: .seconds(20))
        let fixed = watch.outputLines.filter { $0.contains("\"class\":\"TPV\"") && $0.contains("\"status\":3") }
        #expect(fixed.contains { $0.contains("\"dgpsAge\":") }, "\(watch.output)")
        let status = try ChildProcess.run(["curl", "-s", "http://127.0.0.1:\(httpPort)/api/status"])
        #expect(
            status.output.contains("\"corrections\":{\"source\":\"ntrip://127.0.0.1:\(port)/BASE\",\"connected\":true"),
            "\(status.output)")
        #expect(status.output.contains("\"station_id\":"), "\(status.output)")
        sender.join()
        #expect(
            waitUntil(timeout: .seconds(10)) { receiver.inspect { $0.corrections.frames.count } == 3 * expected.count })
        #expect(record.stop(SIGINT) == 0, "\(record.error)")
        #expect(receiver.inspect { $0.corrections.frames } == expected + expected + expected, "frames in order, once")
        #expect(try Self.qualities(directory.path + "/track.gpx").contains("fixed"))
    }

    @Test("ntrip sources: str2str's sourcetable as a table, with the distance from --near")
    func sourcesFromStr2str() throws {
        let feed = try BaseStationFeed()
        let port = Ports.freeTCP()
        let table = "Munich;RTCM 3.3;1005(10),1077(1);2;GPS+GLO;EX;DEU;48.15;11.57;0;0;str2str;none;B;N;5600;"
        let caster = try ChildProcess([
            "str2str", "-in", "tcpcli://127.0.0.1:\(feed.port)", "-out", "ntripc://base:secret@:\(port)/TEST:" + table,
        ])
        // str2str's caster takes 15 s to stop once it has served a sourcetable; nothing of it is kept.
        defer { _ = caster.stop(SIGKILL) }
        #expect(feed.waitForConnection(timeout: .seconds(10)), "\(caster.error)")
        #expect(waitUntil(timeout: .seconds(10)) { Ports.isListening(port) })
        let sources = try ChildProcess.run(
            [Self.nmea, "ntrip", "sources", "ntrip://127.0.0.1:\(port)", "--near", "48.1374,11.5755"])
        #expect(sources.status == 0, "\(sources.error)")
        #expect(
            sources.output == """
                MOUNT  FORMAT    MESSAGES          SYSTEMS  GGA  LOGIN  DISTANCE
                TEST   RTCM 3.3  1005(10),1077(1)  GPS+GLO  no   B      1.5 km

                """)
        let refused = try ChildProcess.run([Self.nmea, "ntrip", "sources", "ntrip://127.0.0.1:1"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("ntrip://127.0.0.1:1: Connection refused"), "\(refused.error)")
        let usage = try ChildProcess.run([Self.nmea, "record", "--ntrip", "ntrip://me:pw@caster/M", "-o", "x.gpx"])
        #expect(usage.status == 64)
        #expect(!usage.error.contains("pw@") && usage.error.contains("--ntrip-password-file"), "\(usage.error)")
    }
}

/// A base station as str2str's input sees it (`-in tcpcli://`): a TCP server that sends what the test gives it.
final class BaseStationFeed: @unchecked Sendable {
    let port: Int
    private let listener: FileDescriptor
    private var connection: FileDescriptor?

    init() throws {
        listener = try FileDescriptor.socket(family: AF_INET, nonBlocking: true)
        try listener.setOption(.reuseAddress, 1)
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        port = Int(try #require(try listener.localAddress().numeric).port)
    }

    deinit {
        try? connection?.close()
        try? listener.close()
    }

    /// Waits for the caster to connect (again).
    func waitForConnection(timeout: Duration) -> Bool {
        guard (try? listener.poll(.readable, timeoutMilliseconds: timeout.pollMilliseconds)) == .readable,
            let accepted = try? listener.accept()
        else { return false }
        try? connection?.close()
        connection = accepted
        return true
    }

    /// Sends `bytes` in pieces of `piece` bytes, one every `every`.
    func send(_ bytes: [UInt8], piece: Int, every interval: Duration) throws {
        let connection = try #require(connection)
        for start in stride(from: 0, to: bytes.count, by: piece) {
            try connection.sendAll(Array(bytes[start..<min(bytes.count, start + piece)]))
            sleep(for: interval)
        }
    }
}

/// What `--ntrip` and `--ntrip-caster` refuse before anything is opened (exit 64).
@Suite(.enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct NTRIPUsageTests {
    static let nmea = BuiltExecutables.nmea

    @Test(
        "a network source or a file cannot take corrections; GGA more often than every 5 s; a login without a password; a caster without a mount"
    )
    func usageErrors() throws {
        let cases: [([String], String)] = [
            (["serve", "-", "--ntrip", "ntrip://c/M"], "--ntrip feeds corrections to a receiver on a serial port"),
            (["record", "tcp://127.0.0.1:1", "-o", "x.gpx", "--ntrip", "ntrip://c/M"], "not tcp://127.0.0.1:1"),
            (["record", "-o", "x.gpx", "--ntrip", "ntrip://c/M", "--ntrip-gga", "3"], "--ntrip-gga"),
            (["record", "-o", "x.gpx", "--ntrip", "ntrip://me@c/M"], "needs a password"),
            (["record", "-o", "x.gpx", "--ntrip", "ntrip://c"], "needs a mount point"),
            (["record", "-o", "x.gpx", "--ntrip-gga", "10"], "goes with --ntrip URL"),
            (["serve", "--ntrip-caster", "2101"], "expected [ADDR:]PORT/MOUNT"),
            (["serve", "--ntrip-caster-users", "users"], "goes with --ntrip-caster"),
        ]
        for (arguments, message) in cases {
            let outcome = try ChildProcess.run([Self.nmea] + arguments, unsetting: ["NMEA_NTRIP_PASSWORD"])
            #expect(outcome.status == 64, "\(arguments): \(outcome.error)")
            #expect(outcome.error.contains(message), "\(arguments): \(outcome.error)")
        }
    }
}
