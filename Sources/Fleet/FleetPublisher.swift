import Glibc
import NMEA
import System
import Threading

/// Publishes a vehicle's positions and trips to an MQTT broker as OwnTracks messages, through a disk-backed queue so
/// that nothing is lost while the broker is out of reach — the consumer `nmea record --mqtt` feeds.
///
///     let publisher = try FleetPublisher(FleetPublisher.Configuration(
///         broker: try BrokerURL(parsing: "mqtt://fleet:secret@broker.example"), topic: "owntracks/acme/van7"))
///     publisher.publish(fix)          // from the consumer thread, for every fix; returns at once
///     publisher.publish(trip)         // when the trip detector finishes a trip
///     status(publisher.counters.summary)
///     publisher.close()
///
/// **Threads.** ``publish(_:)-(Fix)`` and ``publish(_:)-(TripSummary)`` run on the caller's thread and never wait
/// for the network: they rate-limit, encode, append to the queue (one `write(2)` to a local file, under a lock the
/// network thread holds only for in-memory bookkeeping and page-cache reads) and wake the network thread. The
/// network thread (one per publisher) connects, reconnects with backoff, sends queued messages in order with QoS 1
/// (at most ``Configuration/maximumInflight`` unacknowledged at once), removes each from the queue when its PUBACK
/// arrives, and syncs the queue to disk in batches. ``counters`` may be read from any thread.
///
/// **Delivery.** At least once, in order: a message leaves the queue only when the broker has acknowledged it. After
/// a network cut, libmosquitto resends the messages in flight and the rest follow from the queue; after a restart of
/// the process, everything unacknowledged is sent again from the queue (a few may arrive twice; the collector writes
/// them once). Positions are published retained, so a subscriber that arrives late gets the last position at once;
/// trips are not.
public final class FleetPublisher: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var broker: BrokerURL
        /// Where positions go (`owntracks/<user>/<device>`); trips go to `<topic>/trip`.
        public var topic: String
        /// The MQTT client ID; by default `nmea-` and the topic's last two levels.
        public var clientID: String?
        /// OwnTracks `tid`; by default the last two characters of the topic, as the OwnTracks apps do.
        public var trackerID: String?
        /// A PEM CA file to verify the broker's certificate; enables TLS.
        public var tlsCAFile: String?
        /// The queue directory; by default `$XDG_STATE_HOME/nmea/mqtt-queue` (`~/.local/state/nmea/mqtt-queue`).
        public var queueDirectory: String?
        public var queue = DiskQueue.Options()
        /// Which positions to publish; `PublishRateLimiter(intervalSeconds: 0, minimumMoveMeters: 0)` for all.
        public var rateLimit = PublishRateLimiter()
        /// Publish positions with the retain flag (the broker keeps the last one for late subscribers).
        public var retainLastPosition = true
        /// How often the network thread syncs the queue to disk (fdatasync), seconds.
        public var syncIntervalSeconds = 1.0
        public var reconnectDelayMinimum = 1.0
        public var reconnectDelayMaximum = 30.0
        public var connectTimeoutSeconds = 15.0
        public var keepaliveSeconds = 30
        /// Messages sent and not yet acknowledged, at most.
        public var maximumInflight = 100

        public init(broker: BrokerURL, topic: String) {
            self.broker = broker
            self.topic = topic
        }

        /// The client ID used: ``clientID`` or one made from the topic.
        public var effectiveClientID: String {
            if let clientID { return clientID }
            let levels = topic.split(separator: "/").suffix(2).joined(separator: "-")
            return String(("nmea-" + levels).prefix(64))
        }

        /// The tracker ID used: ``trackerID`` or the topic's last two characters.
        public var effectiveTrackerID: String {
            if let trackerID { return trackerID }
            let last = topic.split(separator: "/").last.map(String.init) ?? topic
            return String(last.suffix(2))
        }

        /// The queue directory used.
        public func effectiveQueueDirectory() throws(FleetError) -> String {
            if let queueDirectory { return queueDirectory }
            return try FleetPublisher.defaultQueueDirectory()
        }
    }

    /// What became of one message handed to the publisher.
    public enum Outcome: Sendable, Hashable {
        /// In the queue, with this sequence number.
        case queued(UInt64)
        /// Not published: the rate limit (too soon or too close to the last published position).
        case rateLimited
        /// Not published: no position, no date and time, or a provisional fix.
        case noPosition
        /// Could not be queued (the message says why); counted in ``PublisherCounters/dropped``.
        case failed(String)
    }

    public let configuration: Configuration
    /// The queue directory in use.
    public var queueDirectory: String { engine.queueDirectory }
    private let engine: PublisherEngine

    /// Opens the queue (resuming what an earlier run left) and starts the network thread; does not wait for the
    /// broker.
    /// - Throws: ``FleetError`` for an invalid topic or TLS settings, or a queue directory that cannot be used
    ///   (another process has it, no permission).
    public init(_ configuration: Configuration) throws(FleetError) {
        self.configuration = configuration
        engine = try PublisherEngine(configuration)
    }

    /// Closes the publisher if ``close()`` was not called.
    deinit {
        engine.close()
    }

    /// `$XDG_STATE_HOME/nmea/mqtt-queue`, or `$HOME/.local/state/nmea/mqtt-queue`.
    public static func defaultQueueDirectory() throws(FleetError) -> String {
        guard let state = StandardDirectories.state else {
            throw FleetError("no queue directory: set XDG_STATE_HOME or HOME, or give one")
        }
        return state + "/mqtt-queue"
    }

    /// `true` for a topic one can publish to: not empty, no wildcards, no NUL.
    public static func isValidTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 65535 && !topic.contains("+") && !topic.contains("#")
            && !topic.utf8.contains(0)
    }

    /// Publishes `fix` if the rate limit lets it through: an OwnTracks `location`, retained. Returns at once.
    @discardableResult
    public func publish(_ fix: Fix) -> Outcome { engine.publish(fix) }

    /// Publishes a finished trip to `<topic>/trip` (not retained). Returns at once.
    @discardableResult
    public func publish(_ trip: TripSummary) -> Outcome { engine.publish(trip) }

    /// Queues any message for any topic, bypassing the rate limit: for simulations of many vehicles and for
    /// messages of other kinds. Returns at once.
    @discardableResult
    public func enqueue(topic: String, payload: [UInt8], retain: Bool) -> Outcome {
        engine.enqueue(topic: topic, payload: payload, retain: retain)
    }

    /// A snapshot of the counters and the connection's state, from any thread.
    public var counters: PublisherCounters { engine.counters }

    /// Blocks the calling thread until the queue is empty (everything acknowledged) or `timeout` seconds passed.
    /// For tools that publish a file and exit; a live consumer never calls it.
    /// - Returns: `true` when everything was acknowledged.
    public func waitUntilDelivered(timeout: Double) -> Bool { engine.waitUntilDelivered(timeout: timeout) }

    /// Stops the network thread (after disconnecting cleanly) and syncs and closes the queue. What was not
    /// acknowledged stays in the queue for the next run. Returns within about a quarter of a second plus one sync.
    /// Called by `deinit` when forgotten.
    public func close() { engine.close() }
}

/// The publisher's machinery, kept alive by its network thread until ``close()``, so that a ``FleetPublisher``
/// released without ``FleetPublisher/close()`` still shuts down cleanly.
final class PublisherEngine: @unchecked Sendable {
    typealias Configuration = FleetPublisher.Configuration
    typealias Outcome = FleetPublisher.Outcome

    let configuration: Configuration
    let queueDirectory: String
    private let queue: DiskQueue
    private let lock = Lock()
    private var guardedCounters = PublisherCounters()
    private var limiter: PublishRateLimiter
    private let connection: MQTTConnection
    private let positionTopic: String
    private let tripTopic: String
    private let trackerID: String
    private var stopping = false
    private var thread: NativeThread?

    // Network thread only.
    private var inflight: [Int32: UInt64] = [:]
    private var lastSync = 0.0
    /// When the oldest message in flight was sent or the last acknowledgement came.
    private var lastProgress = 0.0

    init(_ configuration: Configuration) throws(FleetError) {
        self.configuration = configuration
        guard FleetPublisher.isValidTopic(configuration.topic) else {
            throw FleetError("'\(configuration.topic)' is not a topic to publish to (no '+' or '#', not empty)")
        }
        positionTopic = configuration.topic
        tripTopic = configuration.topic + "/trip"
        trackerID = configuration.effectiveTrackerID
        limiter = configuration.rateLimit
        queueDirectory = try configuration.effectiveQueueDirectory()
        do {
            queue = try DiskQueue(directory: queueDirectory, options: configuration.queue)
        } catch {
            throw FleetError(error.description)
        }
        var settings = ConnectionSettings(broker: configuration.broker, clientID: configuration.effectiveClientID)
        settings.tlsCAFile = configuration.tlsCAFile
        settings.reconnectDelayMinimum = configuration.reconnectDelayMinimum
        settings.reconnectDelayMaximum = max(configuration.reconnectDelayMaximum, configuration.reconnectDelayMinimum)
        settings.connectTimeoutSeconds = configuration.connectTimeoutSeconds
        settings.keepaliveSeconds = configuration.keepaliveSeconds
        settings.maximumInflight = configuration.maximumInflight
        do throws(FleetError) {
            connection = try MQTTConnection(settings: settings)
        } catch {
            queue.close()
            throw error
        }
        guardedCounters.recovered = queue.statistics.recovered
        guardedCounters.pending = queue.statistics.pending
        connection.onTick = { [unowned self] in self.tick() }
        connection.onPublished = { [unowned self] mid in self.acknowledged(mid) }
        connection.onDisconnected = { [unowned self] in self.disconnected() }
        // The thread holds the engine (strongly) until it ends.
        thread = NativeThread(name: "nmea-mqtt") { [self] in
            connection.run { lock.withLock { stopping } }
        }
    }

    // MARK: Feeding (the caller's thread)

    /// Publishes `fix` if the rate limit lets it through: an OwnTracks `location`, retained. Returns at once.
    @discardableResult
    func publish(_ fix: Fix) -> Outcome {
        guard let location = OwnTracksLocation(fix, trackerID: trackerID), let nanoseconds = fix.timestamp else {
            lock.withLock {
                guardedCounters.fixes += 1
                guardedCounters.withoutPosition += 1
            }
            return .noPosition
        }
        let decision = lock.withLock {
            guardedCounters.fixes += 1
            let decision = limiter.decide(
                timestamp: nanoseconds, latitude: location.latitude,
                longitude: location.longitude)
            if decision != .publish { guardedCounters.rateLimited += 1 }
            return decision
        }
        guard decision == .publish else { return .rateLimited }
        return enqueue(topic: positionTopic, payload: location.json, retain: configuration.retainLastPosition)
    }

    /// Publishes a finished trip to `<topic>/trip` (not retained). Returns at once.
    @discardableResult
    func publish(_ trip: TripSummary) -> Outcome {
        let outcome = enqueue(topic: tripTopic, payload: trip.json, retain: false)
        if case .queued = outcome { lock.withLock { guardedCounters.trips += 1 } }
        return outcome
    }

    /// Queues any message for any topic, bypassing the rate limit: for simulations of many vehicles and for
    /// messages of other kinds. Returns at once.
    @discardableResult
    func enqueue(topic: String, payload: [UInt8], retain: Bool) -> Outcome {
        guard FleetPublisher.isValidTopic(topic) else { return .failed("'\(topic)' is not a topic to publish to") }
        let outcome: Outcome = lock.withLock {
            guard !stopping else { return .failed("the publisher is closed") }
            let droppedBefore = queue.statistics.dropped
            do throws(QueueError) {
                let sequence = try queue.append(topic: topic, payload: payload, retain: retain)
                guardedCounters.queued += 1
                let newlyDropped = queue.statistics.dropped - droppedBefore
                if newlyDropped > 0 {
                    guardedCounters.dropped += newlyDropped
                    guardedCounters.lastQueueProblem =
                        "the queue is full (\(queue.options.maximumBytes / 1024) KiB): "
                        + "dropped the oldest \(newlyDropped) messages"
                }
                guardedCounters.pending = queue.statistics.pending
                return .queued(sequence)
            } catch {
                guardedCounters.dropped += 1
                guardedCounters.lastQueueProblem = error.description
                return .failed(error.description)
            }
        }
        if case .queued = outcome { connection.wakeUp() }
        return outcome
    }

    // MARK: Reading

    /// A snapshot of the counters and the connection's state.
    var counters: PublisherCounters {
        var snapshot = lock.withLock { guardedCounters }
        let status = connection.status
        snapshot.state = status.state
        snapshot.lastError = status.lastError
        snapshot.connections = status.connections
        snapshot.failures = status.failures
        return snapshot
    }

    /// Blocks the calling thread until the queue is empty (everything acknowledged) or `timeout` seconds passed.
    /// For tools that publish a file and exit; a live consumer never calls it.
    /// - Returns: `true` when everything was acknowledged.
    func waitUntilDelivered(timeout: Double) -> Bool {
        let deadline = MonotonicTime.now().seconds + timeout
        while true {
            if lock.withLock({ queue.statistics.pending == 0 }) { return true }
            if MonotonicTime.now().seconds >= deadline { return false }
            usleep(10_000)
        }
    }

    /// Stops the network thread (after disconnecting cleanly) and syncs and closes the queue. What was not
    /// acknowledged stays in the queue for the next run. Returns within about a quarter of a second plus one sync.
    func close() {
        let alreadyStopping = lock.withLock {
            let was = stopping
            stopping = true
            return was
        }
        connection.wakeUp()
        thread?.join()
        thread = nil
        if !alreadyStopping {
            lock.withLock { queue.close() }
        }
    }

    // MARK: The network thread

    private func tick() {
        let now = MonotonicTime.now().seconds
        if connection.state == .connected {
            if !inflight.isEmpty && now - lastProgress > stallSeconds {
                // Connected, yet nothing acknowledged for this long: assume the messages in flight are lost (a
                // broker that forgot them) and send everything unacknowledged again; the collector drops doubles.
                inflight.removeAll()
                lock.withLock {
                    queue.rewind()
                    guardedCounters.lastQueueProblem = "no acknowledgement for \(Int(stallSeconds)) s: sending again"
                }
            }
            if inflight.isEmpty { lastProgress = now }
            pump()
        }
        if now - lastSync >= configuration.syncIntervalSeconds {
            lastSync = now
            let work = lock.withLock { queue.takeSyncWork() }
            do throws(QueueError) {
                try work.perform()
            } catch {
                lock.withLock { guardedCounters.lastQueueProblem = error.description }
            }
        }
    }

    /// Sends queued messages while the window allows.
    private func pump() {
        while inflight.count < configuration.maximumInflight {
            let entries = lock.withLock { queue.next(limit: min(64, configuration.maximumInflight - inflight.count)) }
            guard !entries.isEmpty else { return }
            for (index, entry) in entries.enumerated() {
                let (rc, mid) = connection.publish(
                    topic: entry.topic, payload: entry.payload, qos: 1,
                    retain: entry.retain)
                if rc == 0 {
                    inflight[mid] = entry.sequence
                    lock.withLock { guardedCounters.sent += 1 }
                    continue
                }
                // MOSQ_ERR_NO_CONN (4), MOSQ_ERR_NOMEM (1), MOSQ_ERR_CONN_LOST (7).
                if rc == 4 || rc == 1 || rc == 7 {
                    // Try this one and the rest again later.
                    lock.withLock { queue.seek(to: entries[index].sequence) }
                    return
                }
                // The broker could never take this message (too large, a bad topic): drop it rather than block the
                // queue behind it.
                lock.withLock {
                    queue.acknowledge(entry.sequence)
                    guardedCounters.dropped += 1
                    guardedCounters.lastQueueProblem =
                        "dropped a message for '\(entry.topic)': "
                        + MQTTConnection.errorString(rc)
                    guardedCounters.pending = queue.statistics.pending
                }
            }
        }
    }

    private var stallSeconds: Double { max(60, 2 * Double(configuration.keepaliveSeconds)) }

    private func acknowledged(_ mid: Int32) {
        guard let sequence = inflight.removeValue(forKey: mid) else { return }
        lastProgress = MonotonicTime.now().seconds
        lock.withLock {
            queue.acknowledge(sequence)
            guardedCounters.acknowledged += 1
            guardedCounters.pending = queue.statistics.pending
        }
    }

    private func disconnected() {
        // libmosquitto keeps the messages in flight and sends them again after reconnecting (clean session off), so
        // the message IDs stay valid; nothing to do.
    }
}

/// What a ``FleetPublisher`` has done, for status lines and tests.
public struct PublisherCounters: Sendable, Hashable {
    /// Fixes given to ``FleetPublisher/publish(_:)-(Fix)``.
    public var fixes = 0
    /// Of those, without a position or time (not published).
    public var withoutPosition = 0
    /// Of those, held back by the rate limit.
    public var rateLimited = 0
    /// Trips queued.
    public var trips = 0
    /// Messages appended to the queue by this process.
    public var queued = 0
    /// Messages in the queue now, waiting for the broker's acknowledgement (including earlier runs').
    public var pending = 0
    /// Messages found in the queue at start (left by an earlier run).
    public var recovered = 0
    /// PUBLISH packets handed to the connection (resends after a restart count again).
    public var sent = 0
    /// Messages the broker acknowledged (PUBACK) and the queue removed.
    public var acknowledged = 0
    /// Messages lost: dropped from a full queue (oldest first), or that could not be written to it.
    public var dropped = 0
    public var state: ConnectionState = .disconnected
    /// The connection's last error (`cannot connect to mqtt://…: Connection refused`), if any.
    public var lastError: String?
    /// The queue's last problem (full, disk error), if any.
    public var lastQueueProblem: String?
    public var connections = 0
    public var failures = 0
    public init() {}

    /// One line for a status display: `mqtt connected · queue 0 · sent 120 · acked 120 · dropped 0`, with the last
    /// error while not connected.
    public var summary: String {
        var text =
            "mqtt \(state.rawValue) · queue \(pending) · sent \(sent) · acked \(acknowledged)"
            + " · dropped \(dropped)"
        if state != .connected, let lastError { text += " · \(lastError)" }
        return text
    }
}
