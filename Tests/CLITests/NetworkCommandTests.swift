import Foundation
import GPSDFixtures
import Glibc
import System
import TestSupport
import Testing

/// Issue 13 (part A): receivers over the network (`tcp://`, `udp://`, `gpsd://`) and raw NMEA out (`--nmea-tcp`,
/// `--nmea-udp`), with real peers: socat, gpsd, a Python socket.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct NetworkCommandTests {
    static let nmea = BuiltExecutables.nmea
    static let hasSocat = Tools.available("socat")
    static let gpsd = "/usr/sbin/gpsd"
    static let hasGpsd = FileManager.default.isExecutableFile(atPath: gpsd)
    static let python = "/usr/bin/python3"

    /// A simulated log of `seconds` epochs (RMC and GGA, 1 Hz), CR LF after each sentence.
    static func log(_ directory: TemporaryDirectory, seconds: Int = 20, name: String = "drive.nmea") throws -> String {
        let path = directory.file(name)
        let outcome = try Tool.run([
            "simulate", "--duration", "\(seconds)", "--profile", "rmc-gga", "-o", path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        return path
    }

    /// `socat` serving the file at `path` to the first client on 127.0.0.1:`port`, then closing; started once it
    /// listens.
    static func socatServing(_ path: String, port: Int) throws -> ChildProcess {
        let socat = try ChildProcess(["socat", "-u", "FILE:\(path)", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr"])
        #expect(waitUntil(timeout: .seconds(20)) { Ports.hasListener(port) }, "socat did not listen")
        return socat
    }

    /// The port a running `nmea` reported after `prefix` on standard error (`serving raw NMEA on 127.0.0.1:`).
    static func reportedPort(_ process: ChildProcess, after prefix: String) -> UInt16? {
        waitFor(timeout: .seconds(10)) { () -> UInt16?? in
            if let range = process.error.range(of: prefix) {
                return UInt16(process.error[range.upperBound...].prefix { $0.isNumber })
            }
            return process.isRunning ? nil : .some(nil)
        } ?? nil
    }

    // MARK: tcp://

    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func parseAndConvertReadATCPStreamAsTheyReadTheFile() throws {
        let directory = TemporaryDirectory("tcp-parse")
        defer { directory.remove() }
        let log = try Self.log(directory)
        let port = Ports.freeTCP()
        var socat = try Self.socatServing(log, port: port)
        let fromTCP = try Tool.run(["parse", "tcp://127.0.0.1:\(port)"])
        let fromFile = try Tool.run(["parse", log])
        #expect(fromTCP.status == 0 && fromFile.status == 0, "\(fromTCP.error)")
        #expect(fromTCP.output == fromFile.output)
        #expect(fromTCP.output.split(separator: "\n").count == 40)
        #expect(fromTCP.error == "")
        _ = socat.wait(timeout: .seconds(5))
        socat = try Self.socatServing(log, port: port)
        let converted = try Tool.run(["convert", "tcp://127.0.0.1:\(port)", "-o", directory.file("tcp.gpx")])
        _ = try Tool.run(["convert", log, "-o", directory.file("file.gpx")])
        #expect(converted.status == 0, "\(converted.error)")
        let gpx = directory.read("tcp.gpx")
        #expect(gpx != nil && gpx == directory.read("file.gpx"))
        #expect((gpx ?? "").components(separatedBy: "<trkpt ").count - 1 == 20)
        _ = socat.wait(timeout: .seconds(5))
    }

    /// `record tcp://…` from socat serving a log, which then closes; a second socat serves the rest on the same port:
    /// the status lines say so, the GPX has two segments, and every fix of both connections is in it.
    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func recordFollowsATCPSourceThroughADisconnectionInTwoSegments() throws {
        let directory = TemporaryDirectory("tcp-record")
        defer { directory.remove() }
        let lines = try String(contentsOfFile: try Self.log(directory), encoding: .utf8)
            .split(separator: "\r\n").map { String($0) + "\r\n" }
        #expect(lines.count == 40)
        directory.write(lines[..<20].joined(), to: "first.nmea")
        directory.write(lines[20...].joined(), to: "second.nmea")
        let port = Ports.freeTCP()
        let gpx = directory.file("track.gpx")
        let first = try Self.socatServing(directory.file("first.nmea"), port: port)
        let record = try ChildProcess([Self.nmea, "record", "tcp://127.0.0.1:\(port)", "-o", gpx])
        let name = "tcp://127.0.0.1:\(port)"
        #expect(waitUntil(timeout: .seconds(10)) { record.error.contains("\(name): connection closed by the peer") })
        _ = first.wait(timeout: .seconds(5))
        let second = try Self.socatServing(directory.file("second.nmea"), port: port)
        #expect(waitUntil(timeout: .seconds(15)) { record.error.contains("\(name): reconnected") })
        _ = second.wait(timeout: .seconds(5))
        #expect(
            waitUntil(timeout: .seconds(10)) {
                record.error.components(separatedBy: "connection closed by the peer").count == 3
            })
        #expect(record.stop(SIGINT) == 0)
        let status = record.error.split(separator: "\n").map(String.init)
        #expect(status.first == "nmea record: \(name): connecting")
        #expect(status.dropFirst().first == "nmea record: \(name): connected")
        #expect(status.contains("nmea record: \(name): connection closed by the peer; reconnecting in 0.5 s"))
        #expect(status.contains("nmea record: \(name): reconnected"))
        let text = directory.read("track.gpx") ?? ""
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)
        let times = text.components(separatedBy: "<time>").dropFirst().map { $0.prefix(19) }
        let expected = (0..<20).map { "2026-11-30T08:00:\($0 < 10 ? "0" : "")\($0)" }
        #expect(Array(times.suffix(20)) == expected.map { Substring($0) })
    }

    /// `watch` and `serve` take a `tcp://` receiver as they take a device: watch's plain lines are those of the file
    /// replayed, and serve's gpsd clients get a TPV for every epoch.
    /// `record tcp://… --http`: the page shows the receiver's last position while the track is written, and says
    /// the receiver went away when the connection closes.
    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func recordServesThePageWhileItLogs() throws {
        let directory = TemporaryDirectory("tcp-record-http")
        defer { directory.remove() }
        let log = try Self.log(directory, seconds: 12)
        let port = Ports.freeTCP()
        let socat = try Self.socatServing(log, port: port)
        defer { _ = socat.stop() }
        let gpx = directory.file("track.gpx")
        let record = try ChildProcess(
            [Self.nmea, "record", "tcp://127.0.0.1:\(port)", "-o", gpx, "--http", "127.0.0.1:0"],
            environment: ["XDG_CACHE_HOME": directory.file("cache")])
        let page = try #require(Self.reportedPort(record, after: "the page is at http://127.0.0.1:"), "\(record.error)")
        #expect(
            waitUntil(timeout: .seconds(15)) {
                (try? RawHTTP.get(port: page, "/api/status").body.contains(#""connection":"unplugged""#)) == true
            }, "\(record.error)")
        let lastFix = try #require(
            try Tool.run(["parse", "--fixes", log]).output.split(separator: "\n").last.map(String.init))
        let position = try RawHTTP.get(port: page, "/api/position").body
        #expect(position.hasPrefix(lastFix.dropLast() + ",\"place\":"), "\(position)")
        #expect(try RawHTTP.get(port: page, "/").body.contains("<div id=\"place\">"))
        #expect(record.stop(SIGINT) == 0)
        #expect(readTextFile(gpx).components(separatedBy: "<trkpt ").count - 1 == 12)
    }

    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func watchAndServeReadATCPReceiver() throws {
        let directory = TemporaryDirectory("tcp-watch")
        defer { directory.remove() }
        let log = try Self.log(directory, seconds: 10)
        var port = Ports.freeTCP()
        var socat = try Self.socatServing(log, port: port)
        let watch = try ChildProcess([Self.nmea, "watch", "tcp://127.0.0.1:\(port)", "--no-places"])
        #expect(waitUntil(timeout: .seconds(10)) { watch.outputLines.count >= 10 })
        #expect(watch.stop(SIGINT) == 0)
        _ = socat.wait(timeout: .seconds(5))
        let replay = try Tool.run(["watch", log, "--speed", "max", "--no-places"])
        #expect(watch.outputLines.count == 10)
        #expect(watch.output == replay.output)

        port = Ports.freeTCP()
        let serve = try ChildProcess([Self.nmea, "serve", "tcp://127.0.0.1:\(port)", "--listen", "127.0.0.1:0"])
        defer { _ = serve.stop(SIGKILL) }
        let gpsdPort = try #require(Self.reportedPort(serve, after: "listening on 127.0.0.1:"))
        let client = try LineClient(port: gpsdPort)
        _ = client.send(#"?WATCH={"enable":true,"json":true}"# + "\n")
        #expect(client.read(until: { !$0.filter { $0.hasPrefix(#"{"class":"WATCH""#) }.isEmpty }))
        socat = try Self.socatServing(log, port: port)
        #expect(
            client.read(
                until: { lines in
                    Set(lines.filter { $0.hasPrefix(#"{"class":"TPV""#) }.compactMap { jsonField($0, "time") }).count
                        >= 10
                }, timeout: .seconds(15)), "\(serve.error)")
        let times = Set(client.lines(of: "TPV").compactMap { jsonField($0, "time") })
        #expect(times == Set((0..<10).map { "2026-11-30T08:00:0\($0).000Z" }))
        #expect(client.lines(of: "DEVICE").first.flatMap { jsonField($0, "path") } == "tcp://127.0.0.1:\(port)")
        _ = socat.wait(timeout: .seconds(5))
        #expect(serve.stop(SIGINT) == 0)
    }

    @Test func badNetworkSourcesAreClearErrors() throws {
        let refused = Ports.freeTCP()
        let outcome = try Tool.run(["parse", "tcp://127.0.0.1:\(refused)"])
        #expect(outcome.status == 1)
        #expect(outcome.error == "Error: tcp://127.0.0.1:\(refused): Connection refused\n")
        let unresolvable = try Tool.run(["parse", "tcp://nosuch.invalid:10110"])
        #expect(unresolvable.status == 1)
        #expect(unresolvable.error.hasPrefix("Error: cannot resolve 'nosuch.invalid' (tcp://nosuch.invalid:10110): "))
        #expect(unresolvable.error.split(separator: "\n").count == 1)
        let malformed = try Tool.run(["parse", "tcp://nosuch.invalid"])
        #expect(malformed.status == 1)
        #expect(malformed.error == "Error: 'tcp://nosuch.invalid' is not a network source: expected tcp://HOST:PORT\n")
        // The receivers' commands: a usage error, and a name that does not resolve ends the command.
        let usage = try Tool.run(["serve", "gpsd://", "--listen", "127.0.0.1:0"])
        #expect(usage.status == 64)
        #expect(
            usage.error.hasPrefix(
                "Error: 'gpsd://' is not a network source: expected gpsd://HOST or gpsd://HOST:PORT\n"))
        let baud = try Tool.run(["record", "tcp://127.0.0.1:1", "--baud", "9600", "-o", "/tmp/x.gpx"])
        #expect(baud.status == 64)
        #expect(baud.error.hasPrefix("Error: --baud is for a receiver on a serial port, not tcp://127.0.0.1:1\n"))
        let directory = TemporaryDirectory("bad-sources")
        defer { directory.remove() }
        let record = try ChildProcess.run(
            [Self.nmea, "record", "tcp://nosuch.invalid:10110", "-o", directory.file("x.gpx")], timeout: .seconds(20))
        #expect(record.status == 1)
        #expect(record.error.contains("Error: cannot resolve 'nosuch.invalid' (tcp://nosuch.invalid:10110): "))
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.gpx")))
    }

    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func aBinaryPeerAndASilentPeerAreSaidSo() throws {
        let directory = TemporaryDirectory("odd-peers")
        defer { directory.remove() }
        directory.write((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37) }, to: "binary.bin")
        let port = Ports.freeTCP()
        let socat = try Self.socatServing(directory.file("binary.bin"), port: port)
        let binary = try Tool.run(["parse", "tcp://127.0.0.1:\(port)"])
        _ = socat.wait(timeout: .seconds(5))
        #expect(binary.output == "")
        // Not a log at all: the input's failure (issue 25, item 2).
        #expect(binary.status == 1)
        #expect(
            binary.error
                == "Error: tcp://127.0.0.1:\(port): not an NMEA log: it is not ASCII text (NUL bytes: "
                + "UTF-16 without its byte-order mark, UTF-32 or binary data)\n"
                + "nmea parse: 64 lines rejected (64 truncated); -v lists them\n")
        // A peer that accepts and sends nothing: read until SIGINT, then said.
        let silentPort = Ports.freeTCP()
        let silent = try ChildProcess([
            "socat", "-u", "EXEC:tail -f /dev/null", "TCP-LISTEN:\(silentPort),bind=127.0.0.1",
        ])
        defer { _ = silent.stop(SIGKILL) }
        #expect(waitUntil(timeout: .seconds(5)) { Ports.hasListener(silentPort) })
        let parse = try ChildProcess([Self.nmea, "parse", "tcp://127.0.0.1:\(silentPort)"])
        // Connected, and with nothing to read, blocked: it waits for the peer rather than giving up.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                Ports.tcpSockets().contains { $0.remotePort == silentPort && $0.state == .established }
                    && Threads.allBlocked(in: parse.pid)
            })
        #expect(parse.isRunning)
        #expect(parse.stop(SIGINT) == 0)
        #expect(parse.output == "")
        #expect(parse.error == "nmea parse: tcp://127.0.0.1:\(silentPort): nothing read: it is empty\n")
    }

    // MARK: udp://

    /// Waits until something has bound UDP port `port` on 127.0.0.1 (binding it ourselves fails).
    static func waitUntilBound(udp port: UInt16) -> Bool {
        waitUntil(timeout: .seconds(10)) {
            guard let probe = try? FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue)) else {
                return false
            }
            defer { try? probe.close() }
            return (try? probe.bind(to: .loopback(port: port))) == nil
        }
    }

    @Test func parseReadsDatagramsOfOneAndOfSeveralSentencesUntilSIGINT() throws {
        let directory = TemporaryDirectory("udp-parse")
        defer { directory.remove() }
        let log = try Self.log(directory, seconds: 5)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\r\n").map {
            String($0) + "\r\n"
        }
        let port = UInt16(Ports.freeUDP())
        let parse = try ChildProcess([Self.nmea, "parse", "udp://127.0.0.1:\(port)"])
        #expect(Self.waitUntilBound(udp: port))
        // One sentence, then three in one datagram, then each of the rest alone without its line ending.
        var datagrams = [lines[0], lines[1...3].joined()]
        datagrams += lines[4...].map { String($0.dropLast()) }  // "\r\n" is one Character
        let socket = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? socket.close() }
        try socket.connect(to: .loopback(port: port))
        for datagram in datagrams { try socket.sendAll(Array(datagram.utf8)) }
        // Every datagram read (each is parsed before the next read, so before SIGINT is looked at).
        #expect(waitUntil(timeout: .seconds(10)) { Ports.udpReceiveQueue(Int(port)) == 0 })
        #expect(parse.stop(SIGINT) == 0)
        let fromFile = try Tool.run(["parse", log])
        #expect(parse.output == fromFile.output)
        #expect(parse.outputLines.count == 10)
        #expect(parse.error == "")
    }

    /// `udp://:PORT` listens on every IPv4 interface: a broadcast (to 127.255.255.255 here) is read.
    @Test func parseReadsABroadcastDatagram() throws {
        let port = UInt16(Ports.freeUDP())
        let parse = try ChildProcess([Self.nmea, "parse", "udp://:\(port)"])
        #expect(Self.waitUntilBound(udp: port))
        let socket = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? socket.close() }
        try socket.setOption(.broadcast, 1)
        try socket.connect(to: SocketAddress(ipv4: "127.255.255.255", port: port)!)
        try socket.sendAll(Array("$GPTXT,01,01,02,one*29\r\n".utf8))
        #expect(waitUntil(timeout: .seconds(10)) { Ports.udpReceiveQueue(Int(port)) == 0 })
        #expect(parse.stop(SIGINT) == 0)
        let expected = try Tool.run(["parse"], input: "$GPTXT,01,01,02,one*29\r\n")
        #expect(parse.output == expected.output)
        #expect(parse.outputLines.count == 1)
        #expect(parse.error == "")
    }

    @Test func aUDPPortInUseIsAClearError() throws {
        let holder = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? holder.close() }
        try holder.bind(to: .loopback(port: 0))
        let port = try holder.localAddress().port
        let outcome = try Tool.run(["parse", "udp://127.0.0.1:\(port)"])
        #expect(outcome.status == 1)
        #expect(outcome.error == "Error: cannot listen on udp://127.0.0.1:\(port): Address already in use\n")
        let directory = TemporaryDirectory("udp-in-use")
        defer { directory.remove() }
        let serve = try ChildProcess.run(
            [Self.nmea, "serve", "udp://127.0.0.1:\(port)", "--listen", "127.0.0.1:0"], timeout: .seconds(20))
        #expect(serve.status == 1)
        #expect(serve.error.hasSuffix("Error: cannot listen on udp://127.0.0.1:\(port): Address already in use\n"))
    }

    // MARK: --nmea-udp

    /// A Python socket bound to a free port receives what `serve --nmea-udp` forwards: each sentence of the log, in
    /// order, one datagram each, CR LF at its end.
    @Test(.enabled(if: Tools.available(NetworkCommandTests.python), "python3 is not installed"))
    func aPythonSocketReceivesEverySentenceAsADatagram() throws {
        let directory = TemporaryDirectory("udp-forward")
        defer { directory.remove() }
        let log = try Self.log(directory, seconds: 10)
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 0))
            print(s.getsockname()[1], flush=True)
            s.settimeout(3)
            got = []
            try:
                while True:
                    got.append(s.recv(65536).decode("latin-1"))
                    s.settimeout(1)
            except socket.timeout:
                pass
            print(json.dumps(got), flush=True)
            """
        let python = try ChildProcess([Self.python, "-c", script])
        let port = try #require(waitFor(timeout: .seconds(10)) { python.outputLines.first.flatMap { Int($0) } })
        let serve = try ChildProcess.run(
            [Self.nmea, "serve", log, "--speed", "max", "--listen", "127.0.0.1:0", "--nmea-udp", "127.0.0.1:\(port)"],
            timeout: .seconds(20))
        #expect(serve.status == 0, "\(serve.error)")
        #expect(serve.error.contains("nmea serve: sending each sentence to udp 127.0.0.1:\(port)\n"))
        #expect(serve.error.hasSuffix("nmea serve: udp 127.0.0.1:\(port): 20 sentences sent\n"))
        #expect(python.wait(timeout: .seconds(10)) == 0)
        let received = try JSONSerialization.jsonObject(with: Data(python.outputLines.last!.utf8)) as? [String]
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\r\n").map {
            String($0) + "\r\n"
        }
        #expect(received == lines)
    }

    // MARK: --nmea-tcp, gpsd://, and gpsd itself

    /// `nmea serve -` with `--nmea-tcp`, fed a journey on its standard input by the test.
    final class RawServer {
        let serve: ChildProcess
        let gpsdPort: UInt16
        let rawPort: UInt16

        init(_ extra: [String] = []) throws {
            serve = try ChildProcess(
                [NetworkCommandTests.nmea, "serve", "-", "--listen", "127.0.0.1:0", "--nmea-tcp", "127.0.0.1:0"]
                    + extra, input: .pipe)
            guard let gpsdPort = NetworkCommandTests.reportedPort(serve, after: "listening on 127.0.0.1:"),
                let rawPort = NetworkCommandTests.reportedPort(serve, after: "serving raw NMEA on 127.0.0.1:")
            else { throw ServeError(description: "nmea serve did not start: \(serve.error)") }
            self.gpsdPort = gpsdPort
            self.rawPort = rawPort
        }

        func feed(_ bytes: [UInt8]) { try? serve.inputPipe?.writeAll(bytes) }
    }

    /// gpsd reads our `--nmea-tcp` as its source (`gpsd -N -n tcp://127.0.0.1:PORT`): its TPVs carry exactly the
    /// positions fed, at their times. `nmea parse gpsd://` on that gpsd then reads gpsd's own raw sentences: a run of
    /// exactly the fed lines.
    @Test(.enabled(if: NetworkCommandTests.hasGpsd, "gpsd is not installed (scripts/test installs it)"))
    func gpsdReadsOurRawNMEAAndWeReadGpsdsSentences() throws {
        let directory = TemporaryDirectory("gpsd-raw")
        defer { directory.remove() }
        let server = try RawServer()
        let gpsdPort = Ports.freeTCP()
        let gpsd = try ChildProcess(
            [
                Self.gpsd, "-N", "-n", "-S", "\(gpsdPort)", "-F", directory.file("gpsd.sock"),
                "tcp://127.0.0.1:\(server.rawPort)",
            ], newProcessGroup: true)
        defer { _ = gpsd.stop(SIGTERM) }
        #expect(waitUntil(timeout: .seconds(10)) { Ports.isListening(gpsdPort) }, "gpsd did not listen: \(gpsd.error)")
        let client = try LineClient(port: UInt16(gpsdPort))
        _ = client.send(#"?WATCH={"enable":true,"json":true}"# + "\n")
        let parse = try ChildProcess([Self.nmea, "parse", "gpsd://127.0.0.1:\(gpsdPort)"])
        let journey = Journey(seconds: 20, rateHz: 10)
        var fed: [UInt8] = []
        var index = 0
        let enough = waitUntil(timeout: .seconds(30), pollingEvery: .milliseconds(100)) {
            guard index < journey.fixes.count else { return true }
            server.feed(journey.epoch(index))
            fed += journey.epoch(index)
            index += 1
            client.read(timeout: .milliseconds(1))
            return client.lines(of: "TPV").filter { jsonField($0, "mode") == "3" }.count >= 10
        }
        #expect(enough, "gpsd sent: \(client.lines.suffix(5)); it said: \(gpsd.error)")
        // gpsd wrote each epoch's sentences to its raw watchers before the epoch's TPV: parse has read what gpsd
        // sent it once nothing waits unread on its connection (each read is parsed before SIGINT is looked at).
        let ours = try client.descriptor.localAddress().port
        #expect(
            waitUntil(timeout: .seconds(10)) {
                let toParse = Ports.tcpSockets().filter {
                    $0.state == .established && $0.remotePort == gpsdPort && $0.localPort != Int(ours)
                }
                return toParse.count == 1 && toParse.allSatisfy { $0.receiveQueue == 0 }
            })
        client.read(timeout: .milliseconds(100))
        let tpvs = client.lines(of: "TPV").filter { jsonField($0, "mode") == "3" }
        var matched = Set<Int>()
        for tpv in tpvs {
            let time = jsonField(tpv, "time")
            guard let epoch = (0..<index).first(where: { journey.isoTime($0) == time }) else {
                Issue.record("a TPV at a time we did not feed: \(tpv)")
                continue
            }
            #expect(jsonField(tpv, "lat") == journey.expectedCoordinates(epoch).latitude)
            #expect(jsonField(tpv, "lon") == journey.expectedCoordinates(epoch).longitude)
            #expect(jsonField(tpv, "device") == "tcp://127.0.0.1:\(server.rawPort)")
            matched.insert(epoch)
        }
        #expect(matched.count >= 5)
        // gpsd's raw sentences, read by `parse gpsd://`: a contiguous run of the lines fed, each exactly.
        #expect(parse.stop(SIGINT) == 0)
        directory.write(fed, to: "fed.nmea")
        let expected = try Tool.run(["parse", directory.file("fed.nmea")]).output.split(separator: "\n").map(
            String.init)
        let got = parse.outputLines
        #expect(got.count >= 20, "\(parse.error)")
        if let start = expected.firstIndex(of: got.first ?? "") {
            #expect(Array(expected[start...].prefix(got.count)) == got)
        } else {
            Issue.record("gpsd's first sentence is not one we fed: \(got.first ?? "none")")
        }
        server.serve.closeInput()
        #expect(server.serve.wait(timeout: .seconds(10)) == 0)
    }

    /// `record --nmea-tcp`: a raw client connected before the receiver gets every sentence it sends, exactly.
    @Test(.enabled(if: NetworkCommandTests.hasSocat, "socat is not installed (scripts/test installs it)"))
    func recordServesTheSentencesItReadsAsRawNMEA() throws {
        let directory = TemporaryDirectory("record-raw")
        defer { directory.remove() }
        let log = try Self.log(directory, seconds: 10)
        let port = Ports.freeTCP()
        // Nothing listens yet: record tries again until socat is there.
        let record = try ChildProcess([
            Self.nmea, "record", "tcp://127.0.0.1:\(port)", "-o", directory.file("track.gpx"), "--nmea-tcp",
            "127.0.0.1:0",
        ])
        defer { _ = record.stop(SIGKILL) }
        let rawPort = try #require(Self.reportedPort(record, after: "serving raw NMEA on 127.0.0.1:"))
        let client = try LineClient(port: rawPort)
        let socat = try Self.socatServing(log, port: port)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\r\n").map(String.init)
        #expect(client.read(until: { $0.count >= lines.count }, timeout: .seconds(15)), "\(record.error)")
        #expect(client.lines == lines)
        _ = socat.wait(timeout: .seconds(5))
        #expect(record.stop(SIGINT) == 0)
        #expect(client.readUntilClosed())
        #expect(
            record.error.hasSuffix("nmea record: raw NMEA: 1 client served, 0 refused, 0 dropped for not reading\n"))
    }

    /// `parse gpsd://` against our own `nmea serve`: the same sentences, until serve ends and closes the connection.
    @Test func parseReadsOurOwnServeThroughGpsdScheme() throws {
        let directory = TemporaryDirectory("gpsd-ours")
        defer { directory.remove() }
        let server = try RawServer()
        // A raw NMEA client too: the same sentences, no handshake. Fed from once the server has accepted it.
        let raw = try LineClient(port: server.rawPort)
        #expect(
            waitUntil(timeout: .seconds(10)) {
                Ports.tcpSockets().contains {
                    $0.localPort == Int(server.rawPort) && $0.state == .listen && $0.receiveQueue == 0
                }
            })
        // parse through a relay, which shows the server's answer to parse's WATCH: from then on the server counts
        // parse as a watcher, and every epoch fed reaches it.
        let relay = try TCPRelay(to: server.gpsdPort)
        defer { relay.stop() }
        let parse = try ChildProcess([Self.nmea, "parse", "gpsd://127.0.0.1:\(relay.port)"])
        #expect(
            waitUntil(timeout: .seconds(10)) { relay.fromServer.contains("{\"class\":\"WATCH\"") },
            "the server answered: \(relay.fromServer)")
        let journey = Journey(seconds: 3, rateHz: 10)
        var fed: [UInt8] = []
        for index in 0..<journey.fixes.count {
            server.feed(journey.epoch(index))
            fed += journey.epoch(index)
            raw.read(timeout: .milliseconds(1))
        }
        server.serve.closeInput()
        #expect(server.serve.wait(timeout: .seconds(10)) == 0)
        #expect(parse.wait(timeout: .seconds(10)) == 0)
        #expect(raw.readUntilClosed())
        directory.write(fed, to: "fed.nmea")
        let expected = try Tool.run(["parse", directory.file("fed.nmea")]).output.split(separator: "\n").map(
            String.init)
        let got = parse.outputLines
        #expect(got.count >= expected.count / 2, "\(parse.error)")
        #expect(Array(expected.suffix(got.count)) == got)
        // The raw client got every sentence from its connection on, each exactly as fed, and nothing else.
        let fedLines = String(decoding: fed, as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(raw.lines.count >= fedLines.count / 2)
        #expect(Array(fedLines.suffix(raw.lines.count)) == raw.lines)
    }
}
