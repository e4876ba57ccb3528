import Fleet
import Glibc
import System

/// `nmea collect`: subscribes to a fleet's OwnTracks topics and stores positions and trips in PostgreSQL, or writes
/// daily tracks and trips per vehicle, or both; with `--http`, takes OsmAnd and OwnTracks reports over HTTP too (or
/// instead), and sends the geofence events the stored positions make to MQTT and a webhook.
enum CollectCommand: Command {
    static let spec = CommandSpec(
        name: "collect",
        abstract: "Collect positions from an MQTT broker or over HTTP (OsmAnd, OwnTracks) into PostgreSQL or files.",
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
            --http [ADDR:]PORT (with --db, beside the broker URL or instead of it) takes reports over HTTP: \
            OsmAnd (Traccar Client, GPSLogger, trackers: GET or POST /?id=ID&lat=…&lon=…&timestamp=…&speed=KNOTS…) \
            from the devices --devices lists (one a line: ID, a space, a name), and OwnTracks JSON POSTs from the \
            users --users lists (htpasswd -B), answered []. A report is answered 200 only once stored; 503 while \
            the database is unreachable (the phone sends it again); 403 for an unknown ID or a wrong login, counted \
            and never stored. Put TLS in a reverse proxy (see docs/fleet.md).
            Geofences ('nmea fleet geofence add') are evaluated as positions are stored: each enter and exit is \
            published as an OwnTracks transition to <topic of the vehicle>/event (with a broker URL) and, with \
            --webhook URL, POSTed as JSON, retried with backoff while the endpoint is down.
            SIGINT or SIGTERM finishes every file and exits 0.
            """,
        arguments: [url],
        options: [
            database, output, http, devices, users, webhook, MQTTOptions.passwordFile, topic, share, clientID, tlsCA,
            eventQueue, splitGap, fsync, flushInterval, quiet,
        ],
        examples: [
            "nmea collect mqtt://localhost --db postgresql://fleet@localhost/fleet",
            "nmea collect mqtt://collector@broker.example --mqtt-password-file /etc/nmea/mqtt-password --db "
                + "postgresql://fleet@db.example/fleet --share collectors",
            "nmea collect mqtt://localhost -o fleet/",
            "nmea collect --http 0.0.0.0:5055 --devices /etc/nmea/devices --users /etc/nmea/users --db "
                + "postgresql://fleet@localhost/fleet --webhook http://127.0.0.1:9000/fleet-events",
            "nmea collect mqtt://broker.example --topic 'owntracks/acme/#' -o /srv/fleet",
        ])

    private static let url = Argument<String?>(
        "url", help: "The broker: mqtt://[user@]host[:port] (mqtts:// for TLS); none with --http alone.",
        defaultText: "none")
    private static let http = WebOptions.httpOption(
        help: "Take OsmAnd and OwnTracks reports over HTTP here ([ADDR:]PORT; loopback unless ADDR says otherwise).")
    private static let devices = Option<String?>(
        long: "devices", valueName: "file", help: "With --http: the OsmAnd devices, one a line: ID, a space, a name.",
        completion: .file)
    private static let users = Option<String?>(
        long: "users", valueName: "file",
        help: "With --http: the OwnTracks users, user:hash lines from 'htpasswd -B'.", completion: .file)
    private static let webhook = Option<String?>(
        long: "webhook", valueName: "url", help: "POST each geofence event as JSON to this http:// URL.")
    private static let eventQueue = Option<String?>(
        long: "event-queue", valueName: "dir",
        help: "The disk queue of the events published to the broker. Default: $XDG_STATE_HOME/nmea/collect-events/ID.",
        completion: .directory)
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
        let (configuration, hasBroker) = try configuration(arguments)
        let webhookURL = try webhook(arguments, database: configuration.database)
        let httpConfiguration = try httpConfiguration(arguments, database: configuration.database)
        let quiet = arguments.flag(Self.quiet)
        var collector: FleetCollector?
        if hasBroker {
            do {
                collector = try FleetCollector(configuration)
            } catch {
                throw RuntimeError(error.message)
            }
        }
        collector?.onProblem = { message in Console.error("nmea collect: \(message)\n") }
        let dispatcher = try eventDispatcher(
            arguments, configuration, webhook: webhookURL, collectorID: collector?.clientID)
        collector?.onEvents = { dispatcher?.dispatch($0) }
        var httpCollector: HTTPCollector?
        if let httpConfiguration {
            let made = HTTPCollector(httpConfiguration)
            made.onEvents = { dispatcher?.dispatch($0) }
            do {
                try made.start()
            } catch {
                throw RuntimeError(error.message)
            }
            httpCollector = made
        }
        StopSignal.install()
        if !quiet { announce(collector, configuration, httpCollector, dispatcher) }
        var reporter = quiet ? nil : StatusReporter(databaseStatus: collector?.databaseStatus)
        var status = ExitStatus.success
        if let collector {
            do {
                try collector.run {
                    reporter?.report(collector)
                    return StopSignal.isRequested
                }
            } catch {
                Console.error("Error: \(error.message)\n")
                status = ExitStatus.failure
            }
        } else {
            while !StopSignal.wait(timeout: .milliseconds(250)) {
                if let httpCollector { reporter?.report(http: httpCollector) }
            }
        }
        httpCollector?.stop()
        dispatcher?.stop()
        dispatcher?.configuration.publisher?.close()
        if !quiet {
            if let collector { report(collector.statistics, configuration) }
            if let httpCollector { report(httpCollector.statistics) }
            if let dispatcher { report(dispatcher.statistics) }
        }
        if let collector, collector.statistics.writeErrors > 0 { status = ExitStatus.failure }
        return status
    }

    /// `nmea collect: …` lines saying what is collected from where into what.
    private static func announce(
        _ collector: FleetCollector?, _ configuration: FleetCollector.Configuration, _ http: HTTPCollector?,
        _ dispatcher: EventDispatcher?
    ) {
        let places = [configuration.outputDirectory, configuration.database.map { _ in "the database" }]
            .compactMap { $0 }.joined(separator: " and ")
        if let collector {
            Console.error(
                "nmea collect: '\(configuration.subscription)' from \(configuration.broker) into \(places) "
                    + "(client ID \(collector.clientID))\n")
        }
        if let http, let address = http.boundAddress {
            let devices = http.configuration.devices.count
            let users = http.configuration.users?.count ?? 0
            Console.error(
                "nmea collect: HTTP reports on \(address) into the database (\(devices) device"
                    + "\(devices == 1 ? "" : "s"), \(users) OwnTracks user\(users == 1 ? "" : "s"))\n")
        }
        if let webhook = dispatcher?.configuration.webhook {
            Console.error("nmea collect: geofence events to \(webhook)\n")
        }
    }

    /// The HTTP side the options describe, its files read; `nil` without `--http`.
    private static func httpConfiguration(_ arguments: ParsedArguments, database: String?) throws
        -> HTTPCollector.Configuration?
    {
        let devicesPath = try arguments.value(devices)
        let usersPath = try arguments.value(users)
        guard let listen = try arguments.value(http) else {
            if devicesPath != nil || usersPath != nil {
                throw arguments.usageError("'--devices' and '--users' go with '--http [ADDR:]PORT'")
            }
            return nil
        }
        guard let database else {
            throw arguments.usageError("'--http' stores into a database: give '--db <url>'")
        }
        guard devicesPath != nil || usersPath != nil else {
            throw arguments.usageError(
                "'--http' takes reports from known senders only: give '--devices FILE' (OsmAnd IDs), "
                    + "'--users FILE' (OwnTracks logins, htpasswd -B), or both")
        }
        do {
            let deviceList = try devicesPath.map { path throws(FleetError) in try DeviceList.load(path) }
            let userList = try usersPath.map { path throws(FleetError) in try UserList.load(path) }
            return HTTPCollector.Configuration(
                listen: listen, database: database, devices: deviceList ?? DeviceList(), users: userList)
        } catch {
            throw RuntimeError(error.message)
        }
    }

    /// Where geofence events go: the broker (through a publisher and its disk queue) and the webhook; `nil`
    /// without a database (no fences without one).
    private static func eventDispatcher(
        _ arguments: ParsedArguments, _ configuration: FleetCollector.Configuration, webhook: WebhookURL?,
        collectorID: String?
    ) throws -> EventDispatcher? {
        let queueDirectory = try arguments.value(eventQueue)
        guard configuration.database != nil else { return nil }
        var events = EventDispatcher.Configuration()
        events.webhook = webhook
        if let collectorID {
            var publishing = FleetPublisher.Configuration(broker: configuration.broker, topic: "owntracks/nmea-collect")
            // Its own session and queue per collector: two collectors on one host (a share group) each publish.
            publishing.clientID = collectorID + "-events"
            publishing.tlsCAFile = configuration.tlsCAFile
            do throws(FleetError) {
                if let queueDirectory {
                    publishing.queueDirectory = queueDirectory
                } else {
                    publishing.queueDirectory = try defaultEventQueue() + "/" + collectorID
                }
                events.publisher = try FleetPublisher(publishing)
            } catch {
                throw RuntimeError("cannot publish geofence events: \(error.message)")
            }
            events.topicPrefix = configuration.topicFilter.split(separator: "/").first.map { $0 + "/" } ?? "owntracks/"
        }
        return EventDispatcher(events)
    }

    /// `--webhook`, checked.
    private static func webhook(_ arguments: ParsedArguments, database: String?) throws -> WebhookURL? {
        guard let text = try arguments.value(webhook) else { return nil }
        guard database != nil else {
            throw arguments.usageError("'--webhook' sends geofence events: give '--db <url>'")
        }
        do {
            return try WebhookURL(parsing: text)
        } catch {
            throw arguments.invalid(text, for: webhook, because: error.message)
        }
    }

    private static func defaultEventQueue() throws(FleetError) -> String {
        guard let state = StandardDirectories.state else {
            throw FleetError("no queue directory: set XDG_STATE_HOME or HOME, or give --event-queue")
        }
        return state + "/collect-events"
    }

    /// The collector the options describe, checked, and whether a broker was given.
    private static func configuration(_ arguments: ParsedArguments) throws -> (FleetCollector.Configuration, Bool) {
        let output = try arguments.value(Self.output)
        let database = try arguments.value(Self.database)
        guard output != nil || database != nil else {
            throw arguments.usageError("Give where to store: '--db <url>', '-o <dir>', or both")
        }
        if database != nil, let problem = PostgresConnection.libraryProblem { throw RuntimeError(problem) }
        if let database, let problem = PostgresConnection.passwordProblem(database) {
            // Not the value itself: it may hold the password.
            throw arguments.usageError("The value of '--db' is refused: \(problem)")
        }
        guard let urlText = arguments.value(url) else {
            guard try arguments.value(http) != nil else {
                throw arguments.usageError("Give the broker URL, '--http [ADDR:]PORT', or both")
            }
            if output != nil { throw arguments.usageError("'-o' writes what a broker sends: give the broker URL") }
            return (FleetCollector.Configuration(broker: BrokerURL(host: "localhost"), database: database), false)
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
        return (configuration, true)
    }

    /// Says when the broker's connection or the database's comes and goes.
    private struct StatusReporter {
        var reported = ConnectionStatus()
        var databaseStatus: ConnectionStatus?

        /// The HTTP side's database, when there is no broker.
        mutating func report(http: HTTPCollector) {
            guard let status = http.databaseStatus, status != databaseStatus else { return }
            if status.state == .connected && databaseStatus?.state != .connected && databaseStatus != nil {
                Console.error("nmea collect: the database is back\n")
            } else if status.state == .disconnected, let error = status.lastError,
                status.failures != databaseStatus?.failures
            {
                Console.error(
                    "nmea collect: the database is unreachable (\(error)); reports are answered 503 and "
                        + "sent again; trying again\n")
            }
            databaseStatus = status
        }

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

    /// What came over HTTP.
    private static func report(_ statistics: HTTPCollector.Statistics) {
        let refused = [
            (statistics.duplicates, "already stored"), (statistics.unknownDevices, "from unknown devices (403)"),
            (statistics.failedLogins, "failed logins (401/403)"), (statistics.invalid, "invalid"),
            (statistics.otherTypes, "other OwnTracks messages"), (statistics.unavailable, "answered 503"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        Console.error(
            "nmea collect: \(statistics.stored) HTTP reports stored from \(statistics.requests) requests"
                + (refused.isEmpty ? "" : " (not stored: " + refused.joined(separator: ", ") + ")") + "\n")
    }

    /// Where the geofence events went.
    private static func report(_ statistics: EventDispatcher.Statistics) {
        guard statistics.events > 0 || statistics.dropped > 0 else { return }
        var line = "nmea collect: \(statistics.events) geofence events, \(statistics.published) queued for the broker"
        line += ", \(statistics.delivered) delivered to the webhook"
        if statistics.waiting > 0 { line += ", \(statistics.waiting) not delivered (in the database)" }
        if statistics.dropped > 0 { line += ", \(statistics.dropped) dropped from the webhook's full queue" }
        Console.error(line + "\n")
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
