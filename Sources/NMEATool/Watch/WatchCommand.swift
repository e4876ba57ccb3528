import Glibc
import NMEA
import Pipeline
import Presentation
import SerialPort
import System
import Watch

/// `nmea watch`: a live full-screen view of a receiver, a replayed log or a gpsd; plain lines when piped.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Show a receiver live: fix, place, satellites and sky.",
        discussion: """
            Shows the fix type and age, time, position (decimal and degrees-minutes), the place name, speed, \
            course, altitude, DOPs, the satellites in view per system with their signal strength and whether the \
            fix uses them, a sky plot, and the device and its rate. The screen follows the terminal's size; 'q' \
            (or Ctrl-C) quits and leaves the terminal as it was.
            The source is a receiver (a path, a serial number, or 'auto', as for 'nmea record'), an NMEA file \
            replayed at its recorded pace (by the sentences' times; pauses over 10 s are shortened) or --speed times \
            faster, '-' for standard input, a network source (tcp://HOST:PORT, udp://[ADDR]:PORT, or \
            gpsd://HOST[:PORT] for a gpsd's raw sentences, read through our own fix assembly), or --connect to a \
            running gpsd or 'nmea serve' (its JSON reports). A replay stays on its last fix when the file ends.
            When standard output is not a terminal, one line per fix is written instead: time, fix, position, speed, \
            course, altitude, satellites, HDOP and place; a replay then ends with its file.
            """,
        arguments: [source],
        options: [connect, speed, receiver.baud, noPlaces],
        examples: [
            "nmea watch",
            "nmea watch /dev/ttyACM0 --baud 9600",
            "nmea watch tcp://192.168.1.20:10110",
            "nmea watch day.nmea --speed 10",
            "nmea simulate --duration 120 | nmea watch -",
            "nmea watch --connect localhost:2947",
            "nmea watch day.nmea --speed max | tail -1",
        ])

    /// What is watched.
    enum SourceKind {
        case device(DeviceSelector)
        case file(String)
        case standardInput
        case gpsd(host: String, port: Int)
        /// `tcp://`, `udp://`, `gpsd://`: NMEA read through the pipeline.
        case network(NetworkSourceAddress)
    }

    private static let source = Argument<String?>(
        "source", help: "A receiver (path, serial number or 'auto'), an NMEA file, '-', or tcp://, udp://, gpsd://.",
        defaultText: "auto")
    private static let connect = Option<(host: String, port: Int)?>(
        long: "connect", valueName: "host:port", help: "Watch a gpsd or 'nmea serve' instead (port 2947 when left out)."
    ) { address throws(ValueError) in
        guard let (host, port) = GpsdFeed.parseAddress(address) else {
            throw .invalid(address, because: "expected HOST:PORT, HOST or [IPv6]:PORT")
        }
        return (host, port)
    }
    private static let speed = ReplaySpeed.option(
        help: "Replay a file this many times faster than recorded, or 'max'.", default: .factor(1))
    private static let receiver = ReceiverOptions(baudHelp: "A receiver's line rate, or 'auto' to find it.")
    private static let noPlaces = PlaceOptions.noPlaces(help: "Leave out the place name.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let speed = try arguments.value(Self.speed)?.factor
        let baudRate = try receiver.baudRate(arguments)
        let kind = try sourceKind(arguments)
        let screen = WatchTerminal.outputIsTerminal
        // With a screen also resizes, Ctrl-Z and continuing; a second Ctrl-C must not leave the terminal raw.
        StopSignal.install(
            screen ? [SIGWINCH, SIGTSTP, SIGCONT] : [], stops: [SIGHUP, SIGQUIT], exitsOnSecond: !screen)
        let (feed, model) = try open(kind, speed: speed, baudRate: baudRate)
        let places = WatchPlaces(enabled: !arguments.flag(noPlaces))
        model.state.placeNote = places.note
        if screen {
            let glyphs = Glyphs.forLocale { name in getenv(name).map { String(cString: $0) } }
            return runScreen(feed, model, places: places, glyphs: glyphs)
        }
        return try runPlain(feed, model, places: places)
    }

    /// What is watched, and the options that do not go with it refused (usage errors first, before anything is
    /// opened).
    private static func sourceKind(_ arguments: ParsedArguments) throws -> SourceKind {
        let given = arguments.value(source)
        let kind: SourceKind
        if arguments.isGiven(connect) {
            if let given { throw arguments.usageError("Give a source or --connect, not both (got '\(given)')") }
            guard let (host, port) = try arguments.value(connect) else { preconditionFailure("--connect was given") }
            kind = .gpsd(host: host, port: port)
        } else if let address = try receiver.networkSource(given, arguments) {
            kind = .network(address)
        } else {
            kind = try classify(given ?? "auto")
        }
        switch kind {
        case .device, .network:
            if arguments.isGiven(speed) {
                throw arguments.usageError("--speed is for replaying a file or standard input, not a receiver")
            }
        case .file, .standardInput, .gpsd:
            if arguments.isGiven(receiver.baud) {
                throw arguments.usageError("--baud is for a receiver on a serial port")
            }
            if case .gpsd = kind, arguments.isGiven(speed) {
                throw arguments.usageError("--speed is for replaying a file or standard input, not gpsd")
            }
        }
        return kind
    }

    /// The feed that reads `kind`, and the model it fills.
    private static func open(_ kind: SourceKind, speed: Double?, baudRate: BaudRate?) throws -> (
        any WatchFeed, WatchModel
    ) {
        switch kind {
        case .device(let selector):
            return (
                PipelineFeed(selector: selector, baudRate: baudRate), WatchModel(source: .device(selector.description))
            )
        case .file(let path):
            let file: FileByteSource
            do {
                file = try FileByteSource(path: path)
            } catch {
                throw RuntimeError("cannot open '\(path)': \(Errno(rawValue: error.errorNumber))")
            }
            return (PipelineFeed(replaying: file, speed: speed), WatchModel(source: .replay(name: path, speed: speed)))
        case .standardInput:
            let input = FileByteSource(fileDescriptor: .standardInput, name: "-")
            return (PipelineFeed(replaying: input, speed: speed), WatchModel(source: .replay(name: "-", speed: speed)))
        case .gpsd(let host, let port):
            let model = WatchModel(source: .gpsd(host: host, port: port))
            return (try GpsdFeed(host: host, port: port), model)
        case .network(let address):
            return (PipelineFeed(network: address), WatchModel(source: .device(address.description)))
        }
    }

    /// What a source argument names: `-`, a receiver, or a file to replay. A path that exists is a receiver when it
    /// is a character device (a serial port, a pty), a file otherwise; one that does not exist is an error when it
    /// looks like a path or a file name, else it is a receiver's serial number (`nmea record`'s rules).
    static func classify(_ argument: String) throws(RuntimeError) -> SourceKind {
        if argument == "-" { return .standardInput }
        if argument == "auto" || argument.isEmpty { return .device(.auto) }
        let status: FileStatus
        do {
            status = try FileStatus(path: argument)
        } catch {
            return try classifyMissing(argument, error)
        }
        switch status.kind {
        case .characterDevice:
            // Checked now, so that a receiver that cannot be opened is an error before the screen comes up.
            guard access(argument, R_OK | W_OK) == 0 else {
                throw RuntimeError("cannot open '\(argument)': \(Errno.current)")
            }
            return .device(.path(argument))
        case .directory:
            throw RuntimeError("cannot replay '\(argument)': it is a directory")
        default:
            return .file(argument)
        }
    }

    /// A source argument naming nothing that exists: a receiver's serial number or `/dev` name, else an error.
    private static func classifyMissing(_ argument: String, _ error: Errno) throws(RuntimeError) -> SourceKind {
        let selector = DeviceSelector(argument: argument)
        switch selector {
        case .serialNumber where !argument.contains("."):
            return .device(selector)
        case .path(let path) where path != argument:
            return .device(selector)  // ttyUSB0 for /dev/ttyUSB0
        default:
            throw RuntimeError("cannot open '\(argument)': \(error)")
        }
    }

    // MARK: Full screen

    static func runScreen(_ feed: any WatchFeed, _ model: WatchModel, places: WatchPlaces, glyphs: Glyphs) -> Int32 {
        let terminal = WatchTerminal()
        terminal.enter()
        var shown: Canvas?
        var lastDraw = -1.0
        var running = true
        while running {
            // An absent keyboard or socket is an entry poll skips; with neither, this just waits 40 ms.
            var entries: [FileDescriptor.PollEntry] = [
                .init(terminal.keyboard, .readable), .init(feed.descriptor, .readable),
                .init(StopSignal.wakeUp.fileDescriptor, .readable),
            ]
            _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: 40)
            StopSignal.wakeUp.drain()
            running = takeKeysAndSignals(terminal, shown: &shown)
            var changed = false
            feed.pump(model) { _ in changed = true }
            _ = feed.takeMessages()  // the footer shows the connection's state
            if feed.hasEnded && feed.failure != nil { break }
            let now = MonotonicTime.now().seconds
            let size = terminal.size() ?? (80, 24)
            if changed || shown == nil || now - lastDraw >= 0.1 || shown?.columns != size.columns
                || shown?.rows != size.rows
            {
                model.state.place = places.name(for: model.state.fix)
                let canvas = WatchScreen.render(
                    model.snapshot(now: now), columns: size.columns, rows: size.rows,
                    glyphs: glyphs)
                let update = ScreenUpdate.update(from: shown, to: canvas)
                if !update.isEmpty && !terminal.write(update) { break }
                shown = canvas
                lastDraw = now
            }
        }
        terminal.leave()
        feed.stop()
        places.save()
        for warning in places.takeWarnings() { Console.error("nmea watch: warning: \(warning)\n") }
        if let failure = feed.failure {
            Console.error("Error: \(failure)\n")
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// The keys pressed ('q' quits, Ctrl-L draws everything again) and the signals (a stop, Ctrl-Z, continuing);
    /// `false` to quit. `shown` is cleared when the screen must be drawn again.
    private static func takeKeysAndSignals(_ terminal: WatchTerminal, shown: inout Canvas?) -> Bool {
        var running = true
        for key in terminal.readKeys() {
            switch key {
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): running = false
            case 0x0C: shown = nil  // Ctrl-L: draw everything again
            default: break
            }
        }
        // SIGWINCH needs nothing: the size is read before every frame.
        if StopSignal.isRequested { running = false }
        if StopSignal.take(SIGTSTP) {
            // Ctrl-Z: give the shell its terminal back, stop; draw again when continued.
            terminal.leave()
            kill(getpid(), SIGSTOP)
            terminal.enter()
            shown = nil
        }
        if StopSignal.take(SIGCONT) {
            terminal.enter()
            shown = nil
        }
        return running
    }

    // MARK: Plain lines

    static func runPlain(_ feed: any WatchFeed, _ model: WatchModel, places: WatchPlaces) throws -> Int32 {
        let output = Console.standardOutput
        for warning in places.takeWarnings() { Console.error("nmea watch: warning: \(warning)\n") }
        while true {
            if StopSignal.isRequested {
                Console.error("nmea watch: stopping (\(StopSignal.receivedName))\n")
                break
            }
            feed.wait(milliseconds: 50)
            feed.pump(model) { fix in
                output.write(PlainLine.format(fix, place: places.name(for: fix)) + "\n")
            }
            output.flush()
            for message in feed.takeMessages() { Console.error("nmea watch: \(message)\n") }
            for warning in places.takeWarnings() { Console.error("nmea watch: warning: \(warning)\n") }
            if output.failure != nil || feed.hasEnded { break }
        }
        feed.stop()
        places.save()
        if let failure = feed.failure { throw RuntimeError(failure) }
        if let failure = output.failure {
            throw RuntimeError("cannot write to standard output: \(failure)")
        }
        return ExitStatus.success
    }
}
