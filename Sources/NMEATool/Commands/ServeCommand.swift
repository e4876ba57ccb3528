import Glibc
import NMEA
import NTRIP
import Pipeline
import Publisher
import SerialPort
import System
import Web

/// `nmea serve`: gpsd's JSON protocol on TCP, from a receiver, a recorded file, or standard input.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve a receiver or a log over gpsd's JSON protocol.",
        discussion: """
            Speaks the part of gpsd's protocol that clients use (VERSION, WATCH, DEVICES, POLL; TPV and SKY \
            reports; raw sentences with "nmea":true), so gpspipe, cgps, xgps, libgps and the Python gps module work \
            unchanged. The first position is sent as soon as its sentence arrives. A file is replayed at the rate it \
            was recorded (--speed to change it); the server exits when it ends. A receiver is served until SIGINT or \
            SIGTERM, through unplug and replug; a tcp:// or gpsd:// source through disconnections, connecting again \
            with backoff (at most 5 s apart). Listens on 127.0.0.1 unless --listen names another address. \
            --nmea-tcp also serves the sentences as received to any client, with no handshake (for OpenCPN, GPXSee, \
            QGIS, or gpsd itself); --nmea-udp sends each as a datagram. --http serves a page for a browser: the \
            position at once with its place name, the receiver's status, today's track on a map, the trips with \
            their places and the satellites, kept live; with it, a replayed log's page stays up after the log ends \
            (its final state) until SIGINT or SIGTERM, unless --exit-at-end.
            """,
        arguments: [source],
        options: [listen, maxClients, speed, receiver.baud] + ReceiverConfigurationOptions.options
            + NMEAOutputOptions.options + WebOptions.options + TimeOptions.options + NTRIPOptions.options
            + NTRIPCasterOptions.options,
        examples: [
            "nmea serve",
            "nmea serve /dev/ttyACM0 --http 0.0.0.0:8080",
            "nmea serve monday.nmea --speed max --http 8080",
            "nmea serve /dev/ttyACM0 --listen 0.0.0.0:2947",
            "nmea serve drive.nmea --speed 10",
            "nmea simulate --duration 60 | nmea serve - --speed 1",
            "nmea serve tcp://192.168.1.20:10110",
            "nmea serve /dev/ttyACM0 --nmea-tcp 10110",
            "nmea serve udp://:10110 --nmea-udp 127.0.0.1:10111",
        ])

    private static let source = Argument<String?>(
        "source",
        help: "A device path, 'auto', a serial number, an NMEA file, '-' for stdin, or tcp://HOST:PORT, "
            + "udp://[ADDR]:PORT, gpsd://HOST[:PORT].",
        defaultText: "auto")
    private static let listen = Option<ListenAddress>(
        long: "listen", valueName: "addr:port", help: "Where to listen.",
        default: ListenAddress(parsing: "127.0.0.1:2947")!,
        defaultText: "127.0.0.1:2947"
    ) { text throws(ValueError) in
        guard let address = ListenAddress(parsing: text) else {
            throw .invalid(text, because: "expected ADDR:PORT, [IPV6]:PORT or PORT")
        }
        return address
    }
    private static let maxClients = Option<Int>(
        long: "max-clients", valueName: "n", help: "Clients served at once; the next is refused.", default: 64,
        in: 1...4096)
    private static let speed = ReplaySpeed.option(
        help: "Replay a file (or stdin) this many times faster than recorded, or 'max'.")
    private static let receiver = ReceiverOptions(baudHelp: "A device's line rate, or 'auto' to find it.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let listen = try arguments.value(Self.listen)
        let maxClients = try arguments.value(Self.maxClients)
        let speed = try arguments.value(Self.speed).map(\.factor)
        let baudRate = try receiver.baudRate(arguments)
        let receiverSettings = try ReceiverConfigurationOptions.settings(arguments)
        let source = try ReceiverSource.classify(arguments.value(Self.source) ?? "auto", receiver: receiver, arguments)
        if source.isReceiver && speed != nil {
            throw arguments.usageError("--speed replays a file or standard input, not a receiver")
        }
        let ntrip = try NTRIPOptions(arguments)
        if ntrip.client != nil, !source.isDevice {
            throw arguments.usageError("--ntrip feeds corrections to a receiver on a serial port")
        }
        let casterOptions = try NTRIPCasterOptions(arguments)
        let nmeaOutputs = try NMEAOutputOptions(arguments)
        let web = try WebOptions(arguments)
        let timeOptions = try TimeOptions(arguments)
        if case .file = source, !timeOptions.isEmpty {
            throw arguments.usageError(
                "--chrony, --ntp-shm and --pps take the time of a live receiver, not of a file replayed now")
        }

        StopSignal.install()
        var configuration = source.pipelineConfiguration
        configuration.publishesSentences = true
        configuration.publishesRaw = casterOptions.configuration != nil
        timeOptions.configure(&configuration)
        let pipeline = ReceiverPipeline(configuration: configuration)
        let server: GPSDServer
        do {
            server = try GPSDServer.started(
                pipeline: pipeline, listen: listen, maxClients: maxClients,
                version: toolVersion)
        } catch {
            throw RuntimeError(error.description)
        }
        let console = StatusLine(prefix: "nmea serve: ", enabled: false)
        console.print("listening on \(server.boundAddress ?? listen)")
        let caster: NTRIPCaster?
        do {
            caster = try casterOptions.start(on: pipeline, console: console)
        } catch {
            server.stop()
            throw error
        }
        let outputs: NMEAOutputOptions.Running
        let page: WebServer?
        do {
            outputs = try nmeaOutputs.start(on: pipeline, console: console)
        } catch {
            server.stop()
            caster?.stop()
            throw error
        }
        do {
            page = try web.start(on: pipeline, command: "nmea serve", console: console)
        } catch {
            server.stop()
            caster?.stop()
            outputs.stop()
            throw error
        }
        let time: TimeOptions.Running?
        do {
            time = try timeOptions.start(on: pipeline, console: console)
        } catch {
            server.stop()
            caster?.stop()
            outputs.stop()
            page?.stop()
            throw error
        }
        let reporter = RingConsumerLoop(ConnectionReporter(console), name: "status", pipeline: pipeline)
        reporter.start()
        let receiver: RunningReceiver?
        let corrections = ntrip.start(on: pipeline, console: console)
        do {
            receiver = try source.start(
                speed: speed, baudRate: baudRate, on: pipeline, waitingFor: page?.ringConsumer,
                configuring: receiverSettings, command: "nmea serve", writer: corrections?.writer)
        } catch {
            corrections?.stop()
            server.stop()
            outputs.stop()
            page?.stop()
            reporter.stop()
            time?.stop()
            throw error
        }
        waitForTheEnd(server, receiver: receiver, console: console)
        if web.keepsServingAtEnd, StopSignal.received == nil, receiver == nil {
            console.print("the page stays up with the log's final state until SIGINT or SIGTERM")
            while !StopSignal.wait(timeout: .milliseconds(250)) {}
        }
        if let signal = StopSignal.received { console.print("stopping (\(StopSignal.name(signal)))") }
        corrections?.stop()
        receiver?.stop()
        pipeline.stop()
        server.stop()
        caster?.stop()
        outputs.finish()
        page?.stop()
        reporter.join()
        time?.finish()
        let statistics = server.statistics
        console.print(
            "\(counted(statistics.accepted, "client")) served, \(statistics.refused) refused, "
                + "\(statistics.disconnectedSlow) dropped for not reading; "
                + counted(pipeline.statistics.published.fixes, "fix"))
        for line in outputs.summary { console.print(line) }
        for line in time?.summary ?? [] { console.print(line) }
        for line in corrections?.summary ?? [] { console.print(line) }
        if let caster { console.print(NTRIPCasterOptions.summary(caster)) }
        if let page {
            let statistics = page.statistics
            console.print(
                "page: \(statistics.requests) requests, \(statistics.eventStreams) event streams, "
                    + "\(statistics.eventsSent) events sent, \(statistics.eventsReplaced) replaced by a newer one "
                    + "for a client behind, \(statistics.refused) refused, \(statistics.timedOut) cut for being slow")
        }
        if let failure = receiver?.failure { throw RuntimeError(failure) }
        return ExitStatus.success
    }

    /// Returns at SIGINT or SIGTERM, when the receiver's connection has ended, or when a file has ended and the
    /// clients have read what is queued for them (at most 2 s after).
    static func waitForTheEnd(_ server: GPSDServer, receiver: RunningReceiver?, console: StatusLine) {
        var endedAt: MonotonicTime?
        while !StopSignal.wait(timeout: .milliseconds(100)) {
            if let receiver, receiver.hasEnded { return }
            guard receiver == nil && server.pipeline.status.state == .ended else { continue }
            let now = MonotonicTime.now()
            if endedAt == nil { endedAt = now }
            let statistics = server.statistics
            if statistics.sourceEnded && statistics.queuedBytes == 0 || now - endedAt! > .seconds(2) {
                console.print("end of input")
                return
            }
        }
    }
}
