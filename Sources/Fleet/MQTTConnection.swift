import CMosquitto
import Glibc
import System
import Threading

/// Whether a client is talking to its broker.
public enum ConnectionState: String, Sendable, Hashable {
    /// Not connected; the next attempt is scheduled (see ``ConnectionStatus/lastError`` for why).
    case disconnected
    /// TCP (and TLS) connection or MQTT CONNECT under way.
    case connecting
    /// CONNACK received: messages flow.
    case connected
}

/// What another thread may read about a connection.
public struct ConnectionStatus: Sendable, Hashable {
    public var state: ConnectionState = .disconnected
    /// The last thing that went wrong (`cannot connect to mqtt://…: Connection refused`), kept after a later
    /// success so a status line can show what happened; `nil` until something fails.
    public var lastError: String?
    /// Successful connections (CONNACK accepted).
    public var connections = 0
    /// Connections lost or refused, and attempts that failed.
    public var failures = 0
    public init() {}
}

/// How to reach and log in to a broker.
public struct ConnectionSettings: Sendable, Hashable {
    public var broker: BrokerURL
    /// The MQTT client ID; with clean session off, the broker keeps this client's session under it.
    public var clientID: String
    /// `false` (the default): the broker keeps the session (subscriptions, unacknowledged QoS 1 messages) while
    /// the client is away.
    public var cleanSession = false
    public var keepaliveSeconds = 30
    /// A PEM file of CA certificates to verify the broker with; enables TLS even for `mqtt://` URLs.
    public var tlsCAFile: String?
    /// The first wait before reconnecting, seconds; doubled after each failure up to ``reconnectDelayMaximum``.
    public var reconnectDelayMinimum = 1.0
    public var reconnectDelayMaximum = 30.0
    /// An attempt that has not reached CONNACK by then is abandoned.
    public var connectTimeoutSeconds = 15.0
    /// QoS 1 messages libmosquitto keeps in flight at once.
    public var maximumInflight = 100
    /// Received QoS 1 messages are acknowledged only once the owner has stored them (see
    /// ``MQTTConnection/onReceived``), instead of on receipt.
    public var acknowledgesAfterStoring = false
    /// With ``acknowledgesAfterStoring``: messages read at most before the owner stores them.
    public var batchLimit = 5000

    public init(broker: BrokerURL, clientID: String) {
        self.broker = broker
        self.clientID = clientID
    }
}

/// One MQTT client over libmosquitto, driven by the thread that calls ``run(until:)``: connection, reconnection with
/// exponential backoff, keepalive, and every callback happen on that thread, so the owner needs no locks around
/// message IDs. Other threads only read ``status`` and call ``wakeUp()``.
///
/// Why not `mosquitto_loop_start`: its thread runs `mosquitto_loop_forever`, which returns for good after some
/// errors (a TLS failure, a DNS failure in the middle of a session), after which nothing would ever reconnect; and
/// it cannot wait on our own wake-up descriptor. This loop polls the client's socket (`mosquitto_socket`,
/// `mosquitto_loop_read`/`_write`/`_misc`, the API libmosquitto offers for external event loops) together with an
/// `eventfd`, so a new message is sent at once and errors of every kind lead to the next attempt.
final class MQTTConnection {
    let settings: ConnectionSettings
    private let client: OpaquePointer
    private let wake = WakeUp()
    private let sharedStatus = Locked(ConnectionStatus())
    /// The state as the loop thread sees it.
    private(set) var state: ConnectionState = .disconnected
    private var attemptStarted = 0.0
    private var backoff: ReconnectBackoff
    /// Messages received since the owner last stored them (``onReceived``).
    private var unstored = 0
    private var refusal: String?
    private var logError: String?

    /// Called on the loop thread after CONNACK accepted.
    var onConnected: (() -> Void)?
    /// Called on the loop thread when the connection is gone (after ``onConnected`` was called).
    var onDisconnected: (() -> Void)?
    /// Called on the loop thread with the message ID of each QoS 1 publish the broker acknowledged (PUBACK).
    var onPublished: ((Int32) -> Void)?
    /// Called on the loop thread for each message received: topic, payload, retain flag.
    var onMessage: ((String, UnsafeRawBufferPointer, Bool) -> Void)?
    /// Called on the loop thread on every turn of the loop (at least 4 times a second).
    var onTick: (() -> Void)?
    /// With ``ConnectionSettings/acknowledgesAfterStoring``: called on the loop thread after the messages of a
    /// read have been handed to ``onMessage`` and before anything is written, so before their acknowledgements go
    /// out. Return `true` once they are stored (the acknowledgements follow), `false` when they could not be:
    /// the connection is then dropped without a byte more, and the broker sends them again on the next one.
    var onReceived: (() -> Bool)?
    /// Asked before each connection attempt; `false` puts it off (the database is down, say).
    var mayConnect: (() -> Bool)?

    /// libmosquitto loaded (when first needed: the program does not link it) and set up, or why it cannot be.
    private static let libraryProblem: String? = {
        var problem: UnsafePointer<CChar>?
        guard nmea_libmosquitto_load(&problem) == 0 else { return problem.map { String(cString: $0) } }
        mosquitto_lib_init()
        return nil
    }()

    /// Creates the client (no connection yet).
    /// - Throws: ``FleetError`` when libmosquitto cannot be loaded, or refuses the settings (a bad CA file, say).
    init(settings: ConnectionSettings) throws(FleetError) {
        if let problem = Self.libraryProblem { throw FleetError(problem) }
        self.settings = settings
        backoff = ReconnectBackoff(minimum: settings.reconnectDelayMinimum, maximum: settings.reconnectDelayMaximum)
        guard let client = mosquitto_new(settings.clientID, settings.cleanSession, nil) else {
            throw FleetError("cannot create an MQTT client: \(Errno.current)")
        }
        self.client = client
        mosquitto_user_data_set(client, Unmanaged.passUnretained(self).toOpaque())
        // Every stored property is set: should this throw, deinit runs and destroys the client (once).
        try configure()
    }

    deinit {
        mosquitto_destroy(client)
    }

    private func configure() throws(FleetError) {
        func check(_ rc: Int32, _ what: String) throws(FleetError) {
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                throw FleetError("\(what): \(String(cString: mosquitto_strerror(rc)))")
            }
        }
        if let username = settings.broker.username {
            try check(mosquitto_username_pw_set(client, username, settings.broker.password), "user name")
        }
        _ = mosquitto_int_option(client, MOSQ_OPT_SEND_MAXIMUM, Int32(max(1, min(settings.maximumInflight, 65535))))
        _ = mosquitto_int_option(client, MOSQ_OPT_TCP_NODELAY, 1)
        if settings.acknowledgesAfterStoring {
            // libmosquitto queues a PUBACK before it calls the message callback, and writes it at once unless the
            // application says it drives the client from threads of its own: then every packet waits in the
            // queue for mosquitto_loop_write, which this loop calls only after onReceived has stored the messages.
            // (libmosquitto 2.0.11, Debian 12's, has no mosquitto_manual_ack.)
            try check(mosquitto_threaded_set(client, true), "holding acknowledgements")
        }
        if let caFile = settings.tlsCAFile {
            guard access(caFile, R_OK) == 0 else {
                throw FleetError("cannot read the CA file '\(caFile)': \(Errno.current)")
            }
            try check(mosquitto_tls_set(client, caFile, nil, nil, nil, nil), "TLS with CA file '\(caFile)'")
        } else if settings.broker.usesTLS {
            try check(mosquitto_int_option(client, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "TLS with the system's CAs")
        }
        mosquitto_connect_callback_set(client) { _, context, code in
            MQTTConnection.from(context).connected(code)
        }
        mosquitto_publish_callback_set(client) { _, context, mid in
            MQTTConnection.from(context).onPublished?(mid)
        }
        mosquitto_message_callback_set(client) { _, context, message in
            guard let message else { return }
            let connection = MQTTConnection.from(context)
            let topic = String(cString: message.pointee.topic)
            let payload = UnsafeRawBufferPointer(
                start: message.pointee.payload,
                count: Int(max(0, message.pointee.payloadlen)))
            connection.unstored += 1
            connection.onMessage?(topic, payload, message.pointee.retain)
        }
        mosquitto_log_callback_set(client) { _, context, level, text in
            guard level == Int32(MOSQ_LOG_ERR), let text else { return }
            MQTTConnection.from(context).logError = String(cString: text)
        }
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTConnection {
        Unmanaged<MQTTConnection>.fromOpaque(context!).takeUnretainedValue()
    }

    /// A snapshot for any thread.
    var status: ConnectionStatus { sharedStatus.current }

    /// Makes the loop turn now (from any thread): a new message to send, or a stop to notice.
    func wakeUp() { wake.signal() }

    // MARK: The loop

    /// Runs the connection on the calling thread until `shouldStop` returns `true`, then disconnects cleanly.
    func run(until shouldStop: () -> Bool) {
        while !shouldStop() {
            turn()
        }
        if state == .connected {
            _ = mosquitto_disconnect(client)
            // Let the DISCONNECT go out.
            for _ in 0..<5 where mosquitto_socket(client) >= 0 && mosquitto_want_write(client) {
                _ = mosquitto_loop_write(client, 1)
            }
            onDisconnected?()
        }
        setState(.disconnected)
    }

    /// One turn: connect when due, give the owner its tick, wait for the socket or a wake-up, handle what came.
    private func turn() {
        let now = MonotonicTime.now().seconds
        if state == .disconnected && backoff.isDue && mayConnect?() != false {
            attempt(now)
        } else if state == .connecting && now - attemptStarted > settings.connectTimeoutSeconds {
            _ = mosquitto_disconnect(client)
            failed("no answer from \(settings.broker) within \(Int(settings.connectTimeoutSeconds)) s")
        }
        onTick?()
        let socket = mosquitto_socket(client)
        var wanted = FileDescriptor.PollEvents.readable
        if socket >= 0 && mosquitto_want_write(client) { wanted.insert(.writable) }
        var timeout = 250
        if state == .disconnected {
            timeout = max(0, min(timeout, Int(backoff.secondsLeft * 1000) + 1))
        }
        let (woken, events) =
            (try? FileDescriptor.poll(
                (wake.fileDescriptor, .readable), socket >= 0 ? (FileDescriptor(rawValue: socket), wanted) : nil,
                timeoutMilliseconds: Int32(timeout))) ?? ([], [])
        if !woken.isEmpty { wake.drain() }
        guard socket >= 0 else { return }
        if !events.isDisjoint(with: [.readable, .error, .hangUp]) {
            guard read() else { return }
        }
        if unstored > 0 && settings.acknowledgesAfterStoring {
            unstored = 0
            if onReceived?() == false {
                dropWithoutAcknowledging()
                return
            }
        }
        if mosquitto_socket(client) >= 0 && (events.contains(.writable) || mosquitto_want_write(client)) {
            let rc = mosquitto_loop_write(client, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                lost(rc, errno)
                return
            }
        }
        if mosquitto_socket(client) >= 0 {
            let rc = mosquitto_loop_misc(client)
            if rc != MOSQ_ERR_SUCCESS.rawValue && mosquitto_socket(client) < 0 {
                lost(rc, errno)
            }
        } else if state != .disconnected {
            lost(MOSQ_ERR_CONN_LOST.rawValue, 0)
        }
    }

    /// Reads what the socket has: one packet, or with ``ConnectionSettings/acknowledgesAfterStoring`` packets
    /// until none is left or ``ConnectionSettings/batchLimit`` messages came. `false` when the connection is lost.
    private func read() -> Bool {
        var calls = 0
        while true {
            let before = unstored
            let rc = mosquitto_loop_read(client, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                unstored = 0
                lost(rc, errno)
                return false
            }
            calls += 1
            // libmosquitto reads at most one packet a call. Another call is worth it while calls bring messages,
            // or while the socket has more (TLS records it has buffered are drained inside each call).
            guard settings.acknowledgesAfterStoring, unstored < settings.batchLimit, calls < 4 * settings.batchLimit
            else { return true }
            let socket = mosquitto_socket(client)
            guard socket >= 0 else { return true }
            if unstored == before {
                let events = (try? FileDescriptor(rawValue: socket).poll(.readable, timeoutMilliseconds: 0)) ?? []
                if events.isEmpty { return true }
            }
        }
    }

    /// Ends the connection without writing what is queued (the acknowledgements of messages that were not stored):
    /// the socket is shut down, libmosquitto's next read finds it closed and closes it, and the queue is emptied
    /// at the next connection attempt.
    private func dropWithoutAcknowledging() {
        let socket = mosquitto_socket(client)
        if socket >= 0 { try? FileDescriptor(rawValue: socket).shutdown(.both) }
        _ = mosquitto_loop_read(client, 1)
        let wasConnected = state == .connected
        if wasConnected { onDisconnected?() }
        failed("disconnected from \(settings.broker) until the messages can be stored")
    }

    private func attempt(_ now: Double) {
        attemptStarted = now
        refusal = nil
        logError = nil
        setState(.connecting)
        let rc = mosquitto_connect_async(
            client, settings.broker.host, Int32(settings.broker.port),
            Int32(settings.keepaliveSeconds))
        let code = errno
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            failed(describe(rc, code, connecting: true))
        }
    }

    private func connected(_ code: Int32) {
        if code == 0 {
            backoff.succeeded()
            setState(.connected) { $0.connections += 1 }
            onConnected?()
        } else {
            refusal = "the broker refused the connection: \(Self.refusalReason(code))"
        }
    }

    private static func refusalReason(_ code: Int32) -> String {
        switch code {
        case 1: "unacceptable protocol version"
        case 2: "client ID rejected"
        case 3: "server unavailable"
        case 4: "bad user name or password"
        case 5: "not authorised"
        default: String(cString: mosquitto_connack_string(code))
        }
    }

    /// The connection (or the attempt) ended with `rc`.
    private func lost(_ rc: Int32, _ code: Int32) {
        let wasConnected = state == .connected
        if mosquitto_socket(client) >= 0 { _ = mosquitto_disconnect(client) }
        if wasConnected { onDisconnected?() }
        failed(describe(rc, code, connecting: !wasConnected))
    }

    /// Records `message` and schedules the next attempt.
    private func failed(_ message: String) {
        backoff.failed()
        setState(.disconnected) {
            $0.lastError = message
            $0.failures += 1
        }
    }

    private func describe(_ rc: Int32, _ code: Int32, connecting: Bool) -> String {
        if let refusal { return refusal }
        let broker = settings.broker.description
        let prefix = connecting ? "cannot connect to \(broker)" : "lost the connection to \(broker)"
        switch rc {
        case MOSQ_ERR_ERRNO.rawValue:
            return "\(prefix): \(code == 0 ? "connection closed" : Errno(rawValue: code).description)"
        case MOSQ_ERR_EAI.rawValue:
            return "\(prefix): cannot resolve the host name '\(settings.broker.host)'"
        case MOSQ_ERR_TLS.rawValue:
            return "\(prefix): TLS failed\(logError.map { " (\($0))" } ?? "")"
        case MOSQ_ERR_CONN_LOST.rawValue:
            return "\(prefix): the broker closed the connection"
        case MOSQ_ERR_KEEPALIVE.rawValue:
            return "\(prefix): no answer to keepalive pings"
        default:
            var text = "\(prefix): \(String(cString: mosquitto_strerror(rc)))"
            if let logError { text += " (\(logError))" }
            return text
        }
    }

    private func setState(_ newState: ConnectionState, _ update: (inout ConnectionStatus) -> Void = { _ in }) {
        state = newState
        sharedStatus.withLock {
            $0.state = newState
            update(&$0)
        }
    }

    // MARK: Operations (on the loop thread)

    /// Publishes; returns libmosquitto's result and the message ID.
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) -> (rc: Int32, mid: Int32) {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(client, &mid, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        return (rc, mid)
    }

    /// Subscribes to `filter` with `qos`.
    @discardableResult
    func subscribe(_ filter: String, qos: Int32) -> Int32 {
        mosquitto_subscribe(client, nil, filter, qos)
    }

    /// libmosquitto's text for `rc`.
    static func errorString(_ rc: Int32) -> String { String(cString: mosquitto_strerror(rc)) }
}

/// A fleet operation failed: a readable message.
public struct FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
