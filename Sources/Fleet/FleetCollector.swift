import Glibc
import NMEA
import System
import Threading
import Tracks

/// The other side of the fleet: subscribes to the vehicles' topics and stores what they send in PostgreSQL (see
/// ``FleetSchema``), or writes, per vehicle, a daily GPX and GeoJSON track and a trips JSON Lines file (see
/// ``VehicleFiles`` for the layout), or both.
///
/// - With a database, nothing is lost and nothing stored twice: the messages of each read from the broker are
///   stored in one transaction (``PositionStore``), and their QoS 1 acknowledgements go out only after it commits.
///   A collector killed at any moment leaves messages the broker has not seen acknowledged, which it sends again
///   on the next connection of the session; rows the database already has are left alone (`ON CONFLICT DO
///   NOTHING`). While the database is unreachable the collector stays away from the broker, where messages wait
///   in the persistent session, and tries the database again with backoff.
///
/// - With files, likewise: the messages of each read are written to every file they go to and flushed (a SIGKILL
///   of the collector cannot lose them then; with ``Configuration/syncFiles``, a power cut cannot either), and
///   only then acknowledged. A restart continues the day's files in place (see ``VehicleFiles``), and positions
///   the broker sends again are written once (``WrittenPoints``). A file that cannot be written because of the
///   machine (a full disk, an I/O error) is handled as an unreachable database: the collector leaves the broker
///   without acknowledging, and tries again with backoff; a vehicle whose name cannot be a path (a topic level
///   too long for a file name) is reported and its messages skipped.
///
/// - Vehicles are named by their topic without its first level: `owntracks/acme/van7` → `acme/van7`; a message on
///   `…/trip` is that vehicle's trip. Other OwnTracks messages (`lwt`, `transition`, `card`, …) are counted and
///   left alone.
/// - QoS 1, clean session off and a stable client ID: the broker keeps what arrives while the collector is away
///   (up to its `max_queued_messages`, 1000 by default in Mosquitto — raise it for collectors that may be down for
///   long).
/// - Duplicates (QoS 1 resends, a publisher resending after a restart) are written once: a location is a duplicate
///   for a file when the vehicle's day file holds one with the same `tst`, `lat` and `lon` among its last 8,192
///   positions (``WrittenPoints``); a trip when `trips.jsonl` holds one with the same start and end times.
/// - Messages the broker delivers with the retain flag are the broker's copy of a vehicle's last position, sent on
///   every new subscription: already written when it was live, so they are counted and skipped.
/// - With a share group the filter becomes `$share/<group>/<filter>`: the broker hands each message to one collector
///   of the group. Each collector needs its own output directory; a vehicle's points are then spread over them.
///
/// Runs on the calling thread (``run(until:)``); ``statistics`` may be read from any thread.
public final class FleetCollector: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var broker: BrokerURL
        /// The topic filter: `owntracks/#` by default.
        public var topicFilter = "owntracks/#"
        /// A shared-subscription group (`$share/<group>/…`), to split the load between collectors.
        public var shareGroup: String?
        /// Where the files go; `nil` for none.
        public var outputDirectory: String?
        /// A libpq URL or connection string (`postgresql://fleet@db.example/fleet`); `nil` for no database.
        public var database: String?
        /// By default `nmea-collect-<host>-<hash of the output directory, database and share group>`: stable
        /// across restarts, so the broker keeps the session.
        public var clientID: String?
        public var tlsCAFile: String?
        /// A longer gap between two points of a vehicle starts a new track segment.
        public var splitGapSeconds = 600.0
        /// `fdatasync` every file written before the messages are acknowledged, so that a power cut loses nothing
        /// acknowledged either (on file systems that write data before the metadata pointing to it; see
        /// `DocumentFile`). Without it, what is acknowledged is in the kernel's page cache: safe from a crash of the
        /// collector, not of the machine.
        public var syncFiles = false
        /// Points per GeoJSON line feature (the open one is rewritten on each flush).
        public var pointsPerFeature = 100
        public var reconnectDelayMinimum = 1.0
        public var reconnectDelayMaximum = 30.0

        public init(broker: BrokerURL, outputDirectory: String? = nil, database: String? = nil) {
            self.broker = broker
            self.outputDirectory = outputDirectory
            self.database = database
        }

        /// The filter actually subscribed to.
        public var subscription: String {
            if let shareGroup { return "$share/\(shareGroup)/\(topicFilter)" }
            return topicFilter
        }
    }

    /// What the collector has done.
    public struct Statistics: Sendable, Hashable {
        /// Messages received.
        public var messages = 0
        /// Locations written to the tracks.
        public var locations = 0
        /// Trips written to the trips files.
        public var trips = 0
        /// Duplicate locations and trips, not written again.
        public var duplicates = 0
        /// Retained copies of last positions, skipped.
        public var retained = 0
        /// Messages of other OwnTracks types (`lwt`, `transition`, …).
        public var otherTypes = 0
        /// Messages that were not valid JSON or lacked required fields.
        public var invalid = 0
        /// Files that could not be written.
        public var writeErrors = 0
        /// Vehicles seen.
        public var vehicles = 0
        /// Positions and trips stored in the database.
        public var storedPositions = 0
        public var storedTrips = 0
        /// Positions and trips the database already had.
        public var storedBefore = 0
        /// Transactions committed.
        public var commits = 0
        /// Geofence events recorded.
        public var events = 0
        /// Seconds spent waiting for the database (storing batches).
        public var databaseSeconds = 0.0
        /// The last problem with a message or a file.
        public var lastProblem: String?
        public init() {}
    }

    public let configuration: Configuration
    public let clientID: String
    private let connection: MQTTConnection
    private let shared = Locked(Statistics())
    private var vehicles: [String: VehicleFiles] = [:]
    private var vehicleNames: Set<String> = []
    private let database: DatabaseWriter?
    private var lockFD: FileDescriptor?
    private var trackOptions: TrackOptions
    /// Set when a message of the read in hand could not be written for a reason that may pass: the read is then not
    /// acknowledged.
    private var writeFailed = false
    /// Called on the collector's thread with each problem worth telling the user (a file that cannot be written).
    public var onProblem: (@Sendable (String) -> Void)?
    /// Called on the collector's thread with the geofence events each commit recorded (must not block).
    public var onEvents: (@Sendable ([FenceEvent]) -> Void)?

    /// Prepares the output directory (created when missing, locked against a second collector) and the client.
    /// - Throws: ``FleetError`` for an unusable directory, filter or TLS setting.
    public init(_ configuration: Configuration) throws(FleetError) {
        self.configuration = configuration
        trackOptions = TrackOptions(
            splitGapSeconds: configuration.splitGapSeconds,
            flush: .batch(bytes: 256 * 1024), sync: configuration.syncFiles)
        try Self.check(configuration)
        if let directory = configuration.outputDirectory {
            lockFD = try Self.lock(directory)
        }
        if let target = configuration.database {
            do {
                database = try DatabaseWriter(
                    target: target,
                    reconnectDelayMinimum: configuration.reconnectDelayMinimum,
                    reconnectDelayMaximum: configuration.reconnectDelayMaximum)
            } catch {
                try? lockFD?.close()
                throw FleetError("cannot use the database: \(error.message)")
            }
        } else {
            database = nil
        }
        clientID =
            configuration.clientID
            ?? Self.defaultClientID(
                directory: configuration.outputDirectory, database: configuration.database,
                shareGroup: configuration.shareGroup)
        do throws(FleetError) {
            connection = try MQTTConnection(settings: Self.connectionSettings(configuration, clientID: clientID))
        } catch {
            try? lockFD?.close()
            lockFD = nil
            throw error
        }
        Self.raiseDescriptorLimit()
        wireConnection()
    }

    /// Refuses a configuration that cannot work: a bad share group or topic filter, or nowhere to store.
    private static func check(_ configuration: Configuration) throws(FleetError) {
        if let group = configuration.shareGroup,
            group.isEmpty || group.contains("/") || group.contains("+") || group.contains("#")
        {
            throw FleetError("the share group '\(group)' must be a non-empty name without '/', '+' or '#'")
        }
        guard !configuration.topicFilter.isEmpty, !configuration.topicFilter.hasPrefix("$share/") else {
            throw FleetError("the topic filter must not be empty or start with '$share/' (use --share)")
        }
        guard configuration.outputDirectory != nil || configuration.database != nil else {
            throw FleetError("give an output directory, a database, or both")
        }
    }

    /// The MQTT client's settings: files and database alike, a message is acknowledged once it is stored.
    private static func connectionSettings(_ configuration: Configuration, clientID: String) -> ConnectionSettings {
        var settings = ConnectionSettings(broker: configuration.broker, clientID: clientID)
        settings.tlsCAFile = configuration.tlsCAFile
        settings.reconnectDelayMinimum = configuration.reconnectDelayMinimum
        settings.reconnectDelayMaximum = max(configuration.reconnectDelayMaximum, configuration.reconnectDelayMinimum)
        settings.acknowledgesAfterStoring = true
        return settings
    }

    /// The connection's callbacks: subscribe once connected, store what arrives, and (with a database) connect to
    /// the broker only while the database is there.
    private func wireConnection() {
        let subscription = configuration.subscription
        connection.onConnected = { [unowned self] in
            let rc = self.connection.subscribe(subscription, qos: 1)
            if rc != 0 { self.problem("cannot subscribe to '\(subscription)': \(MQTTConnection.errorString(rc))") }
        }
        connection.onMessage = { [unowned self] topic, payload, retained in
            self.handle(topic: topic, payload: payload, retained: retained)
        }
        connection.onTick = { [unowned self] in _ = self.database?.reconnectIfDue() }
        connection.onReceived = { [unowned self] in self.store() }
        if let database {
            connection.mayConnect = { database.isConnected }
            connection.onDisconnected = { database.discardStaged() }
        }
    }

    /// Creates `directory` when missing and locks it against a second collector.
    private static func lock(_ directory: String) throws(FleetError) -> FileDescriptor {
        do {
            try Directory.create(directory)
        } catch {
            throw FleetError(error.description)
        }
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open(
                directory + "/.nmea-collect.lock", .readWrite, options: [.create, .closeOnExec])
        } catch {
            throw FleetError("cannot write to '\(directory)': \(error)")
        }
        do {
            try lock.lockExclusively()
        } catch {
            try? lock.close()
            throw FleetError("another collector is writing to '\(directory)'; give each collector its own directory")
        }
        return lock
    }

    deinit {
        try? lockFD?.close()
    }

    /// `nmea-collect-<hostname>-<8 hex digits>` of the output directory's absolute path and, with a database, the
    /// database and the share group: two collectors of one group on one host need `clientID`s of their own.
    static func defaultClientID(directory: String?, database: String?, shareGroup: String?) -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        var identity = directory ?? ""
        if let directory, !directory.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            identity = String(cString: cwd) + "/" + directory
            free(cwd)
        }
        if let database { identity += "\u{0}" + database + "\u{0}" + (shareGroup ?? "") }
        var hash: UInt32 = 2_166_136_261
        for byte in identity.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        let hostName = String(
            String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .prefix(32))
        return "nmea-collect-\(hostName)-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A collector keeps three files open per vehicle: allow as many descriptors as the hard limit does.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max
        else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// A snapshot, from any thread.
    public var statistics: Statistics { shared.current }

    /// The connection's state, from any thread.
    public var connectionStatus: ConnectionStatus { connection.status }

    /// The database connection's state, from any thread (`nil` without a database).
    public var databaseStatus: ConnectionStatus? { database?.status }

    /// Collects on the calling thread until `shouldStop` returns `true` (checked at least 4 times a second), then
    /// finishes every file.
    /// - Throws: ``FleetError`` when files could not be finished.
    public func run(until shouldStop: () -> Bool) throws(FleetError) {
        connection.run(until: shouldStop)
        var failure: FleetError?
        for files in vehicles.values {
            do { try files.finish() } catch { failure = failure ?? FleetError(error.description) }
        }
        vehicles.removeAll()
        if let failure { throw failure }
    }

    /// Makes ``run(until:)`` check its condition now (from any thread).
    public func wakeUp() { connection.wakeUp() }

    // MARK: Messages

    private func handle(topic: String, payload: UnsafeRawBufferPointer, retained: Bool) {
        shared.withLock { $0.messages += 1 }
        // The vehicle is the topic without its first level; `…/trip` is its trip.
        guard let slash = topic.utf8.firstIndex(of: UInt8(ascii: "/")) else {
            count { $0.invalid += 1 }
            return
        }
        var rest = topic[topic.index(after: slash)...]
        if rest.hasSuffix("/trip") {
            rest.removeLast(5)
            handleTrip(vehicle: String(rest), payload: payload)
            return
        }
        let name = String(rest)
        let location: OwnTracksLocation
        do {
            location = try OwnTracksLocation(json: payload)
        } catch {
            if case .notALocation = error {
                count { $0.otherTypes += 1 }
            } else {
                invalid("'\(topic)': \(error)")
            }
            return
        }
        if retained {
            count { $0.retained += 1 }
            return
        }
        if let database {
            do {
                database.stage(try StoredPosition(vehicle: name, location: location))
            } catch {
                invalid("'\(topic)': \(error)")
                return
            }
            seen(name)
        }
        // After a failure that may pass, the rest of the read is left to come again with it.
        guard configuration.outputDirectory != nil, !writeFailed else { return }
        let vehicle = VehicleFiles.safePath(name.split(separator: "/", omittingEmptySubsequences: false))
        guard let files = vehicleFiles(vehicle) else { return }
        let day = UTCDate(containing: location.timestamp * 1_000_000_000).daysSinceEpoch
        do {
            if try files.write(location.fix, day: day) {
                count { $0.locations += 1 }
            } else {
                count { $0.duplicates += 1 }
            }
        } catch {
            failed(vehicle, error)
        }
    }

    private func handleTrip(vehicle name: String, payload: UnsafeRawBufferPointer) {
        let trip: TripSummary
        do {
            trip = try TripSummary(json: payload)
        } catch {
            invalid("a trip for '\(name)': \(error)")
            return
        }
        if let database {
            do {
                database.stage(try StoredTrip(vehicle: name, summary: trip))
            } catch {
                invalid("a trip for '\(name)': \(error)")
                return
            }
            seen(name)
        }
        guard configuration.outputDirectory != nil, !writeFailed else { return }
        let vehicle = VehicleFiles.safePath(name.split(separator: "/", omittingEmptySubsequences: false))
        guard let files = vehicleFiles(vehicle) else { return }
        // The payload as sent (fields a newer publisher adds are kept), on one line: raw line breaks can only be
        // whitespace between tokens in valid JSON, so they become spaces.
        let line = payload.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
        do {
            if try files.appendTrip(line, start: trip.start.timestamp, end: trip.end.timestamp) {
                count { $0.trips += 1 }
            } else {
                count { $0.duplicates += 1 }
            }
        } catch {
            failed(vehicle, error)
        }
    }

    /// Stores what the last read brought: flushes every file written to, then commits the database's transaction.
    /// `false` when something could not be stored: the messages stay unacknowledged, and the broker sends them again.
    private func store() -> Bool {
        var stored = !writeFailed
        writeFailed = false
        for (vehicle, files) in vehicles where files.isDirty {
            do { try files.flush() } catch {
                failed(vehicle, error)
                if error.isTemporary { stored = false }
            }
        }
        return commit() && stored
    }

    /// Stores what the last read staged; `false` when the database is gone (the messages stay unacknowledged).
    private func commit() -> Bool {
        guard let database, database.hasStaged else { return true }
        // Nil when the connection broke: ``databaseStatus`` says so, and the messages wait at the broker.
        let began = MonotonicTime.now().seconds
        defer {
            let spent = MonotonicTime.now().seconds - began
            count { $0.databaseSeconds += spent }
        }
        guard let committed = database.commit() else { return false }
        count {
            $0.storedPositions += committed.positions
            $0.storedTrips += committed.trips
            $0.storedBefore += committed.duplicates
            $0.commits += 1
            $0.invalid += committed.refused.count
            $0.events += committed.events.count
            if let last = committed.refused.last { $0.lastProblem = "refused by the database: \(last)" }
        }
        if !committed.events.isEmpty { onEvents?(committed.events) }
        return true
    }

    private func seen(_ vehicle: String) {
        guard configuration.outputDirectory == nil, vehicleNames.insert(vehicle).inserted else { return }
        count { $0.vehicles += 1 }
    }

    /// The files of `vehicle`, prepared when it is new (or was given up after a failure).
    private func vehicleFiles(_ vehicle: String) -> VehicleFiles? {
        if let files = vehicles[vehicle] { return files }
        do {
            let files = try VehicleFiles(
                vehicle: vehicle, root: configuration.outputDirectory ?? ".",
                trackOptions: trackOptions,
                pointsPerFeature: configuration.pointsPerFeature)
            vehicles[vehicle] = files
            if vehicleNames.insert(vehicle).inserted { count { $0.vehicles += 1 } }
            return files
        } catch {
            failed(vehicle, error)
            return nil
        }
    }

    /// A vehicle's files failed: they are given up (closed as their last flush left them; the next message opens
    /// them again, reading back what they hold), and a failure that may pass keeps the read unacknowledged.
    private func failed(_ vehicle: String, _ error: VehicleFiles.Failure) {
        vehicles[vehicle] = nil
        if error.isTemporary { writeFailed = true }
        problem(
            error.description
                + (error.isTemporary ? "; the messages wait at the broker" : "; the vehicle's message is skipped"))
    }

    private func count(_ update: (inout Statistics) -> Void) {
        shared.withLock(update)
    }

    private func invalid(_ message: String) {
        count {
            $0.invalid += 1
            $0.lastProblem = message
        }
    }

    private func problem(_ message: String) {
        count {
            $0.writeErrors += 1
            $0.lastProblem = message
        }
        onProblem?(message)
    }
}
