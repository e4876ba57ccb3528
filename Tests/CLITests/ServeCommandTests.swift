import Foundation
import GPSDFixtures
import Glibc
import SerialPort
import Simulation
import System
import TestSupport
import Testing
import UBX

/// `nmea serve …` with `--listen 127.0.0.1:0`, and the port it reported.
final class ServeProcess {
    let process: ChildProcess
    let port: UInt16

    init(_ arguments: [String], input: ChildProcess.Input = .null) throws {
        let process = try ChildProcess(
            [BuiltExecutables.nmea, "serve"] + arguments + ["--listen", "127.0.0.1:0"], input: input)
        self.process = process
        let found = waitFor(timeout: .seconds(10)) { () -> UInt16?? in
            if let range = process.error.range(of: "listening on 127.0.0.1:") {
                return UInt16(process.error[range.upperBound...].prefix { $0.isNumber })
            }
            return process.isRunning ? nil : .some(nil)
        }
        guard let found, let found else {
            process.stop(SIGKILL)
            throw ServeError(description: "nmea serve did not start: \(process.error)")
        }
        port = found
    }

    func stop() -> Int32 { process.stop(SIGTERM, timeout: .seconds(10)) }
}

struct ServeError: Error, CustomStringConvertible {
    var description: String
}

/// `nmea serve` and `nmea record --serve` with gpsd's own clients: gpspipe, the Python gps module, cgps in tmux.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct ServeCommandTests {
    static let nmea = BuiltExecutables.nmea

    /// A pty with `nmea serve` reading it, connected (it has found NMEA on it), and a journey to feed.
    final class LiveServer {
        let directory: TemporaryDirectory
        let pty: PseudoTerminal
        let serve: ServeProcess
        let journey: Journey

        init(_ label: String, journey: Journey = Journey(seconds: 30)) throws {
            directory = TemporaryDirectory(label)
            pty = try PseudoTerminal.open()
            self.journey = journey
            serve = try ServeProcess([pty.slavePath])
            // The receiver "talks" (text only, no fix) until the server has found NMEA on the line.
            var builder = SentenceBuilder()
            builder.begin("GPTXT")
            builder.field("01")
            builder.field("01")
            builder.field("02")
            builder.field("starting")
            builder.end()
            let text = builder.bytes
            let connected = waitUntil(timeout: .seconds(10), pollingEvery: .milliseconds(20)) { [pty, serve] in
                if serve.process.error.contains("connected at") { return true }
                try? pty.write(text)
                return false
            }
            guard connected else { throw ServeError(description: "nmea serve never connected: \(serve.process.error)") }
        }

        func stop() {
            #expect(serve.stop() == 0)
            pty.close()
            directory.remove()
        }
    }

    @Test(.enabled(if: Tools.available("gpspipe"), "gpspipe is not installed (scripts/test installs it)"))
    func gpspipeSeesVersionDevicesWatchAndTheFedPositionsAndSatellites() throws {
        let live = try LiveServer("gpspipe")
        defer { live.stop() }
        let gpspipe = try ChildProcess(["gpspipe", "-w", "-n", "12", "127.0.0.1:\(live.serve.port)"])
        #expect(waitUntil(timeout: .seconds(5)) { gpspipe.output.contains("\"class\":\"WATCH\"") })
        let feeder = PtyFeeder(pty: live.pty, journey: live.journey, interval: .milliseconds(100), count: 8)
        defer { feeder.stop() }
        #expect(gpspipe.wait(timeout: .seconds(10)) == 0)
        // gpspipe passes gpsd's CR LF through (one Character in Swift: split on newlines, not on "\n").
        let lines = gpspipe.output.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.count == 12)
        #expect(
            lines.map { jsonField($0, "class") ?? "?" }
                == ["VERSION", "DEVICES", "WATCH", "TPV", "TPV", "SKY", "TPV", "SKY", "TPV", "SKY", "TPV", "SKY"])
        guard lines.count == 12 else { return }
        #expect(jsonField(lines[0], "proto_major") == "3")
        #expect(jsonField(lines[1], "path") == live.pty.slavePath)
        #expect(jsonField(lines[1], "bps") != nil)
        #expect(jsonField(lines[2], "enable") == "true" && jsonField(lines[2], "json") == "true")
        let journey = live.journey
        // TPVs: the first epoch's position at once (provisional, issue 12, item 8), then its complete fix, which
        // teaches the cycle's end; then one per epoch at its end: 0, 0, 1, 2, 3. Every position exact.
        let tpvs = lines.filter { $0.contains("\"class\":\"TPV\"") }
        #expect(tpvs.count == 5)
        for (tpv, index) in zip(tpvs, [0, 0, 1, 2, 3]) {
            #expect(jsonField(tpv, "time") == journey.isoTime(index))
            #expect(jsonField(tpv, "lat") == journey.expectedCoordinates(index).latitude)
            #expect(jsonField(tpv, "lon") == journey.expectedCoordinates(index).longitude)
        }
        let skies = lines.filter { $0.contains("\"class\":\"SKY\"") }
        for (sky, index) in zip(skies, 0..<3) {
            #expect(skySatellites(sky) == journey.expectedSatellites(index))
        }
    }

    /// AIS from the receiver reaches gpsd clients as gpsd reports it: a two-part type 5 and a type 1 of our harbour
    /// sample, written to the pty, come out of `gpspipe -w` as AIS objects (unscaled, as gpsd's default).
    @Test(.enabled(if: Tools.available("gpspipe"), "gpspipe is not installed (scripts/test installs it)"))
    func gpspipeSeesAISMessages() throws {
        let live = try LiveServer("gpspipe-ais")
        defer { live.stop() }
        let gpspipe = try ChildProcess(["gpspipe", "-w", "-n", "5", "127.0.0.1:\(live.serve.port)"])
        #expect(waitUntil(timeout: .seconds(5)) { gpspipe.output.contains("\"class\":\"WATCH\"") })
        // A client asking for values in units gets them (and no raw copy).
        let scaled = try LineClient(port: live.serve.port)
        _ = scaled.send(#"?WATCH={"enable":true,"json":true,"scaled":true}"# + "\n")
        #expect(scaled.read(until: { $0.contains { $0.hasPrefix(#"{"class":"WATCH""#) } }))
        let sample = try String(
            contentsOfFile: Locations.packageRoot + "/nmea-samples/harbour-ais.nmea", encoding: .utf8)
        let sentences = sample.split(whereSeparator: \.isNewline).prefix(3).map { $0 + "\r\n" }.joined()
        try live.pty.write(sentences)
        #expect(gpspipe.wait(timeout: .seconds(10)) == 0)
        let lines = gpspipe.output.split(whereSeparator: \.isNewline).map(String.init)
        let ais = lines.filter { $0.contains("\"class\":\"AIS\"") }
        #expect(ais.count == 2)
        guard ais.count == 2 else { return }
        #expect(ais[0].hasPrefix(#"{"class":"AIS","type":5,"repeat":0,"mmsi":244100001,"scaled":false,"imo":9100001,"#))
        #expect(jsonField(ais[0], "shipname") == "\"NORDERLICHT\"" || ais[0].contains(#""shipname":"NORDERLICHT""#))
        #expect(
            ais[1].contains(#""type":1,"repeat":0,"mmsi":244100001,"scaled":false,"status":0,"turn":-128,"speed":124,"#)
        )
        #expect(scaled.read(until: { $0.filter { $0.hasPrefix(#"{"class":"AIS""#) }.count == 2 }))
        let units = scaled.lines(of: "AIS")
        #expect(units.count == 2)
        #expect(units.last?.contains(#""mmsi":244100001,"scaled":true,"status":0,"speed":12.4,"#) == true)
    }

    /// A receiver set to UBX only (after a first text line, as a u-blox prints its banner): gpspipe gets TPVs with
    /// the receiver's accuracy estimates as gpsd names them.
    @Test func gpspipeSeesAUBXOnlyReceiverWithItsAccuracies() throws {
        let live = try LiveServer("gpspipe-ubx")
        defer { live.stop() }
        let gpspipe = try ChildProcess(["gpspipe", "-w", "-n", "6", "127.0.0.1:\(live.serve.port)"])
        #expect(waitUntil(timeout: .seconds(5)) { gpspipe.output.contains("\"class\":\"WATCH\"") })
        var bytes: [UInt8] = []
        for second in 0..<4 {
            var payload = UBXPayloadBuilder()
            let iTOW = UInt32((10 * 3600 + 20 * 60 + 30 + second + 18) * 1000)
            payload.u4(iTOW)
            for value: UInt16 in [2026] { payload.u2(value) }
            for value: UInt8 in [12, 6, 10, 20, UInt8(30 + second), 0b111] { payload.u1(value) }
            payload.u4(25)  // tAcc ns
            payload.i4(0)
            for value: UInt8 in [3, 0b01, 0, 11] { payload.u1(value) }  // 3D, fix OK, 11 satellites
            for value: Int32 in [115_755_000, 481_374_000, 567_800, 520_100] { payload.i4(value) }
            for value: UInt32 in [1_250, 2_100] { payload.u4(value) }
            for value: Int32 in [0, 0, 0, 0, 0] { payload.i4(value) }
            for value: UInt32 in [300, 0] { payload.u4(value) }
            payload.u2(145)
            payload.zeros(14)
            bytes += payload.frame(.navPVT)
            var eoe = UBXPayloadBuilder()
            eoe.u4(iTOW)
            bytes += eoe.frame(.navEOE)
        }
        try live.pty.write(bytes)
        #expect(gpspipe.wait(timeout: .seconds(10)) == 0)
        let tpv = gpspipe.output.split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"TPV\"") }
        #expect(tpv.count >= 2)
        let first = String(tpv.first ?? "")
        #expect(
            first.contains(#""mode":3,"time":"2026-12-06T10:20:30.000Z","ept":0.000000025,"lat":48.137400000,"#),
            "\(first)")
        #expect(first.contains(#""epv":2.100,"#), "\(first)")
        #expect(first.contains(#""eps":0.30,"#), "\(first)")
        #expect(first.contains(#""eph":1.250"#), "\(first)")
    }

    static let hasPythonGPS =
        Tools.available("/usr/bin/python3")
        && (try? ChildProcess.run(["/usr/bin/python3", "-c", "import gps"]).status) == 0

    @Test(.enabled(if: ServeCommandTests.hasPythonGPS, "python3-gps is not installed (scripts/test installs it)"))
    func thePythonGPSClientReadsTPVs() throws {
        let python = "/usr/bin/python3"
        let live = try LiveServer("python")
        defer { live.stop() }
        let script = """
            import gps
            import sys
            session = gps.gps(host="127.0.0.1", port=\(live.serve.port), mode=gps.WATCH_ENABLE)
            seen = 0
            for report in session:
                if report["class"] == "WATCH":
                    print("watching", file=sys.stderr, flush=True)
                if report["class"] == "TPV" and report.get("mode", 0) >= 2:
                    print("%s %.9f %.9f %.9f" % (report["time"], report["lat"], report["lon"], session.fix.latitude))
                    seen += 1
                    if seen == 5:
                        break
            """
        let client = try ChildProcess([python, "-c", script])
        // The server has answered the client's WATCH: it gets every report from here on.
        #expect(waitUntil(timeout: .seconds(10)) { client.error.contains("watching\n") }, "\(client.error)")
        let feeder = PtyFeeder(pty: live.pty, journey: live.journey, interval: .milliseconds(100), count: 20)
        defer { feeder.stop() }
        #expect(client.wait(timeout: .seconds(15)) == 0, "\(client.error)")
        let rows = client.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == 5)
        // The provisional first position, its complete fix, then each epoch's fix at its end.
        for (row, index) in zip(rows, [0, 0, 1, 2, 3]) where row.count == 4 {
            #expect(row[0] == live.journey.isoTime(index))
            #expect(row[1] == live.journey.expectedCoordinates(index).latitude)
            #expect(row[2] == live.journey.expectedCoordinates(index).longitude)
            #expect(row[3] == row[1])  // the module's own fix object agrees
        }
    }

    @Test(.enabled(if: Tools.available("cgps", "tmux"), "cgps and tmux are not installed (scripts/test installs them)"))
    func cgpsShowsThePositionInATmuxPane() throws {
        let live = try LiveServer("cgps", journey: Journey(seconds: 60))
        defer { live.stop() }
        let socket = "nmea-test-\(getpid())"
        let session = "cgps"
        #expect(
            try ChildProcess.run([
                "tmux", "-L", socket, "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                "cgps 127.0.0.1:\(live.serve.port)",
            ]).status == 0)
        defer { _ = try? ChildProcess.run(["tmux", "-L", socket, "kill-server"]) }
        let feeder = PtyFeeder(pty: live.pty, journey: live.journey, interval: .milliseconds(100))
        defer { feeder.stop() }
        let fed = (0..<live.journey.fixes.count).map { live.journey.expectedCoordinates($0, decimals: 8) }
        var screen = ""
        let shown = try waitUntil(timeout: .seconds(10)) {
            screen = try ChildProcess.run(["tmux", "-L", socket, "capture-pane", "-p", "-t", session]).output
            guard let latitude = screenValue(screen, "Latitude:"), let longitude = screenValue(screen, "Longitude:")
            else { return false }
            // The pane shows one of the fed positions (it moves on as epochs arrive), as a 3D fix.
            return fed.contains { latitude == "\($0.latitude) N" && longitude == "\($0.longitude) E" }
                && screen.contains("3D FIX")
        }
        #expect(shown, "cgps showed:\n\(screen)")
        #expect(screen.contains("Seen 28/Used 24"))
    }

    @Test(.enabled(if: Tools.available("gpspipe"), "gpspipe is not installed (scripts/test installs it)"))
    func recordServesGpsdClientsWhileItRecords() throws {
        let directory = TemporaryDirectory("record-serve")
        defer { directory.remove() }
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let track = directory.file("track.gpx")
        let record = try ChildProcess([Self.nmea, "record", pty.slavePath, "-o", track, "--serve", "127.0.0.1:0"])
        let journey = Journey(seconds: 30)
        let feeder = PtyFeeder(pty: pty, journey: journey, interval: .milliseconds(100))
        defer { feeder.stop() }
        var port: UInt16?
        #expect(
            waitUntil(timeout: .seconds(10)) {
                if let range = record.error.range(of: "serving gpsd clients on 127.0.0.1:") {
                    port = UInt16(record.error[range.upperBound...].prefix { $0.isNumber })
                }
                return port != nil && record.error.contains("connected at")
            })
        guard let port else { return }
        let gpspipe = try ChildProcess.run(
            ["gpspipe", "-w", "-n", "8", "127.0.0.1:\(port)"], timeout: .seconds(10))
        #expect(gpspipe.status == 0)
        let tpvs = gpspipe.output.split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"TPV\"") }
        #expect(tpvs.count >= 2)
        for tpv in tpvs {
            let time = jsonField(String(tpv), "time") ?? ""
            guard let index = journey.fixes.indices.first(where: { journey.isoTime($0) == time }) else {
                Issue.record("a TPV for a time never fed: \(tpv)")
                continue
            }
            #expect(jsonField(String(tpv), "lat") == journey.expectedCoordinates(index).latitude)
        }
        record.signal(SIGINT)
        #expect(record.wait(timeout: .seconds(10)) == 0)
        #expect(readTextFile(track).contains("<trkpt"))
    }

    @Test func serveReplaysAFileAtItsRecordedRateAndExitsAtItsEnd() throws {
        let directory = TemporaryDirectory("replay")
        defer { directory.remove() }
        let journey = Journey(seconds: 6, rateHz: 1)
        let path = directory.file("drive.nmea")
        var bytes: [UInt8] = []
        for index in journey.fixes.indices { bytes += journey.epoch(index) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))

        for (speed, interval) in [(nil, 1.0), ("4", 0.25)] as [(String?, Double)] {
            let started = MonotonicTime.now()
            let serve = try ServeProcess([path] + (speed.map { ["--speed", $0] } ?? []))
            let client = try LineClient(port: serve.port)
            client.send("?WATCH={\"enable\":true,\"json\":true}\n")
            var arrivals: [String: MonotonicTime] = [:]
            while !client.closedByPeer && MonotonicTime.now() - started < .seconds(10) {
                client.read(timeout: .milliseconds(20))
                for line in client.lines(of: "TPV") {
                    if let time = jsonField(line, "time"), arrivals[time] == nil { arrivals[time] = .now() }
                }
            }
            // Once the receiver's cycle end is learned (after two epochs, as gpsd does), each epoch is sent as it
            // ends: epochs 2…5 arrive one recorded interval apart.
            let times = (2...5).compactMap { arrivals[journey.isoTime($0)] }
            #expect(times.count == 4)
            if times.count == 4 {
                for (earlier, later) in zip(times, times.dropFirst()) {
                    let gap =
                        Double((later - earlier).components.attoseconds) / 1e18
                        + Double((later - earlier).components.seconds)
                    #expect(
                        abs(gap - interval) < interval * 0.3 + 0.05, "\(gap) s between epochs at speed \(speed ?? "1")")
                }
            }
            // The file ended: the server says so and exits by itself.
            #expect(serve.process.wait(timeout: .seconds(10)) == 0)
            #expect(serve.process.error.contains("end of input"))
        }

        // As fast as possible: done at once.
        let started = MonotonicTime.now()
        let fast = try ChildProcess.run([Self.nmea, "serve", path, "--speed", "max", "--listen", "127.0.0.1:0"])
        #expect(fast.status == 0)
        #expect(MonotonicTime.now() - started < .seconds(4))
        // And the provisional position of the first epoch, whose end teaches the cycle's.
        #expect(fast.error.contains("\(journey.fixes.count + 1) fixes"))
    }

    @Test func serveReadsStandardInput() throws {
        let directory = TemporaryDirectory("stdin")
        defer { directory.remove() }
        let journey = Journey(seconds: 1, rateHz: 10)
        let path = directory.file("drive.nmea")
        var bytes: [UInt8] = []
        for index in journey.fixes.indices { bytes += journey.epoch(index) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        // Paced (--speed 1): a client that connects at once sees the epochs as they come, then the end.
        let serve = try ServeProcess(["-", "--speed", "1"], input: .file(path))
        #expect(waitUntil(timeout: .seconds(5)) { serve.process.error.contains("stdin: reading") })
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(client.readUntilClosed(timeout: .seconds(10)))
        #expect(serve.process.wait(timeout: .seconds(10)) == 0)
        let devices = client.lines(of: "DEVICES").first ?? ""
        #expect(jsonField(devices, "path") == "stdin")
        let times = Set(client.lines(of: "TPV").compactMap { jsonField($0, "time") })
        #expect(times.contains(journey.isoTime(journey.fixes.count - 1)))
        #expect(times.count >= journey.fixes.count / 2)
        #expect(client.lines.last == "{\"class\":\"DEVICE\",\"path\":\"stdin\",\"activated\":0}")
        // Unpaced, it is read at once and the server exits.
        let unpaced = try ServeProcess(["-"], input: .file(path))
        #expect(unpaced.process.wait(timeout: .seconds(10)) == 0)
        #expect(unpaced.process.error.contains("\(journey.fixes.count + 1) fixes"))
    }

    /// A paced pipe that falls silent: SIGTERM still stops the server at once.
    @Test func aSilentPipeDoesNotHoldUpStopping() throws {
        let directory = TemporaryDirectory("fifo")
        defer { directory.remove() }
        let fifo = directory.file("feed")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened read-write: never blocks on Linux; keeps the pipe open and silent.
        let writer = try FileDescriptor.open(fifo, .readWrite)
        defer { try? writer.close() }
        let journey = Journey(seconds: 1)
        try writer.writeAll(journey.epoch(0))
        let serve = try ServeProcess(["-", "--speed", "1"], input: .file(fifo))
        #expect(waitUntil(timeout: .seconds(5)) { serve.process.error.contains("stdin: reading") })
        // The pipe is silent: serve has read the epoch, and has nothing to do.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                unreadBytes(in: writer) == 0 && Threads.allBlocked(in: serve.process.pid)
            })
        let stopping = MonotonicTime.now()
        #expect(serve.stop() == 0)
        #expect(MonotonicTime.now() - stopping < .seconds(2))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let listen = try ChildProcess.run([Self.nmea, "serve", "x.nmea", "--listen", "nowhere"])
        #expect(listen.status == 64)
        #expect(listen.error.hasPrefix("Error: The value 'nowhere' is invalid for '--listen <addr:port>'"))
        #expect(try ChildProcess.run([Self.nmea, "serve", "auto", "--speed", "2"]).status == 64)
        #expect(try ChildProcess.run([Self.nmea, "serve", "x.nmea", "--speed", "-1"]).status == 64)
        #expect(try ChildProcess.run([Self.nmea, "serve", "--max-clients", "0"]).status == 64)
        let missing = try ChildProcess.run([Self.nmea, "serve", "./no-such-log.nmea", "--listen", "127.0.0.1:0"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no-such-log.nmea: No such file or directory"))
        let serveOption = try ChildProcess.run([Self.nmea, "record", "-o", "/tmp/x.gpx", "--serve", "no:port"])
        #expect(serveOption.status == 64)
        let help = try ChildProcess.run([Self.nmea, "serve", "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("OVERVIEW: Serve a receiver or a log over gpsd's JSON"))
    }
}

/// The text after `label` on its line of a captured screen, trimmed: `48.13779750 N`.
func screenValue(_ screen: String, _ label: String) -> String? {
    for line in screen.split(separator: "\n") {
        guard let range = line.range(of: label) else { continue }
        let rest = line[range.upperBound...]
        let value = rest.prefix { $0 != "x" && $0 != "│" }  // up to the box's border
        return value.trimmingCharacters(in: .whitespaces)
    }
    return nil
}
