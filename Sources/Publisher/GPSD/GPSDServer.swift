import JSON
import NMEA
import Pipeline
import System
import Threading

/// gpsd's JSON protocol on TCP, for every program that speaks it: `gpspipe`, `cgps`, `xgps`, libgps, the Python
/// `gps` module, Home Assistant, chrony's gpsd refclock tools…
///
///     let server = GPSDServer(pipeline: pipeline, listen: .loopback, maxClients: 64)   // before pipeline.start
///     try server.start()             // binds now: errors are thrown here
///     …
///     server.stop()
///
/// **Protocol** (the subset clients use, as gpsd 3.22 speaks it; see `gpsd_json(5)`): a VERSION object on connect;
/// `?WATCH={"enable":true,"json":true}` answered with DEVICES and WATCH, then a TPV per fix and a SKY per epoch;
/// `"nmea":true` (or `"raw":1`) adds the sentences as received; `?POLL;` answers POLL with the latest TPV and SKY;
/// `?DEVICES;`, `?DEVICE;`, `?VERSION;`; anything else gets an ERROR object. Lines end in CR LF. A watcher that
/// joins gets the latest TPV and SKY at once (position at once, for gpsd clients too), then live ones.
///
/// **Raw NMEA** (``Configuration/servesRawNMEA``, `--nmea-tcp`): every client gets every sentence as received from
/// the moment it connects, CR LF after each, with no handshake and no JSON — what OpenCPN, GPXSee, QGIS and gpsd's
/// own `tcp://` sources read. What a client sends is read and dropped; one over the limit is closed at once. The
/// limits and the slow-client rule are the same.
///
/// **Safety.** The default address is loopback only. At most ``Configuration/maxClients`` clients: the next is
/// sent an ERROR and closed. A command longer than ``Configuration/maximumCommandLength`` gets an ERROR and the
/// connection is closed. A client whose unsent data passes ``Configuration/clientQueueLimit`` (it stopped reading)
/// is disconnected. Malformed input of any kind is answered with an ERROR and never traps.
///
/// **Threads.** One consumer thread (a ``Pipeline/RingConsumerLoop``) reads the pipeline's ring and encodes each
/// record as JSON once; one socket thread runs the server core (`System`'s `TCPServerCore`, woken by an `eventfd`
/// when reports are ready) with the gpsd protocol (or raw NMEA) as its handler: each report — the same shared
/// buffer — goes to every watching client's bounded queue and out with non-blocking `sendmsg`. Neither ever waits
/// for a client, and the pipeline never waits for either.
public final class GPSDServer: Sendable {
    /// How the server behaves.
    public struct Configuration: Sendable {
        /// Where to listen (loopback by default).
        public var listen = ListenAddress.loopback
        /// Clients served at once; the next is refused with an ERROR.
        public var maxClients = 64
        /// The longest command accepted, in bytes: longer gets an ERROR and the connection is closed.
        public var maximumCommandLength = 4096
        /// The most bytes queued for one client (besides what the kernel holds) before it is disconnected as one
        /// that stopped reading. The default holds about 10 s of a 10 Hz multi-GNSS receiver's reports.
        public var clientQueueLimit = 512 * 1024
        /// The kernel's send buffer per client socket (`SO_SNDBUF`; Linux doubles it), so a client that stops
        /// reading holds a bounded amount of kernel memory too, rather than what TCP autotuning would grow to.
        /// `nil` leaves the kernel's default.
        public var socketSendBufferSize: Int? = 128 * 1024
        /// How long a client being closed (refused, or after an overlong command) has to read its ERROR.
        public var closingGracePeriod = Duration.seconds(1)
        /// A new watcher gets the latest TPV and SKY at once, before live ones.
        public var sendsLatestOnWatch = true
        /// The VERSION object's `release`.
        public var release = "swift-nmea"
        /// The VERSION object's `rev`.
        public var revision = "swift-nmea"
        /// Serve the sentences alone, to every client, without a handshake (see "Raw NMEA" above). The pipeline must
        /// publish sentences (``Pipeline/ReceiverPipeline/Configuration/publishesSentences``).
        public var servesRawNMEA = false

        public init() {}
    }

    public let configuration: Configuration
    public let pipeline: ReceiverPipeline
    private let reports: RingConsumerLoop
    private let shared: Locked<SharedState>
    private let wakeUp: WakeUp
    private let threads = Locked(Threads())

    private struct Threads {
        var sockets: NativeThread?
        var listener: FileDescriptor?
        var bound: ListenAddress?
        var stopped = false
    }

    /// Serves `pipeline`'s records on `listen`. Make it before the pipeline starts to miss nothing (it joins the
    /// ring now); nothing listens until ``start()``.
    public convenience init(pipeline: ReceiverPipeline, listen: ListenAddress = .loopback, maxClients: Int = 64) {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        self.init(pipeline: pipeline, configuration: configuration)
    }

    public init(pipeline: ReceiverPipeline, configuration: Configuration) {
        precondition(configuration.maxClients >= 1, "a server serves at least one client")
        self.pipeline = pipeline
        self.configuration = configuration
        let shared = Locked(SharedState())
        let wakeUp = WakeUp()
        self.shared = shared
        self.wakeUp = wakeUp
        reports = RingConsumerLoop(
            ReportEncoder(shared: shared, wakeUp: wakeUp, sentencesOnly: configuration.servesRawNMEA),
            name: configuration.servesRawNMEA ? "nmea-tcp" : "gpsd-server", pipeline: pipeline,
            options: .init(batchSize: 64, idleInterval: .seconds(1)))
    }

    // MARK: Running

    /// Binds and listens (errors are thrown here, before any thread starts), then starts the consumer and socket
    /// threads. Call once.
    public func start() throws(ListenError) {
        let socket = try ListeningSocket.open(configuration.listen)
        let (listener, wakeUp, shared, configuration) = (socket.descriptor, wakeUp, shared, configuration)
        threads.withLock { threads in
            threads.listener = listener
            threads.bound = socket.bound
            let raw = configuration.servesRawNMEA
            reports.start(threadName: raw ? "nmea-tcp-reports" : "gpsd-reports")
            threads.sockets = NativeThread(name: raw ? "nmea-tcp-sockets" : "gpsd-sockets") {
                var core = TCPServerConfiguration()
                core.maxConnections = configuration.maxClients
                core.queueLimit = configuration.clientQueueLimit
                core.closingGracePeriod = configuration.closingGracePeriod
                core.socketSendBufferSize = configuration.socketSendBufferSize
                if raw {
                    let handler = RawNMEAHandler(shared: shared)
                    TCPServerCore(listener: listener, wakeUp: wakeUp, configuration: core, handler: handler).run()
                } else {
                    let handler = GPSDHandler(configuration: configuration, shared: shared)
                    TCPServerCore(listener: listener, wakeUp: wakeUp, configuration: core, handler: handler).run()
                }
            }
        }
    }

    /// A server on `pipeline` (made before the pipeline starts, so it misses nothing), listening on `listen` and
    /// naming itself `version` in VERSION (`release`; `rev` is "swift-nmea" and the version): what `nmea serve`
    /// and `nmea record --serve` run.
    /// - Throws: ``System/ListenError`` when the address cannot be listened on.
    public static func started(
        pipeline: ReceiverPipeline, listen: ListenAddress, maxClients: Int = 64,
        version: String
    ) throws(ListenError) -> GPSDServer {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        configuration.release = version
        configuration.revision = "swift-nmea \(version)"
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        try server.start()
        return server
    }

    /// A raw NMEA server on `pipeline` (made before the pipeline starts), listening on `listen`: what
    /// `--nmea-tcp` runs. The pipeline must publish sentences.
    /// - Throws: ``System/ListenError`` when the address cannot be listened on.
    public static func startedRawNMEA(
        pipeline: ReceiverPipeline, listen: ListenAddress, maxClients: Int = 64
    ) throws(ListenError) -> GPSDServer {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        configuration.servesRawNMEA = true
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        try server.start()
        return server
    }

    /// Closes every connection and the listening socket and stops both threads. Harmless when not started, or
    /// stopped already.
    public func stop() {
        let (socketThread, listener) = threads.withLock { threads in
            defer {
                threads.sockets = nil
                threads.listener = nil
                threads.stopped = true
            }
            return (threads.sockets, threads.listener)
        }
        shared.withLock { $0.stopping = true }
        wakeUp.signal()
        socketThread?.join()
        reports.stop()
        try? listener?.close()
    }

    /// The address and port actually listened on (the real port when 0 was asked for); `nil` before ``start()``.
    public var boundAddress: ListenAddress? { threads.withLock { $0.bound } }

    /// What the server has done so far. ``GPSDServerStatistics/queuedBytes`` includes the reports encoded and not
    /// yet handed to the clients, so that "the source ended and nothing waits" is never seen while the last reports
    /// are on their way to the socket thread.
    public var statistics: GPSDServerStatistics {
        shared.withLock { state in
            var statistics = state.statistics
            statistics.queuedBytes += state.outbox.reduce(0) { $0 + $1.bytes.count }
            return statistics
        }
    }

    /// The path of the device the server reports as active (in DEVICES); `nil` while none is connected.
    public var activeDevice: String? { shared.withLock { $0.device?.path } }

    // MARK: Shared between the threads

    /// A report or a sentence, encoded once, on its way to the clients.
    struct Outgoing {
        /// Who receives it: JSON watchers, NMEA watchers, or JSON watchers by their `scaled` choice (AIS, which gpsd
        /// sends as raw numbers unless the client asked for `"scaled":true`).
        enum Audience { case reports, sentences, aisRaw, aisScaled }
        var audience: Audience
        var bytes: SharedBytes
    }

    /// What the consumer thread, the socket thread and the callers share, under one lock.
    struct SharedState {
        /// Reports encoded and not yet handed to clients.
        var outbox: [Outgoing] = []
        var latestTPV: [UInt8]?
        var latestSKY: [UInt8]?
        /// The active device; `nil` while none is connected.
        var device: GPSDDevice?
        var devicePath = ""
        var stopping = false
        var statistics = GPSDServerStatistics()

        /// Adds `batch` to the outbox, dropping the oldest beyond `limit` (the socket thread never lags that far;
        /// if it somehow did, memory stays bounded).
        mutating func post(_ batch: [Outgoing], limit: Int) {
            outbox.append(contentsOf: batch)
            if outbox.count > limit {
                let excess = outbox.count - limit
                outbox.removeFirst(excess)
                statistics.droppedReports += excess
            }
        }
    }
}

extension ListenAddress {
    /// gpsd's port.
    public static let gpsdPort: UInt16 = 2947
    /// 127.0.0.1:2947: loopback only, gpsd's port: the gpsd server's default.
    public static let loopback = ListenAddress(host: "127.0.0.1", port: gpsdPort)
}

/// What a ``GPSDServer`` has done.
public struct GPSDServerStatistics: Sendable, Hashable {
    /// Clients connected now.
    public var clients = 0
    /// Of those, clients watching (reports or sentences).
    public var watchers = 0
    /// Clients accepted in all.
    public var accepted = 0
    /// Clients refused because ``GPSDServer/Configuration/maxClients`` were connected.
    public var refused = 0
    /// Clients disconnected because their queue passed the bound (they stopped reading).
    public var disconnectedSlow = 0
    /// Clients disconnected after a command longer than the limit.
    public var disconnectedOverlong = 0
    /// ERROR objects sent.
    public var errors = 0
    /// Reports and sentences encoded by the consumer thread (each once, whatever the number of clients).
    public var reports = 0
    /// Bytes written to clients.
    public var bytesSent = 0
    /// Bytes queued for clients, not yet written.
    public var queuedBytes = 0
    /// Pipeline records the server lost (it fell a whole ring behind).
    public var lostRecords = 0
    /// Reports dropped between the threads (never expected).
    public var droppedReports = 0
    /// The pipeline's source has ended (end of a file).
    public var sourceEnded = false
}
