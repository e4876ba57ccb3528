import Glibc
import NMEA
import Pipeline
import Publisher
import SerialPort
import System

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
            SIGTERM, through unplug and replug. Listens on 127.0.0.1 unless --listen names another address.
            """,
        arguments: [
            ArgumentSpec(
                name: "source",
                help: "A device path, 'auto', a serial number, an NMEA file, or '-' for stdin.",
                defaultValue: "auto")
        ],
        options: [
            OptionSpec(
                long: "listen", valueName: "addr:port", help: "Where to listen.",
                defaultValue: "127.0.0.1:2947"),
            OptionSpec(
                long: "max-clients", valueName: "n", help: "Clients served at once; the next is refused.",
                defaultValue: "64"),
            OptionSpec(
                long: "speed", valueName: "n|max",
                help: "Replay a file (or stdin) n times faster than recorded, or as fast as possible."),
            OptionSpec(
                long: "baud", valueName: "rate", help: "A device's line rate, or 'auto' to find it.",
                defaultValue: "auto"),
        ],
        examples: [
            "nmea serve",
            "nmea serve /dev/ttyACM0 --listen 0.0.0.0:2947",
            "nmea serve drive.nmea --speed 10",
            "nmea simulate --duration 60 | nmea serve - --speed 1",
        ])

    /// Where the bytes come from.
    enum Source {
        case device(DeviceSelector)
        case file(String)
        case standardInput
        /// A FIFO: live bytes, like standard input.
        case stream(String)
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let listenText = arguments.value("listen") ?? "127.0.0.1:2947"
        guard let listen = ListenAddress(parsing: listenText) else {
            throw arguments.invalid(listenText, for: "listen", because: "expected ADDR:PORT, [IPV6]:PORT or PORT")
        }
        let maxClients = try arguments.integer("max-clients", default: 64, in: 1...4096)
        let speed: Double??  // nil: not given; .some(nil): max
        switch arguments.value("speed") {
        case nil: speed = nil
        case "max": speed = .some(nil)
        case let text?:
            guard let factor = Double(text), factor > 0, factor.isFinite else {
                throw arguments.invalid(text, for: "speed", because: "expected a positive number or 'max'")
            }
            speed = .some(factor)
        }
        let baudRate: BaudRate?
        switch arguments.value("baud") {
        case nil, "auto": baudRate = nil
        case let text?:
            guard let number = Int(text), let rate = BaudRate(rawValue: number) else {
                throw arguments.invalid(
                    text, for: "baud", because: "expected a standard rate (4800…921600) or 'auto'")
            }
            baudRate = rate
        }
        let source = try classify(arguments.positionals.first ?? "auto")
        if case .device = source, speed != nil {
            throw arguments.usageError("--speed replays a file or standard input, not a receiver")
        }

        StopSignals.block()
        var configuration = ReceiverPipeline.Configuration.positionAtOnce
        if case .device = source {
            let today = UTCDate(daysSinceEpoch: Int(time(nil) / 86_400))
            configuration.assembler.fallbackDate = today
            configuration.assembler.referenceDate = today
        }
        let pipeline = ReceiverPipeline(configuration: configuration)
        let server = try startServer(pipeline: pipeline, listen: listen, maxClients: maxClients)
        Console.error("nmea serve: listening on \(server.boundAddress ?? listen)\n")
        let statusConsumer = pipeline.makeConsumer(name: "status")

        var receiver: DeviceReceiver?
        switch source {
        case .device(let selector):
            let device = DeviceReceiver(selector: selector, baudRate: baudRate, pipeline: pipeline)
            device.start()
            receiver = device
        case .file(let path):
            do {
                pipeline.start(try ReplayByteSource(path: path, speed: speed ?? 1))
            } catch {
                server.stop()
                throw RuntimeError(error.description)
            }
        case .standardInput:
            if let speed {
                pipeline.start(ReplayByteSource(fileDescriptor: .standardInput, name: "stdin", speed: speed))
            } else {
                pipeline.start(FileByteSource(fileDescriptor: .standardInput, name: "stdin"))
            }
        case .stream(let path):
            do {
                if let speed {
                    pipeline.start(try ReplayByteSource(path: path, speed: speed))
                } else {
                    pipeline.start(try FileByteSource(path: path))
                }
            } catch {
                server.stop()
                throw RuntimeError(error.description)
            }
        }

        var lastState: ReceiverStatus?
        var endedAt: MonotonicTime?
        while true {
            if let signal = StopSignals.wait(milliseconds: 100) {
                Console.error("nmea serve: stopping (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))\n")
                break
            }
            while let (record, _) = statusConsumer.next(timeout: .zero) {
                guard case .status(let status) = record.content, status != lastState else { continue }
                lastState = status
                if status.state != .ended { Console.error("nmea serve: \(describe(status))\n") }
            }
            if let receiver, receiver.hasEnded { break }
            if receiver == nil && pipeline.status.state == .ended {
                // The file ended: let the clients read what is queued (at most 2 s), then exit.
                let now = MonotonicTime.now()
                if endedAt == nil { endedAt = now }
                let statistics = server.statistics
                if statistics.sourceEnded && statistics.queuedBytes == 0 || now - endedAt! > .seconds(2) {
                    Console.error("nmea serve: end of input\n")
                    break
                }
            }
        }
        receiver?.stop()
        pipeline.stop()
        server.stop()
        let statistics = server.statistics
        Console.error(
            "nmea serve: \(statistics.accepted) clients served, \(statistics.refused) refused, "
                + "\(statistics.disconnectedSlow) dropped for not reading; "
                + "\(pipeline.statistics.published.fixes) fixes\n"
        )
        if let failure = receiver?.failure.withLock({ $0 }) {
            Console.error("Error: \(failure.description)\n")
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// Makes and starts a gpsd server on `pipeline` (before the pipeline starts, so it misses nothing). Used by
    /// `nmea serve` and `nmea record --serve`.
    static func startServer(pipeline: ReceiverPipeline, listen: ListenAddress, maxClients: Int = 64) throws
        -> GPSDServer
    {
        var configuration = GPSDServer.Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        configuration.release = toolVersion
        configuration.revision = "swift-nmea \(toolVersion)"
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        do {
            try server.start()
        } catch {
            throw RuntimeError(error.description)
        }
        return server
    }

    /// `--serve [ADDR:]PORT` for `nmea record`: the address defaults to 127.0.0.1.
    static func listenAddress(serveOption text: String, _ arguments: ParsedArguments) throws -> ListenAddress {
        guard let address = ListenAddress(parsing: text) else {
            throw arguments.invalid(text, for: "serve", because: "expected [ADDR:]PORT")
        }
        return address
    }

    /// A connection change in words; files and streams have no line rate.
    static func describe(_ status: ReceiverStatus) -> String {
        if status.state == .connected && status.baudRate == 0 { return "\(status.device.string): reading" }
        return RecordCommand.describe(status)
    }

    /// What SOURCE names: `-`, an existing file or FIFO, or a receiver (a device, `auto`, a serial number).
    static func classify(_ argument: String) throws -> Source {
        if argument == "-" { return .standardInput }
        if let status = try? FileStatus(path: argument) {
            switch status.kind {
            case .regular: return .file(argument)
            case .fifo: return .stream(argument)
            default: return .device(DeviceSelector(argument: argument))
            }
        }
        if argument.contains("/") && !argument.hasPrefix("/dev/") {
            throw RuntimeError("\(argument): \(Errno.noSuchFileOrDirectory)")
        }
        return .device(DeviceSelector(argument: argument))
    }
}
