import Foundation
import Glibc
import Pipeline
import SerialPort
import Simulation
import Testing

/// `nmea serve` and `nmea record --serve` with gpsd's own clients: gpspipe, the Python gps module, cgps in tmux.
@Suite(.serialized) struct GPSDClientTests {
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
            serve = try ServeProcess([pty.slavePath], directory: directory.path)
            // The receiver "talks" (text only, no fix) until the server has found NMEA on the line.
            var builder = SentenceBuilder()
            builder.begin("GPTXT")
            builder.field("01")
            builder.field("01")
            builder.field("02")
            builder.field("starting")
            builder.end()
            let text = builder.bytes
            let connected = waitUntil(timeout: .seconds(10)) { [pty, serve] in
                try? pty.write(text)
                usleep(20_000)
                return serve.process.errorOutput.contains("connected at")
            }
            guard connected else { throw TestError("nmea serve never connected: \(serve.process.errorOutput)") }
        }

        func stop() {
            #expect(serve.stop() == 0)
            serve.process.removeOutput()
            pty.close()
            directory.remove()
        }
    }

    @Test func gpspipeSeesVersionDevicesWatchAndTheFedPositionsAndSatellites() throws {
        guard require("gpspipe") else { return }
        let live = try LiveServer("gpspipe")
        defer { live.stop() }
        let gpspipe = Subprocess(
            ["gpspipe", "-w", "-n", "12", "127.0.0.1:\(live.serve.port)"],
            outputDirectory: live.directory.path)
        defer { gpspipe.removeOutput() }
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
        // TPVs: the provisional first position (epoch 0), then epochs 0, 1, 2, 3; every position exact.
        let tpvs = lines.filter { $0.contains("\"class\":\"TPV\"") }
        for (tpv, index) in zip(tpvs, [0, 0, 1, 2, 3]) {
            #expect(jsonField(tpv, "time") == journey.isoTime(index))
            #expect(jsonField(tpv, "lat") == journey.expectedCoordinates(index).latitude)
            #expect(jsonField(tpv, "lon") == journey.expectedCoordinates(index).longitude)
        }
        let skies = lines.filter { $0.contains("\"class\":\"SKY\"") }
        for (sky, index) in zip(skies, 0..<4) {
            #expect(skySatellites(sky) == journey.expectedSatellites(index))
        }
    }

    @Test func thePythonGPSClientReadsTPVs() throws {
        let python = "/usr/bin/python3"
        guard require(python) else { return }
        guard run([python, "-c", "import gps"]).status == 0 else {
            Issue.record("SKIPPED: python3-gps is not installed (scripts/test installs it)")
            return
        }
        let live = try LiveServer("python")
        defer { live.stop() }
        let script = """
            import gps
            session = gps.gps(host="127.0.0.1", port=\(live.serve.port), mode=gps.WATCH_ENABLE)
            seen = 0
            for report in session:
                if report["class"] == "TPV" and report.get("mode", 0) >= 2:
                    print("%s %.9f %.9f %.9f" % (report["time"], report["lat"], report["lon"], session.fix.latitude))
                    seen += 1
                    if seen == 5:
                        break
            """
        let client = Subprocess([python, "-c", script], outputDirectory: live.directory.path)
        defer { client.removeOutput() }
        pause(.milliseconds(300))
        let feeder = PtyFeeder(pty: live.pty, journey: live.journey, interval: .milliseconds(100), count: 20)
        defer { feeder.stop() }
        #expect(client.wait(timeout: .seconds(15)) == 0, "\(client.errorOutput)")
        let rows = client.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == 5)
        for (row, index) in zip(rows, [0, 0, 1, 2, 3]) where row.count == 4 {
            #expect(row[0] == live.journey.isoTime(index))
            #expect(row[1] == live.journey.expectedCoordinates(index).latitude)
            #expect(row[2] == live.journey.expectedCoordinates(index).longitude)
            #expect(row[3] == row[1])  // the module's own fix object agrees
        }
    }

    @Test func cgpsShowsThePositionInATmuxPane() throws {
        guard require("cgps", "tmux") else { return }
        let live = try LiveServer("cgps", journey: Journey(seconds: 60))
        defer { live.stop() }
        let socket = "nmea-test-\(getpid())"
        let session = "cgps"
        #expect(
            run([
                "tmux", "-L", socket, "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                "cgps 127.0.0.1:\(live.serve.port)",
            ]).status == 0)
        defer { _ = run(["tmux", "-L", socket, "kill-server"]) }
        let feeder = PtyFeeder(pty: live.pty, journey: live.journey, interval: .milliseconds(100))
        defer { feeder.stop() }
        let fed = (0..<live.journey.fixes.count).map { live.journey.expectedCoordinates($0, decimals: 8) }
        var screen = ""
        let shown = waitUntil(timeout: .seconds(10)) {
            screen = run(["tmux", "-L", socket, "capture-pane", "-p", "-t", session]).output
            guard let latitude = screenValue(screen, "Latitude:"), let longitude = screenValue(screen, "Longitude:")
            else { return false }
            // The pane shows one of the fed positions (it moves on as epochs arrive), as a 3D fix.
            return fed.contains { latitude == "\($0.latitude) N" && longitude == "\($0.longitude) E" }
                && screen.contains("3D FIX")
        }
        #expect(shown, "cgps showed:\n\(screen)")
        #expect(screen.contains("Seen 28/Used 24"))
    }

    @Test func recordServesGpsdClientsWhileItRecords() throws {
        guard require("gpspipe") else { return }
        let directory = TemporaryDirectory("record-serve")
        defer { directory.remove() }
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let track = directory.file("track.gpx")
        let record = Subprocess(
            [nmeaExecutable, "record", pty.slavePath, "-o", track, "--serve", "127.0.0.1:0"],
            outputDirectory: directory.path)
        defer { record.removeOutput() }
        let journey = Journey(seconds: 30)
        let feeder = PtyFeeder(pty: pty, journey: journey, interval: .milliseconds(100))
        defer { feeder.stop() }
        var port: UInt16?
        #expect(
            waitUntil(timeout: .seconds(10)) {
                if let range = record.errorOutput.range(of: "serving gpsd clients on 127.0.0.1:") {
                    port = UInt16(record.errorOutput[range.upperBound...].prefix { $0.isNumber })
                }
                return port != nil && record.errorOutput.contains("connected at")
            })
        guard let port else { return }
        let gpspipe = run(["gpspipe", "-w", "-n", "8", "127.0.0.1:\(port)"], timeout: .seconds(10))
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
        #expect(readFile(track).contains("<trkpt"))
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
            let serve = try ServeProcess([path] + (speed.map { ["--speed", $0] } ?? []), directory: directory.path)
            defer { serve.process.removeOutput() }
            let client = try TestClient(port: serve.port)
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
            #expect(serve.process.errorOutput.contains("end of input"))
        }

        // As fast as possible: done at once.
        let started = MonotonicTime.now()
        let fast = run([nmeaExecutable, "serve", path, "--speed", "max", "--listen", "127.0.0.1:0"])
        #expect(fast.status == 0)
        #expect(MonotonicTime.now() - started < .seconds(4))
        #expect(fast.error.contains("\(journey.fixes.count + 1) fixes"))  // and the provisional first one
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
        let serve = try ServeProcess(["-", "--speed", "1"], directory: directory.path, input: path)
        defer { serve.process.removeOutput() }
        #expect(waitUntil(timeout: .seconds(5)) { serve.process.errorOutput.contains("stdin: reading") })
        let client = try TestClient(port: serve.port)
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
        let unpaced = try ServeProcess(["-"], directory: directory.path, input: path)
        defer { unpaced.process.removeOutput() }
        #expect(unpaced.process.wait(timeout: .seconds(10)) == 0)
        #expect(unpaced.process.errorOutput.contains("\(journey.fixes.count + 1) fixes"))
    }

    /// A paced pipe that falls silent: SIGTERM still stops the server at once.
    @Test func aSilentPipeDoesNotHoldUpStopping() throws {
        let directory = TemporaryDirectory("fifo")
        defer { directory.remove() }
        let fifo = directory.file("feed")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)  // never blocks on Linux; keeps the pipe open and silent
        #expect(writer >= 0)
        defer { close(writer) }
        let journey = Journey(seconds: 1)
        let epoch = journey.epoch(0)
        #expect(epoch.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == epoch.count)
        let serve = try ServeProcess(["-", "--speed", "1"], directory: directory.path, input: fifo)
        defer { serve.process.removeOutput() }
        #expect(waitUntil(timeout: .seconds(5)) { serve.process.errorOutput.contains("stdin: reading") })
        pause(.milliseconds(300))
        let stopping = MonotonicTime.now()
        #expect(serve.stop() == 0)
        #expect(MonotonicTime.now() - stopping < .seconds(2))
    }

    @Test func badArgumentsAreUsageErrors() {
        let listen = run([nmeaExecutable, "serve", "x.nmea", "--listen", "nowhere"])
        #expect(listen.status == 64)
        #expect(listen.error.hasPrefix("Error: The value 'nowhere' is invalid for '--listen <addr:port>'"))
        #expect(run([nmeaExecutable, "serve", "auto", "--speed", "2"]).status == 64)
        #expect(run([nmeaExecutable, "serve", "x.nmea", "--speed", "-1"]).status == 64)
        #expect(run([nmeaExecutable, "serve", "--max-clients", "0"]).status == 64)
        let missing = run([nmeaExecutable, "serve", "./no-such-log.nmea", "--listen", "127.0.0.1:0"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no-such-log.nmea: No such file or directory"))
        let serveOption = run([nmeaExecutable, "record", "-o", "/tmp/x.gpx", "--serve", "no:port"])
        #expect(serveOption.status == 64)
        let help = run([nmeaExecutable, "serve", "--help"])
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
