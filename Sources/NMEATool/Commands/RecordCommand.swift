import Fleet
import Glibc
import NMEA
import Pipeline
import Publisher
import Recording
import SerialPort
import System
import Tracks
import UBX
import Web

/// `nmea record`: log a receiver to GPX/GeoJSON (and raw NMEA) until stopped, surviving unplug and replug.
enum RecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Log a GPS receiver to GPX and GeoJSON tracks.",
        discussion: """
            Finds the receiver (a path, a /dev/serial/by-id link, a USB serial number, or 'auto' for the first known \
            GPS receiver, waiting for one to be plugged in), sets up the serial port and finds its rate, and writes \
            every fix until SIGINT or SIGTERM. A track file appears at its first point (written under a temporary \
            name until then, so a run that records no point, such as one refused the receiver, leaves none behind) \
            and is a complete document after every fix, so a kill or a power cut loses at most the last second. When the receiver is unplugged the files stay open; logging \
            resumes, in a new track segment, when it comes back. A network receiver (tcp://HOST:PORT, \
            udp://[ADDR]:PORT, gpsd://HOST[:PORT]) is connected to again with backoff (at most 5 s apart) when the \
            connection is refused or drops, in a new segment too.
            The port is taken exclusively (TIOCEXCL) and locked (flock), so a second logger on the same receiver, \
            even as root, is refused with the first one's PID. On a terminal a status line (fix, satellites, \
            position, points) is kept on the last row, cut to the terminal's width.
            --rotate daily starts new files (tracks, raw capture and trips) for each UTC day; each is opened when \
            the first fix of its day arrives, never by the system clock's date. Raw bytes received before the \
            first dated fix are held in memory (up to 4 MiB) and written at the head of the first raw file.
            Cleaning (--max-hdop, --min-satellites, --fix, --bbox, --drop-outliers, --stationary) applies to the \
            tracks and the trips, as in 'nmea convert'; the raw capture keeps every byte. --drop-outliers writes a \
            point once the next one shows it was no jump (a fix later, up to four when it was).
            --ntrip writes the RTCM 3 corrections of an NTRIP caster's mount point to the receiver's own port (an \
            RTK receiver then reports RTK float, then fixed), sends the caster the receiver's position every \
            --ntrip-gga seconds, and connects again with backoff when the caster drops; the status line shows the \
            corrections' age and rate and the base station's ID and distance.
            """,
        arguments: [RecordSettings.device],
        options: RecordSettings.options,
        examples: [
            "nmea record -o track.gpx",
            "nmea record /dev/ttyACM0 --baud 9600 -o track.gpx -o track.geojson --raw track.nmea",
            "nmea record auto --rotate daily -o /var/lib/nmea/%Y-%m-%d.gpx --raw /var/lib/nmea/%Y-%m-%d.nmea",
            "nmea record -o track.gpx --raw capture.nmea --raw-format tagged",
            "nmea record --rotate daily -o %Y-%m-%d.gpx --raw %Y-%m-%d.nmea --raw-format tagged --compress",
            "nmea record -o track.gpx --trips trips.jsonl",
            "nmea record -o track.gpx --fix 3d --max-hdop 5 --drop-outliers --stationary 10",
            "nmea record -o track.gpx --mqtt mqtt://broker.example:1883 --mqtt-topic owntracks/fleet/van7",
            "nmea record -o track.gpx --serve 2947",
            "nmea record -o track.gpx --trips trips.jsonl --http 0.0.0.0:8080",
            "nmea record tcp://192.168.1.20:10110 -o track.gpx",
            "NMEA_NTRIP_PASSWORD=secret nmea record /dev/ttyACM0 -o track.gpx --ntrip ntrip://me@caster.example:2101/BASE1",
            "nmea record -o track.gpx --nmea-tcp 10110 --nmea-udp 192.168.1.255:10110",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let settings = try RecordSettings(arguments)
        StopSignal.install([SIGWINCH])
        let pipeline = ReceiverPipeline(configuration: settings.pipeline)
        let console = StatusLine(prefix: "nmea record: ")
        let recorder: Recorder
        do {
            recorder = try Recorder(pipeline: pipeline, try settings.recording(console), report: console.print)
        } catch let error as RecordingError {
            throw RuntimeError(error.message)
        }
        let server = try settings.serve.map { listen in try serve(pipeline, on: listen) }
        if let server { console.print("serving gpsd clients on \(server.boundAddress ?? server.configuration.listen)") }
        let outputs: NMEAOutputOptions.Running
        do {
            outputs = try settings.nmeaOutputs.start(on: pipeline, console: console)
        } catch {
            server?.stop()
            throw error
        }
        let page: WebServer?
        do {
            page = try settings.web.start(on: pipeline, command: "nmea record", console: console)
        } catch {
            server?.stop()
            outputs.stop()
            throw error
        }
        let time: TimeOptions.Running?
        do {
            time = try settings.timeOptions.start(on: pipeline, console: console)
        } catch {
            server?.stop()
            outputs.stop()
            page?.stop()
            throw error
        }
        let corrections = settings.ntrip.start(on: pipeline, console: console)
        let receiver =
            settings.network.map { RunningReceiver($0, pipeline: pipeline) }
            ?? RunningReceiver(
                selector: settings.selector, baudRate: settings.baudRate, pipeline: pipeline,
                settings: settings.receiverSettings, command: "nmea record", writer: corrections?.writer)
        let text = RecordStatusText(pipeline: pipeline, recorder: recorder, console: console, corrections: corrections)
        recorder.add(
            ConnectionReporter(console, statusText: text.line, onFinish: text.save), name: "status",
            options: ConnectionReporter.options)
        recorder.start()
        receiver.start()
        while !StopSignal.wait(timeout: .milliseconds(250)) && !receiver.hasEnded && !recorder.allTracksFailed {}
        if let signal = StopSignal.received {
            console.print("stopping (\(StopSignal.name(signal)))")
        } else if recorder.allTracksFailed {
            console.print("no track can be written any more; stopping")
        }
        corrections?.stop()
        receiver.stop()
        server?.stop()
        outputs.finish()
        page?.stop()
        recorder.finish()
        time?.finish()
        console.clear()
        for line in recorder.summary { Console.error("nmea record: \(line)\n") }
        for line in outputs.summary { Console.error("nmea record: \(line)\n") }
        for line in time?.summary ?? [] { Console.error("nmea record: \(line)\n") }
        for line in corrections?.summary ?? [] { Console.error("nmea record: \(line)\n") }
        if let failure = receiver.failure { throw RuntimeError(failure) }
        return recorder.hasFailed ? ExitStatus.failure : ExitStatus.success
    }

    /// A gpsd server on the pipeline (`--serve`), started before the receiver so that it misses nothing.
    static func serve(_ pipeline: ReceiverPipeline, on listen: ListenAddress) throws(RuntimeError) -> GPSDServer {
        do {
            return try GPSDServer.started(pipeline: pipeline, listen: listen, version: toolVersion)
        } catch {
            throw RuntimeError(error.description)
        }
    }
}

/// What `nmea record`'s options say, validated (usage errors first, before anything is opened).
struct RecordSettings {
    var selector: DeviceSelector
    /// A `tcp://`, `udp://` or `gpsd://` receiver instead of a serial one.
    var network: NetworkSourceAddress?
    var baudRate: BaudRate?
    /// `--rate`, `--gnss`: what the receiver is told at each connection.
    var receiverSettings: ReceiverSettings
    var rotation: Rotation
    var tracks: [TrackOutput] = []
    var raw: OutputName?
    var rawFormat = RawFormat.raw
    var compress = false
    var trips: OutputName?
    var serve: ListenAddress?
    var nmeaOutputs: NMEAOutputOptions
    var timeOptions: TimeOptions
    var web: WebOptions
    var mqtt: FleetPublisher.Configuration?
    /// `--ntrip`: corrections from a caster to the receiver's port.
    var ntrip: NTRIPOptions
    /// `--max-hdop`, `--fix`, `--drop-outliers`…: the cleaning of the tracks and trips.
    var cleaner: TrackCleaner?

    static let device = Argument<String?>(
        "device",
        help: "The receiver: a path, a serial number, 'auto', or tcp://HOST:PORT, udp://[ADDR]:PORT, "
            + "gpsd://HOST[:PORT].",
        defaultText: "auto")
    private static let outputs = Option(
        repeating: OptionSpec(
            long: "output", short: "o", valueName: "file",
            help: "A track to write: .gpx, .geojson, .kml or .csv (repeat for several).", isRequired: true,
            completion: .file))
    private static let receiver = ReceiverOptions(baudHelp: "The line rate, or 'auto' to find it.")
    private static let rawOption = Option<String?>(
        long: "raw", valueName: "file", help: "Also append the exact bytes received to this file.", completion: .file)
    private static let rawFormatOption = Option<String>(
        long: "raw-format", valueName: "format",
        help: "How --raw writes: 'raw', the exact bytes, or 'tagged', each sentence after a TAG block "
            + "with its receive time (\\c:<unix ms>*hh\\).",
        default: "raw", choices: ["raw", "tagged"])
    private static let compressOption = Flag(
        long: "compress",
        help: "With --rotate daily, compress each finished day's --raw file to .zst (the plain file is "
            + "removed once the .zst is complete).")
    private static let splitGap = Option<Double>(
        long: "split-gap", valueName: "seconds", help: "Start a new track segment after a gap this long.",
        default: 60, in: 0.001...31_536_000)
    private static let fsync = Flag(long: "fsync", help: "Sync each fix to disk (for loggers that may lose power).")
    private static let tripsOption = Option<String?>(
        long: "trips", valueName: "file",
        help: "Append one JSON line per finished trip (as 'nmea trips --json' has them).",
        completion: .file)
    private static let rotate = Option<String?>(
        long: "rotate", valueName: "period",
        help: "New files each UTC day, for every output (tracks, raw, trips), opened with the day's "
            + "first fix; names get the date (or use %Y, %m, %d in them).",
        choices: ["daily"])
    private static let serveOption = Option<ListenAddress?>(
        long: "serve", valueName: "[addr:]port",
        help: "Also serve gpsd's JSON protocol here (127.0.0.1 unless an address is given)."
    ) { text throws(ValueError) in
        guard let address = ListenAddress(parsing: text) else { throw .invalid(text, because: "expected [ADDR:]PORT") }
        return address
    }

    static let options: [any OptionDeclaration] =
        [
            outputs, receiver.baud, rawOption, rawFormatOption, compressOption, splitGap, fsync, tripsOption, rotate,
            serveOption,
        ] + ReceiverConfigurationOptions.options + CleaningOptions.liveOptions + NMEAOutputOptions.options
        + WebOptions.options + MQTTOptions.options
        + TimeOptions.options + [TimeOptions.setClockOption] + NTRIPOptions.options

    init(_ arguments: ParsedArguments) throws {
        let device = arguments.value(Self.device)
        selector = DeviceSelector(argument: device)
        network = try Self.receiver.networkSource(device, arguments)
        nmeaOutputs = try NMEAOutputOptions(arguments)
        timeOptions = try TimeOptions(arguments, canSetClock: true)
        web = try WebOptions(arguments)
        baudRate = try Self.receiver.baudRate(arguments)
        receiverSettings = try ReceiverConfigurationOptions.settings(arguments)
        if network != nil && !receiverSettings.isEmpty {
            throw arguments.usageError("--rate and --gnss configure a receiver on a serial port, not \(device ?? "")")
        }
        ntrip = try NTRIPOptions(arguments)
        if network != nil && ntrip.client != nil {
            throw arguments.usageError("--ntrip feeds corrections to a receiver on a serial port, not \(device ?? "")")
        }
        rotation = try arguments.value(Self.rotate) == "daily" ? .daily : .none
        let splitGap = try arguments.value(Self.splitGap)
        let options = TrackOptions(
            splitGapSeconds: splitGap, flush: .everyFix, sync: arguments.flag(Self.fsync),
            publication: .atFirstPoint)
        cleaner = try CleaningOptions.parse(arguments, splitGapSeconds: splitGap, live: true)
        tracks = try Self.tracks(arguments, rotation: rotation, options: options)
        raw = try arguments.value(Self.rawOption).map { OutputName($0, rotation: rotation) }
        rawFormat = try arguments.value(Self.rawFormatOption) == "tagged" ? .tagged : .raw
        compress = arguments.flag(Self.compressOption)
        if raw == nil && (compress || arguments.isGiven(Self.rawFormatOption)) {
            throw arguments.usageError("--raw-format and --compress need --raw FILE")
        }
        if compress && rotation != .daily {
            throw arguments.usageError("--compress compresses finished days: it needs --rotate daily")
        }
        trips = try arguments.value(Self.tripsOption).map { OutputName($0, rotation: rotation) }
        serve = try arguments.value(Self.serveOption)
        mqtt = try MQTTOptions.configuration(arguments)
    }

    /// A track output for each `-o`, its format told by its name.
    private static func tracks(_ arguments: ParsedArguments, rotation: Rotation, options: TrackOptions)
        throws(UsageError) -> [TrackOutput]
    {
        var tracks: [TrackOutput] = []
        for path in try arguments.value(outputs) {
            guard path != "-" else { throw arguments.usageError("Tracks are files: '-o -' is not supported here") }
            guard let format = ConvertOutput.formatNamed(by: path) else {
                throw arguments.usageError(
                    "Cannot tell the format of '\(path)': name it .gpx, .geojson, .json, .kml or .csv")
            }
            tracks.append(
                TrackOutput(OutputName(path, rotation: rotation)) { path throws(TrackError) in
                    try ConvertOutput(path: path, format: format).makeWriter(track: options, includePoints: false)
                })
        }
        return tracks
    }

    /// Fixes without a date get the system clock's (a GGA-only receiver); sentences only for a gpsd server.
    var pipeline: ReceiverPipeline.Configuration {
        let today = UTCDate(containing: WallClock.nanosecondsSinceEpoch())
        var configuration = ReceiverPipeline.Configuration()
        // The page reads AIS sentences for its vessels.
        configuration.publishesSentences =
            serve != nil || !nmeaOutputs.isEmpty || rawFormat == .tagged || web.listen != nil
        configuration.publishesRaw = raw != nil
        configuration.assembler = FixAssembler.Options(fallbackDate: today, referenceDate: today)
        // The page shows each epoch's position at once; tracks, trips and MQTT skip the provisional fixes.
        configuration.assembler.provisionalPositions = web.listen != nil
        timeOptions.configure(&configuration)
        return configuration
    }

    /// The recorder's outputs; connects the MQTT publisher (its queue is opened now).
    func recording(_ console: StatusLine) throws -> Recorder.Configuration {
        var configuration = Recorder.Configuration()
        configuration.tracks = tracks
        configuration.raw = raw
        configuration.rawFormat = rawFormat
        configuration.compressesFinishedDays = compress
        configuration.trips = trips
        configuration.cleaner = cleaner
        for name in [raw, trips].compactMap({ $0 }) + tracks.map(\.name) {
            if let problem = name.directoryProblem { throw RuntimeError(problem) }
        }
        if let mqtt {
            do {
                configuration.publisher = try FleetPublisher(mqtt)
            } catch {
                throw RuntimeError("MQTT: \(error)")
            }
        }
        configuration.places = { RecordStatusText.places(console) }
        return configuration
    }
}
