import Fleet
import Glibc

/// `nmea collect`: subscribes to a fleet's OwnTracks topics and writes daily tracks and trips per vehicle.
enum CollectCommand: Command {
    static let spec = CommandSpec(
        name: "collect",
        abstract: "Collect OwnTracks positions and trips from an MQTT broker into daily tracks per vehicle.",
        discussion: """
            Subscribes with QoS 1 and a persistent session (the broker keeps what arrives while the collector is \
            away) and writes, for each vehicle — the topic without its first level, so owntracks/acme/van7 is \
            acme/van7 — the files DIR/acme/van7/YYYY-MM-DD.gpx and .geojson (UTC days of the fix time; \
            always-valid documents, flushed every --flush-interval seconds) and DIR/acme/van7/trips.jsonl (one line \
            per message on <vehicle topic>/trip). A day whose files exist from an earlier run continues in \
            YYYY-MM-DD.2.gpx. Duplicate deliveries (same vehicle, tst and position) are written once; the broker's \
            retained copy of a last position is skipped (it was written when it was live).
            --share GROUP subscribes to $share/GROUP/<topic>: the broker gives each message to one collector of \
            the group, so several collectors, each with its own output directory, split the load.
            SIGINT or SIGTERM finishes every file and exits 0.
            """,
        arguments: [
            ArgumentSpec(
                name: "url", help: "The broker: mqtt://[user:pass@]host[:port] (mqtts:// for TLS).",
                isOptional: false)
        ],
        options: [
            OptionSpec(
                long: "output", short: "o", valueName: "dir", help: "Where to write (created when missing).",
                isRequired: true, completion: .directory),
            OptionSpec(
                long: "topic", valueName: "filter", help: "The topic filter to subscribe to.",
                defaultValue: "owntracks/#"),
            OptionSpec(
                long: "share", valueName: "group",
                help: "Share the subscription with the other collectors of this group."),
            OptionSpec(
                long: "client-id", valueName: "id",
                help: "The MQTT client ID. Default: nmea-collect-<host>-<hash of DIR>, stable across runs."),
            OptionSpec(
                long: "tls-ca", valueName: "file",
                help: "Verify the broker with the CA certificates in this PEM file (enables TLS).",
                completion: .file),
            OptionSpec(
                long: "split-gap", valueName: "seconds",
                help: "Start a new track segment after a gap longer than this.", defaultValue: "600"),
            OptionSpec(
                long: "flush-interval", valueName: "seconds",
                help: "How often the files are brought up to date.", defaultValue: "1"),
            OptionSpec(long: "quiet", short: "q", help: "Do not report connections and the summary."),
        ],
        examples: [
            "nmea collect mqtt://localhost -o fleet/",
            "nmea collect mqtt://collector:secret@broker.example --topic 'owntracks/acme/#' -o /srv/fleet",
            "nmea collect mqtt://broker.example --share collectors -o /srv/fleet-1",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let urlText = arguments.positionals[0]
        let broker: BrokerURL
        do {
            broker = try BrokerURL(parsing: urlText)
        } catch {
            throw arguments.usageError("The value '\(urlText)' is invalid for '<url>': \(error.reason)")
        }
        var configuration = FleetCollector.Configuration(
            broker: broker,
            outputDirectory: arguments.value("output") ?? ".")
        configuration.topicFilter = arguments.value("topic") ?? "owntracks/#"
        configuration.shareGroup = arguments.value("share")
        configuration.clientID = arguments.value("client-id")
        configuration.tlsCAFile = arguments.value("tls-ca")
        configuration.splitGapSeconds = try arguments.number("split-gap", default: 600, in: 0...1e9)
        configuration.flushIntervalSeconds = try arguments.number("flush-interval", default: 1, in: 0...86_400)
        if let group = configuration.shareGroup,
            group.isEmpty || group.contains("/") || group.contains("+") || group.contains("#")
        {
            throw arguments.invalid(group, for: "share", because: "a name without '/', '+' or '#'")
        }
        if configuration.topicFilter.isEmpty || configuration.topicFilter.hasPrefix("$share/") {
            throw arguments.invalid(
                configuration.topicFilter, for: "topic",
                because: "give the filter itself and the group with --share")
        }
        let quiet = arguments.flag("quiet")
        let collector: FleetCollector
        do {
            collector = try FleetCollector(configuration)
        } catch {
            throw RuntimeError(error.message)
        }
        collector.onProblem = { message in Console.error("nmea collect: \(message)\n") }
        StopSignal.install()
        if !quiet {
            Console.error(
                "nmea collect: '\(configuration.subscription)' from \(broker) into "
                    + "\(configuration.outputDirectory) (client ID \(collector.clientID))\n")
        }
        var reported = ConnectionStatus()
        do {
            try collector.run {
                let status = collector.connectionStatus
                if !quiet && (status.state != reported.state || status.lastError != reported.lastError) {
                    if status.state == .connected && reported.state != .connected {
                        Console.error("nmea collect: connected\n")
                    } else if status.state == .disconnected, let error = status.lastError,
                        error != reported.lastError
                    {
                        Console.error("nmea collect: \(error); trying again\n")
                    }
                    reported = status
                }
                return StopSignal.isRequested
            }
        } catch {
            Console.error("Error: \(error.message)\n")
            return ExitStatus.failure
        }
        if !quiet {
            let statistics = collector.statistics
            var line =
                "nmea collect: \(statistics.locations) positions and \(statistics.trips) trips from "
                + "\(statistics.vehicles) vehicle\(statistics.vehicles == 1 ? "" : "s")"
            var notes: [String] = []
            if statistics.duplicates > 0 { notes.append("\(statistics.duplicates) duplicates") }
            if statistics.retained > 0 { notes.append("\(statistics.retained) retained copies") }
            if statistics.otherTypes > 0 { notes.append("\(statistics.otherTypes) other messages") }
            if statistics.invalid > 0 { notes.append("\(statistics.invalid) invalid") }
            if !notes.isEmpty { line += " (skipped: " + notes.joined(separator: ", ") + ")" }
            Console.error(line + "\n")
        }
        return collector.statistics.writeErrors == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
