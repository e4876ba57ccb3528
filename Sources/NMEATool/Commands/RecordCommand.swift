import Fleet
import Glibc
import NMEA
import Pipeline
import SerialPort
import System
import Threading
import Tracks

/// `nmea record`: log a receiver to GPX/GeoJSON (and raw NMEA) until stopped, surviving unplug and replug.
enum RecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Log a GPS receiver to GPX and GeoJSON tracks.",
        discussion: """
            Finds the receiver (a path, a /dev/serial/by-id link, a USB serial number, or 'auto' for the first known \
            GPS receiver, waiting for one to be plugged in), sets up the serial port and finds its rate, and writes \
            every fix until SIGINT or SIGTERM. The files are complete documents after every fix, so a kill or a \
            power cut loses at most the last second. When the receiver is unplugged the files stay open; logging \
            resumes, in a new track segment, when it comes back.
            """,
        arguments: [ArgumentSpec(name: "device", help: "The receiver: a path, a serial number, or 'auto'.",
                                 defaultValue: "auto")],
        options: [
            OptionSpec(long: "output", short: "o", valueName: "file",
                       help: "A track to write: .gpx or .geojson (repeat for several).", isRepeatable: true,
                       isRequired: true, completion: .file),
            OptionSpec(long: "baud", valueName: "rate", help: "The line rate, or 'auto' to find it.",
                       defaultValue: "auto"),
            OptionSpec(long: "raw", valueName: "file", help: "Also append the exact bytes received to this file.",
                       completion: .file),
            OptionSpec(long: "split-gap", valueName: "seconds",
                       help: "Start a new track segment after a gap this long.", defaultValue: "60"),
            OptionSpec(long: "fsync", help: "Sync each fix to disk (for loggers that may lose power)."),
            OptionSpec(long: "trips", valueName: "file",
                       help: "Append one JSON line per finished trip (as 'nmea trips --json' has them).",
                       completion: .file),
            OptionSpec(long: "rotate", valueName: "period",
                       help: "Start new files at midnight UTC; names get the date (or use %Y, %m, %d in them).",
                       choices: ["daily"]),
            OptionSpec(long: "serve", valueName: "[addr:]port",
                       help: "Also serve gpsd's JSON protocol here (127.0.0.1 unless an address is given)."),
        ] + MQTTOptions.options,
        examples: [
            "nmea record -o track.gpx",
            "nmea record /dev/ttyACM0 --baud 9600 -o track.gpx -o track.geojson --raw track.nmea",
            "nmea record auto --rotate daily -o /var/lib/nmea/%Y-%m-%d.gpx",
            "nmea record -o track.gpx --trips trips.jsonl",
            "nmea record -o track.gpx --mqtt mqtt://broker.example:1883 --mqtt-topic owntracks/fleet/van7",
            "nmea record -o track.gpx --serve 2947",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let selector = DeviceSelector(argument: arguments.positionals.first)
        let baudRate: BaudRate?
        switch arguments.value("baud") {
        case nil, "auto": baudRate = nil
        case let text?:
            guard let number = Int(text), let rate = BaudRate(rawValue: number) else {
                throw arguments.invalid(text, for: "baud", because: "expected a standard rate (4800…921600) or 'auto'")
            }
            baudRate = rate
        }
        let splitGap = try arguments.number("split-gap", default: 60, in: 0.001...31_536_000)
        var outputs: [TrackRecorder.Output] = []
        for path in arguments.allValues("output") {
            guard path != "-" else { throw arguments.usageError("Tracks are files: '-o -' is not supported here") }
            guard let format = ConvertOutput.formatNamed(by: path) else {
                throw arguments.usageError("Cannot tell the format of '\(path)': name it .gpx, .geojson or .json")
            }
            outputs.append(TrackRecorder.Output(pattern: path, format: format))
        }

        // --serve: a gpsd server on the same pipeline (see ServeCommand).
        let serve = try arguments.value("serve").map { try ServeCommand.listenAddress(serveOption: $0, arguments) }

        StopSignals.block()
        let today = UTCDate(daysSinceEpoch: Int(time(nil) / 86_400))
        var configuration = ReceiverPipeline.Configuration()
        configuration.publishesSentences = serve != nil
        configuration.publishesRaw = arguments.value("raw") != nil
        configuration.assembler = FixAssembler.Options(fallbackDate: today, referenceDate: today)
        let pipeline = ReceiverPipeline(configuration: configuration)

        let recorder = TrackRecorder(
            outputs: outputs,
            options: TrackOptions(splitGapSeconds: splitGap, flush: .everyFix, sync: arguments.flag("fsync")),
            rotateDaily: arguments.value("rotate") == "daily")
        recorder.open(for: today)
        if recorder.errors.withLock({ !$0.isEmpty }) { return ExitStatus.failure }
        var threads: [NativeThread] = []
        let trackConsumer = pipeline.makeConsumer(name: "track")
        threads.append(NativeThread { recorder.run(trackConsumer) })
        var extraConsumers: [RingConsumer<PipelineRecord>] = []
        var raw: RawRecorder?
        if let path = arguments.value("raw") {
            let capture = try RawRecorder(path: path)
            let rawConsumer = pipeline.makeConsumer(name: "raw")
            extraConsumers.append(rawConsumer)
            threads.append(NativeThread { capture.run(rawConsumer) })
            raw = capture
        }
        var publisher: FleetPublisher?
        if let configuration = try MQTTOptions.configuration(arguments) {
            let created: FleetPublisher
            do {
                created = try FleetPublisher(configuration)
            } catch {
                throw RuntimeError("MQTT: \(error)")
            }
            publisher = created
            let mqtt = MQTTRecorder(publisher: created)
            let mqttConsumer = pipeline.makeConsumer(name: "mqtt")
            extraConsumers.append(mqttConsumer)
            threads.append(NativeThread { mqtt.run(mqttConsumer) })
        }
        var tripRecorder: TripRecorder?
        if arguments.value("trips") != nil || publisher != nil {
            let recorder = try TripRecorder(path: arguments.value("trips"), publisher: publisher)
            let tripConsumer = pipeline.makeConsumer(name: "trips")
            extraConsumers.append(tripConsumer)
            threads.append(NativeThread { recorder.run(tripConsumer) })
            tripRecorder = recorder
        }
        let statusConsumer = pipeline.makeConsumer(name: "status")
        // The place name on the status line (a terminal only): looked up every few seconds, from the cache mostly.
        let places = Console.standardErrorIsTerminal ? TripsCommand.makeGeocoder(command: "nmea record") : nil
        var place: (label: String, at: MonotonicTime)?
        let server = try serve.map { try ServeCommand.startServer(pipeline: pipeline, listen: $0) }
        if let server { Console.error("nmea record: serving gpsd clients on \(server.boundAddress ?? serve!)\n") }

        let receiver = DeviceReceiver(selector: selector, baudRate: baudRate, pipeline: pipeline)
        receiver.start()
        let line = StatusLine(enabled: Console.standardErrorIsTerminal)
        var lastState: ReceiverStatus?
        while true {
            if let signal = StopSignals.wait(milliseconds: 250) {
                line.clear()
                Console.error("nmea record: stopping (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))\n")
                break
            }
            // Connection changes, as lines (also when standard error is a log, not a terminal).
            while let (record, _) = statusConsumer.next(timeout: .zero) {
                guard case .status(let status) = record.content, status != lastState else { continue }
                lastState = status
                line.clear()
                Console.error("nmea record: \(describe(status))\n")
            }
            if receiver.hasEnded { break }
            if let places, let fix = pipeline.latestFix?.fix, let latitude = fix.latitude,
               let longitude = fix.longitude, place.map({ $0.at.elapsed > .seconds(5) }) ?? true {
                place = (places.placeName(latitude: latitude, longitude: longitude)?.label ?? "", .now())
            }
            if recorder.allFailed.load(ordering: .relaxed) {
                line.clear()
                Console.error("nmea record: no track can be written any more; stopping\n")
                break
            }
            line.show(status(pipeline, recorder: recorder, raw: raw, place: place?.label,
                             trips: tripRecorder?.trips.load(ordering: .relaxed),
                             mqtt: publisher?.counters.summary))
        }
        receiver.stop()
        server?.stop()
        for thread in threads { thread.join() }
        places?.save()
        if let publisher {
            // Give the broker a moment to acknowledge what is in flight; what it has not acknowledged stays in the
            // queue on disk for the next run.
            if publisher.counters.state == .connected { _ = publisher.waitUntilDelivered(timeout: 2) }
            publisher.close()
            Console.error("nmea record: \(publisher.counters.summary)\n")
        }
        line.clear()
        let statistics = pipeline.statistics
        let files = recorder.opened.withLock { $0 }
        Console.error("nmea record: \(recorder.points.load(ordering: .relaxed)) points in "
            + "\(files.joined(separator: ", ")); \(statistics.framer.rejected) lines rejected\n")
        // A consumer that fell more than a ring behind lost records: say so, never silently.
        for consumer in [trackConsumer] + extraConsumers where consumer.lost > 0 {
            Console.error("nmea record: the \(consumer.statistics.name) consumer fell behind and lost "
                + "\(consumer.lost) records\n")
        }
        if let failure = receiver.failure.withLock({ $0 }) {
            Console.error("Error: \(failure.description)\n")
            return ExitStatus.failure
        }
        let failed = recorder.errors.withLock { !$0.isEmpty } || raw?.error.withLock({ $0 != nil }) == true
            || tripRecorder?.error.withLock({ $0 != nil }) == true
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// A connection change in words: `/dev/ttyACM0: connected at 9600 baud`.
    static func describe(_ status: ReceiverStatus) -> String {
        let device = status.device.string
        switch status.state {
        case .searching: return device == "auto" || device.isEmpty ? "waiting for a GPS receiver" : "waiting for \(device)"
        case .connecting: return "\(device): trying \(status.baudRate) baud"
        case .connected:
            let again = status.detail.string == "reconnected" ? "reconnected" : "connected"
            return "\(device): \(again) at \(status.baudRate) baud"
        case .disconnected:
            if status.reason == .unavailable { return status.detail.string }
            return "\(device): disconnected (\(status.reason)); waiting for it to come back"
        case .ended: return "stopped"
        }
    }

    /// The one-line status: device, rate, fix, satellites, position, points, rejected lines.
    static func status(_ pipeline: ReceiverPipeline, recorder: TrackRecorder, raw: RawRecorder?, place: String?,
                       trips: Int?, mqtt: String?) -> String {
        let statistics = pipeline.statistics
        var parts: [String] = []
        let status = statistics.status
        switch status.state {
        case .connected: parts.append("\(status.device.string) \(status.baudRate) baud")
        default: parts.append(describe(status))
        }
        if let latest = pipeline.latestFix {
            let fix = latest.fix
            parts.append(fix.hasPosition ? "\(fix.mode.name.uppercased()) fix" : "no fix")
            parts.append("\(fix.satellitesUsed ?? fix.satellitesUsedInView)/\(fix.satellites.count) sats")
            if let latitude = fix.latitude, let longitude = fix.longitude {
                parts.append(format(abs(latitude), 5) + (latitude < 0 ? " S " : " N ")
                    + format(abs(longitude), 5) + (longitude < 0 ? " W" : " E"))
            }
            if let place, !place.isEmpty { parts.append(place) }
        }
        parts.append("\(recorder.points.load(ordering: .relaxed)) points")
        if let trips { parts.append("\(trips) trips") }
        parts.append("\(statistics.framer.rejected) rejected")
        let lost = pipeline.ring.consumerStatistics().reduce(0) { $0 + $1.lost }
        if lost > 0 { parts.append("\(lost) records lost (a writer is too slow)") }
        if let raw { parts.append("\(raw.bytes.load(ordering: .relaxed)) raw bytes") }
        if let mqtt { parts.append(mqtt) }
        return parts.joined(separator: " · ")
    }
}

/// A status line redrawn in place on a terminal; nothing when standard error is not one.
final class StatusLine {
    let enabled: Bool
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ text: String) {
        guard enabled else { return }
        Console.error("\r" + text + "\u{1B}[K")
        shown = true
    }

    func clear() {
        guard enabled, shown else { return }
        Console.error("\r\u{1B}[K")
        shown = false
    }
}
