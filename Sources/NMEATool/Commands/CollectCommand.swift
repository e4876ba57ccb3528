import Fleet
import Glibc

/// `nmea collect`: subscribes to a fleet's OwnTracks topics and stores positions and trips in PostgreSQL, or writes
/// daily tracks and trips per vehicle, or both.
enum CollectCommand: Command {
    static let spec = CommandSpec(
        name: "collect",
        abstract: "Collect OwnTracks positions and trips from an MQTT broker into PostgreSQL or daily files.",
        discussion: """
            Subscribes with QoS 1 and a persistent session (the broker keeps what arrives while the collector is \
            away).
            With --db, stores positions, trips and vehicles in the schema 'nmea' of a PostgreSQL database with \
            PostGIS (created or migrated at start). The messages of each read are stored in one transaction and \
            acknowledged to the broker only after it commits, so a collector killed at any moment loses nothing \
            (the broker sends again what it has not seen acknowledged) and stores nothing twice (rows are keyed \
            by vehicle and time). While the database is unreachable the collector stays away from the broker, \
            where messages wait, and tries again with backoff. The database password comes from ~/.pgpass or \
            the file $PGPASSFILE names (libpq's own), never from the command line: query the data with 'nmea \
            fleet'.
            With -o, writes, for each vehicle — the topic without its first level, so owntracks/acme/van7 is \
            acme/van7 — the files DIR/acme/van7/YYYY-MM-DD.gpx and .geojson (UTC days of the fix time; \
            always-valid documents) and DIR/acme/van7/trips.jsonl (one line per message on <vehicle topic>/trip). \
            The messages of each read are written to the files and flushed before they are acknowledged (with \
            --fsync, synced to disk too), so a collector killed at any moment loses nothing; a restart continues \
            the day's files, and a position delivered again (same vehicle, tst and position among the last 8,192 \
            a file holds) or a trip (same start and end) is written once. A file that cannot be written (a full \
            disk) keeps the messages at the broker, as an unreachable database does. The broker's retained copy \
            of a last position is skipped (it was written when it was live).
            --share GROUP subscribes to $share/GROUP/<topic>: the broker gives each message to one collector of \
            the group, so several collectors, each with its own output directory, split the load.
            SIGINT or SIGTERM finishes every file and exits 0.
            """,
        arguments: [url],
        options: [
            database, output, MQTTOptions.passwordFile, topic, share, clientID, tlsCA, splitGap, fsync, flushInterval,
            quiet,
        ],
        examples: [
            "nmea collect mqtt://localhost --db postgresql://fleet@localhost/fleet",
            "nmea collect mqtt://collector@broker.example --mqtt-password-file /etc/nmea/mqtt-password --db "
                + "postgresql://fleet@db.example/fleet --share collectors",
            "nmea collect mqtt://localhost -o fleet/",
            "nmea collect mqtt://broker.example --topic 'owntracks/acme/#' -o /srv/fleet",
        ])

    private static let url = Argument<String>(
        required: "url", help: "The broker: mqtt://[user@]host[:port] (mqtts:// for TLS).")
    private static let database = Option<String?>(
        long: "db", valueName: "url",
        help: "Store in this PostgreSQL database: postgresql://USER@HOST[:PORT]/DB (no password).")
    private static let output = Option<String?>(
        long: "output", short: "o", valueName: "dir",
        help: "Write daily files per vehicle here (created when missing).",
        completion: .directory)
    private static let topic = Option<String>(
        long: "topic", valueName: "filter", help: "The topic filter to subscribe to.", default: "owntracks/#")
    private static let share = Option<String?>(
        long: "share", valueName: "group", help: "Share the subscription with the other collectors of this group.")
    private static let clientID = Option<String?>(
        long: "client-id", valueName: "id",
        help: "The MQTT client ID. Default: nmea-collect-<host>-<hash of DIR>, stable across runs.")
    private static let tlsCA = Option<String?>(
        long: "tls-ca", valueName: "file",
        help: "Verify the broker with the CA certificates in this PEM file (enables TLS).", completion: .file)
    private static let splitGap = Option<Double>(
        long: "split-gap", valueName: "seconds", help: "Start a new track segment after a gap longer than this.",
        default: 600, in: 0...1e9)
    private static let fsync = Flag(
        long: "fsync", help: "Sync the files to disk (fdatasync) before acknowledging, for machines facing power cuts.")
    private static let flushInterval = Option<Double?>(
        long: "flush-interval", valueName: "seconds",
        help: "Ignored (kept for older command lines): the files are flushed after every read.", in: 0...86_400)
    private static let quiet = Flag(long: "quiet", short: "q", help: "Do not report connections and the summary.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let configuration = try configuration(arguments)
        let quiet = arguments.flag(Self.quiet)
        let collector: FleetCollector
        do {
            collector = try FleetCollector(configuration)
        } catch {
            throw RuntimeError(error.message)
        }
        collector.onProblem = { message in Console.error("nmea collect: \(message)\n") }
        StopSignal.install()
        if !quiet {
            let places = [configuration.outputDirectory, configuration.database.map { _ in "the database" }]
                .compactMap { $0 }.joined(separator: " and ")
            Console.error(
                "nmea collect: '\(configuration.subscription)' from \(configuration.broker) into \(places) "
                    + "(client ID \(collector.clientID))\n")
        }
        var reporter = quiet ? nil : StatusReporter(databaseStatus: collector.databaseStatus)
        do {
            try collector.run {
                reporter?.report(collector)
                return StopSignal.isRequested
            }
        } catch {
            Console.error("Error: \(error.message)\n")
            return ExitStatus.failure
        }
        if !quiet { report(collector.statistics, configuration) }
        return collector.statistics.writeErrors == 0 ? ExitStatus.success : ExitStatus.failure
    }

    /// The collector the options describe, checked.
    private static func configuration(_ arguments: ParsedArguments) throws -> FleetCollector.Configuration {
        let urlText = arguments.value(url)
        let output = try arguments.value(Self.output)
        let database = try arguments.value(Self.database)
        guard output != nil || database != nil else {
            throw arguments.usageError("Give where to store: '--db <url>', '-o <dir>', or both")
        }
        if let database, let problem = PostgresConnection.passwordProblem(database) {
            // Not the value itself: it may hold the password.
            throw arguments.usageError("The value of '--db' is refused: \(problem)")
        }
        let parsed: BrokerURL
        do {
            parsed = try BrokerURL(parsing: urlText)
        } catch {
            throw arguments.usageError(
                "The value '\(BrokerURL.redacted(urlText))' is invalid for '<url>': \(error.reason)")
        }
        let broker = try MQTTOptions.withPassword(parsed, arguments)
        var configuration = FleetCollector.Configuration(broker: broker, outputDirectory: output, database: database)
        configuration.topicFilter = try arguments.value(topic)
        configuration.shareGroup = try arguments.value(share)
        configuration.clientID = try arguments.value(clientID)
        configuration.tlsCAFile = try arguments.value(tlsCA)
        configuration.splitGapSeconds = try arguments.value(splitGap)
        _ = try arguments.value(flushInterval)
        configuration.syncFiles = arguments.flag(fsync)
        if let group = configuration.shareGroup,
            group.isEmpty || group.contains("/") || group.contains("+") || group.contains("#")
        {
            throw arguments.invalid(group, for: share, because: "a name without '/', '+' or '#'")
        }
        if configuration.topicFilter.isEmpty || configuration.topicFilter.hasPrefix("$share/") {
            throw arguments.invalid(
                configuration.topicFilter, for: topic, because: "give the filter itself and the group with --share")
        }
        return configuration
    }

    /// Says when the broker's connection or the database's comes and goes.
    private struct StatusReporter {
        var reported = ConnectionStatus()
        var databaseStatus: ConnectionStatus?

        mutating func report(_ collector: FleetCollector) {
            if let status = collector.databaseStatus, status != databaseStatus {
                if status.state == .connected && databaseStatus?.state != .connected {
                    Console.error("nmea collect: the database is back\n")
                } else if status.state == .disconnected, let error = status.lastError,
                    status.failures != databaseStatus?.failures
                {
                    Console.error(
                        "nmea collect: the database is unreachable (\(error)); messages wait at the "
                            + "broker; trying again\n")
                }
                databaseStatus = status
            }
            let status = collector.connectionStatus
            if status.state != reported.state || status.lastError != reported.lastError {
                if status.state == .connected && reported.state != .connected {
                    Console.error("nmea collect: connected\n")
                } else if status.state == .disconnected, let error = status.lastError, error != reported.lastError {
                    Console.error("nmea collect: \(error); trying again\n")
                }
                reported = status
            }
        }
    }

    /// What was stored or written, and what was skipped.
    private static func report(_ statistics: FleetCollector.Statistics, _ configuration: FleetCollector.Configuration) {
        let vehicles = "\(statistics.vehicles) vehicle\(statistics.vehicles == 1 ? "" : "s")"
        if configuration.database != nil {
            Console.error(
                Self.summary(
                    "\(statistics.storedPositions) positions and \(statistics.storedTrips) trips stored from "
                        + vehicles, repeated: (statistics.storedBefore, "already stored"), statistics))
            if statistics.invalid > 0, let problem = statistics.lastProblem {
                Console.error("nmea collect: the last invalid message: \(problem)\n")
            }
        }
        if configuration.outputDirectory != nil {
            Console.error(
                Self.summary(
                    "\(statistics.locations) positions and \(statistics.trips) trips from " + vehicles,
                    repeated: (statistics.duplicates, "duplicates"), statistics))
        }
    }

    /// `nmea collect: WHAT (skipped: N REPEATED, N retained copies, N other messages, N invalid)`, the parts that
    /// are not zero, and a line ending.
    static func summary(
        _ what: String, repeated: (count: Int, name: String), _ statistics: FleetCollector.Statistics
    ) -> String {
        let skipped = [
            (repeated.count, repeated.name), (statistics.retained, "retained copies"),
            (statistics.otherTypes, "other messages"), (statistics.invalid, "invalid"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "nmea collect: \(what)" + (skipped.isEmpty ? "" : " (skipped: " + skipped.joined(separator: ", ") + ")")
            + "\n"
    }
}
