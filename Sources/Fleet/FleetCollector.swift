import Glibc
import NMEA
import System
import Threading
import Tracks

/// The other side of the fleet: subscribes to the vehicles' topics and writes, per vehicle, a daily GPX and GeoJSON
/// track and a trips JSON Lines file (see ``VehicleFiles`` for the layout).
///
/// - Vehicles are named by their topic without its first level: `owntracks/acme/van7` → `acme/van7`; a message on
///   `…/trip` is that vehicle's trip. Other OwnTracks messages (`lwt`, `transition`, `card`, …) are counted and
///   left alone.
/// - QoS 1, clean session off and a stable client ID: the broker keeps what arrives while the collector is away
///   (up to its `max_queued_messages`, 1000 by default in Mosquitto — raise it for collectors that may be down for
///   long).
/// - Duplicates (QoS 1 resends, a publisher resending after a restart) are written once: a location is a duplicate
///   when the vehicle already sent one with the same `tst`, `lat` and `lon` among its last 4096; a trip when one with
///   the same start and end times was written in this run.
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
        public var outputDirectory: String
        /// By default `nmea-collect-<host>-<hash of the output directory>`: stable across restarts, so the broker
        /// keeps the session.
        public var clientID: String?
        public var tlsCAFile: String?
        /// A longer gap between two points of a vehicle starts a new track segment.
        public var splitGapSeconds = 600.0
        /// How often written points are flushed to the files, seconds.
        public var flushIntervalSeconds = 1.0
        /// Points per GeoJSON line feature (the open one is rewritten on each flush).
        public var pointsPerFeature = 100
        public var reconnectDelayMinimum = 1.0
        public var reconnectDelayMaximum = 30.0

        public init(broker: BrokerURL, outputDirectory: String) {
            self.broker = broker
            self.outputDirectory = outputDirectory
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
        /// The last problem with a message or a file.
        public var lastProblem: String?
        public init() {}
    }

    public let configuration: Configuration
    public let clientID: String
    private let connection: MQTTConnection
    private let shared = Locked(Statistics())
    private var vehicles: [String: VehicleState] = [:]
    private var lockFD: FileDescriptor?
    private var lastFlush = 0.0
    private var trackOptions: TrackOptions
    /// Called on the collector's thread with each problem worth telling the user (a file that cannot be written).
    public var onProblem: (@Sendable (String) -> Void)?

    private final class VehicleState {
        let files: VehicleFiles
        var recent: Set<LocationKey> = []
        var order: [LocationKey] = []
        var orderStart = 0
        var trips: Set<TripKey> = []
        init(files: VehicleFiles) { self.files = files }

        /// `true` when `key` is new (and remembers it among the last 4096).
        func remember(_ key: LocationKey) -> Bool {
            guard recent.insert(key).inserted else { return false }
            if order.count < 4096 {
                order.append(key)
            } else {
                recent.remove(order[orderStart])
                order[orderStart] = key
                orderStart = (orderStart + 1) % order.count
            }
            return true
        }
    }

    private struct LocationKey: Hashable {
        var tst: Int64
        var latitude: Double
        var longitude: Double
    }

    private struct TripKey: Hashable {
        var start: Int64
        var end: Int64
    }

    /// Prepares the output directory (created when missing, locked against a second collector) and the client.
    /// - Throws: ``FleetError`` for an unusable directory, filter or TLS setting.
    public init(_ configuration: Configuration) throws(FleetError) {
        self.configuration = configuration
        trackOptions = TrackOptions(
            splitGapSeconds: configuration.splitGapSeconds,
            flush: .batch(bytes: 256 * 1024))
        if let group = configuration.shareGroup,
            group.isEmpty || group.contains("/") || group.contains("+") || group.contains("#")
        {
            throw FleetError("the share group '\(group)' must be a non-empty name without '/', '+' or '#'")
        }
        guard !configuration.topicFilter.isEmpty, !configuration.topicFilter.hasPrefix("$share/") else {
            throw FleetError("the topic filter must not be empty or start with '$share/' (use --share)")
        }
        let directory = configuration.outputDirectory
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
        lockFD = lock
        clientID = configuration.clientID ?? Self.defaultClientID(directory: directory)
        var settings = ConnectionSettings(broker: configuration.broker, clientID: clientID)
        settings.tlsCAFile = configuration.tlsCAFile
        settings.reconnectDelayMinimum = configuration.reconnectDelayMinimum
        settings.reconnectDelayMaximum = max(configuration.reconnectDelayMaximum, configuration.reconnectDelayMinimum)
        do throws(FleetError) {
            connection = try MQTTConnection(settings: settings)
        } catch {
            try? lock.close()
            lockFD = nil
            throw error
        }
        Self.raiseDescriptorLimit()
        let subscription = configuration.subscription
        connection.onConnected = { [unowned self] in
            let rc = self.connection.subscribe(subscription, qos: 1)
            if rc != 0 { self.problem("cannot subscribe to '\(subscription)': \(MQTTConnection.errorString(rc))") }
        }
        connection.onMessage = { [unowned self] topic, payload, retained in
            self.handle(topic: topic, payload: payload, retained: retained)
        }
        connection.onTick = { [unowned self] in self.tick() }
    }

    deinit {
        try? lockFD?.close()
    }

    /// `nmea-collect-<hostname>-<8 hex digits of the directory's absolute path>`.
    static func defaultClientID(directory: String) -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        var absolute = directory
        if !directory.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = String(cString: cwd) + "/" + directory
            free(cwd)
        }
        var hash: UInt32 = 2_166_136_261
        for byte in absolute.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        let hostName = String(
            String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .prefix(32))
        return "nmea-collect-\(hostName)-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A collector keeps two files open per vehicle: allow as many descriptors as the hard limit does.
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

    /// Collects on the calling thread until `shouldStop` returns `true` (checked at least 4 times a second), then
    /// finishes every file.
    /// - Throws: ``FleetError`` when files could not be finished.
    public func run(until shouldStop: () -> Bool) throws(FleetError) {
        connection.run(until: shouldStop)
        var failure: FleetError?
        for state in vehicles.values {
            do { try state.files.finish() } catch { failure = failure ?? error }
        }
        vehicles.removeAll()
        if let failure { throw failure }
    }

    /// Makes ``run(until:)`` check its condition now (from any thread).
    public func wakeUp() { connection.wakeUp() }

    // MARK: Messages

    private func handle(topic: String, payload: UnsafeRawBufferPointer, retained: Bool) {
        shared.withLock { $0.messages += 1 }
        var levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 2 else {
            count { $0.invalid += 1 }
            return
        }
        let isTrip = levels.last == "trip" && levels.count >= 3
        if isTrip { levels.removeLast() }
        let vehicle = VehicleFiles.safePath(levels.dropFirst())
        if isTrip {
            handleTrip(vehicle: vehicle, payload: payload)
            return
        }
        let location: OwnTracksLocation
        do {
            location = try OwnTracksLocation(json: payload)
        } catch {
            if case .notALocation = error {
                count { $0.otherTypes += 1 }
            } else {
                count {
                    $0.invalid += 1
                    $0.lastProblem = "'\(topic)': \(error)"
                }
            }
            return
        }
        if retained {
            count { $0.retained += 1 }
            return
        }
        guard let state = vehicleState(vehicle) else { return }
        guard
            state.remember(
                LocationKey(
                    tst: location.timestamp, latitude: location.latitude,
                    longitude: location.longitude))
        else {
            count { $0.duplicates += 1 }
            return
        }
        let day = Int((location.timestamp >= 0 ? location.timestamp : location.timestamp - 86_399) / 86_400)
        do {
            try state.files.write(location.fix, day: day)
            count { $0.locations += 1 }
        } catch {
            problem(error.description)
        }
    }

    private func handleTrip(vehicle: String, payload: UnsafeRawBufferPointer) {
        let trip: TripSummary
        do {
            trip = try TripSummary(json: payload)
        } catch {
            count {
                $0.invalid += 1
                $0.lastProblem = "a trip for '\(vehicle)': \(error)"
            }
            return
        }
        guard let state = vehicleState(vehicle) else { return }
        guard state.trips.insert(TripKey(start: trip.start.timestamp, end: trip.end.timestamp)).inserted else {
            count { $0.duplicates += 1 }
            return
        }
        // The payload as sent (fields a newer publisher adds are kept), on one line: raw line breaks can only be
        // whitespace between tokens in valid JSON, so they become spaces.
        let line = payload.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
        do {
            try state.files.appendTrip(line)
            count { $0.trips += 1 }
        } catch {
            problem(error.description)
        }
    }

    private func vehicleState(_ vehicle: String) -> VehicleState? {
        if let state = vehicles[vehicle] { return state }
        do {
            let files = try VehicleFiles(
                vehicle: vehicle, root: configuration.outputDirectory,
                trackOptions: trackOptions,
                pointsPerFeature: configuration.pointsPerFeature)
            let state = VehicleState(files: files)
            vehicles[vehicle] = state
            count { $0.vehicles += 1 }
            return state
        } catch {
            problem(error.description)
            return nil
        }
    }

    private func tick() {
        let now = MonotonicTime.now().seconds
        guard now - lastFlush >= configuration.flushIntervalSeconds else { return }
        lastFlush = now
        for state in vehicles.values {
            do { try state.files.flush() } catch { problem(error.description) }
        }
    }

    private func count(_ update: (inout Statistics) -> Void) {
        shared.withLock(update)
    }

    private func problem(_ message: String) {
        count {
            $0.writeErrors += 1
            $0.lastProblem = message
        }
        onProblem?(message)
    }
}
