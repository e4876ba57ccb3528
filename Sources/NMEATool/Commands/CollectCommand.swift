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
        arguments: [
            ArgumentSpec(
                name: "url", help: "The broker: mqtt://[user@]host[:port] (mqtts:// for TLS).",
                isOptional: false)
        ],
        options: [
            OptionSpec(
                long: "db", valueName: "url",
                help: "Store in this PostgreSQL database: postgresql://USER@HOST[:PORT]/DB (no password)."),
            OptionSpec(
                long: "output", short: "o", valueName: "dir",
                help: "Write daily files per vehicle here (created when missing).", completion: .directory),
            MQTTOptions.passwordFile,
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
                long: "fsync",
                help: "Sync the files to disk (fdatasync) before acknowledging, for machines facing power cuts."),
            OptionSpec(
                long: "flush-interval", valueName: "seconds",
                help: "Ignored (kept for older command lines): the files are flushed after every read."),
            OptionSpec(long: "quiet", short: "q", help: "Do not report connections and the summary."),
        ],
        examples: [
            "nmea collect mqtt://localhost --db postgresql://fleet@localhost/fleet",
            "nmea collect mqtt://collector@broker.example --mqtt-password-file /etc/nmea/mqtt-password --db "
                + "postgresql://fleet@db.example/fleet --share collectors",
            "nmea collect mqtt://localhost -o fleet/",
            "nmea collect mqtt://broker.example --topic 'owntracks/acme/#' -o /srv/fleet",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let urlText = arguments.positionals[0]
        let output = arguments.value("output")
        let database = arguments.value("db")
        guard output != nil || database != nil else {
            throw arguments.usageError("Give where to store: '--db <url>', '-o <dir>', or both")
        }
        if let database, let problem = PostgresConnection.passwordProblem(database) {
            // Not the value itself: it may hold the password.
            throw arguments.usageError("The value of '--db' is refused: \(problem)")
        }
        let broker = try MQTTOptions.broker(urlText, arguments) { reason in
            arguments.usageError("The value '\(BrokerURL.redacted(urlText))' is invalid for '<url>': \(reason)")
        }
        var configuration = FleetCollector.Configuration(broker: broker, outputDirectory: output, database: database)
        configuration.topicFilter = arguments.value("topic") ?? "owntracks/#"
        configuration.shareGroup = arguments.value("share")
        configuration.clientID = arguments.value("client-id")
        configuration.tlsCAFile = arguments.value("tls-ca")
        configuration.splitGapSeconds = try arguments.number("split-gap", default: 600, in: 0...1e9)
        _ = try arguments.number("flush-interval", default: 1, in: 0...86_400)
        configuration.syncFiles = arguments.flag("fsync")
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
            let places = [output, database.map { _ in "the database" }].compactMap { $0 }.joined(separator: " and ")
            Console.error(
                "nmea collect: '\(configuration.subscription)' from \(broker) into \(places) "
                    + "(client ID \(collector.clientID))\n")
        }
        var reported = ConnectionStatus()
        var reportedDatabase = collector.databaseStatus
        do {
            try collector.run {
                if !quiet, let status = collector.databaseStatus, status != reportedDatabase {
                    if status.state == .connected && reportedDatabase?.state != .connected {
                        Console.error("nmea collect: the database is back\n")
                    } else if status.state == .disconnected, let error = status.lastError,
                        status.failures != reportedDatabase?.failures
                    {
                        Console.error(
                            "nmea collect: the database is unreachable (\(error)); messages wait at the "
                                + "broker; trying again\n")
                    }
                    reportedDatabase = status
                }
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
            let vehicles = "\(statistics.vehicles) vehicle\(statistics.vehicles == 1 ? "" : "s")"
            if database != nil {
                Console.error(
                    Self.summary(
                        "\(statistics.storedPositions) positions and \(statistics.storedTrips) trips stored from "
                            + vehicles, repeated: (statistics.storedBefore, "already stored"), statistics))
                if statistics.invalid > 0, let problem = statistics.lastProblem {
                    Console.error("nmea collect: the last invalid message: \(problem)\n")
                }
            }
            if output != nil {
                Console.error(
                    Self.summary(
                        "\(statistics.locations) positions and \(statistics.trips) trips from " + vehicles,
                        repeated: (statistics.duplicates, "duplicates"), statistics))
            }
        }
        return collector.statistics.writeErrors == 0 ? ExitStatus.success : ExitStatus.failure
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
