import Geodesy
import NMEA
import Pipeline
import RTCM
import System
import Threading

/// A small NTRIP caster for one's own base station (`nmea serve --ntrip-caster`): the RTCM 3 frames a pipeline reads
/// (a base receiver on a serial port, a `tcp://` source, a file replayed) served on one mount point to NTRIP 1 and 2
/// clients, with a sourcetable and, optionally, basic authentication.
///
///     GET / …                   the sourcetable (NTRIP 1: SOURCETABLE 200 OK; NTRIP 2: gnss/sourcetable)
///     GET /MOUNT HTTP/1.0       ICY 200 OK, then the frames as they come
///     GET /MOUNT HTTP/1.1 + Ntrip-Version: Ntrip/2.0      HTTP/1.1 200 OK, chunked, one chunk a frame
///     GET /OTHER                NTRIP 1: the sourcetable (as casters answer); NTRIP 2: 404
///     a login refused           401, with WWW-Authenticate
///
/// A client gets whole frames only, from the first frame after it joined. What it sends while streaming (its GGA)
/// is read and dropped. The server core's rules hold: at most ``Configuration/maxClients`` (the next gets 503), a
/// request head within 8 KiB and 10 s, and a client whose queue passes ``Configuration/clientQueueLimit`` (it
/// stopped reading) is disconnected: the frames are never held up for it.
public final class NTRIPCaster: Sendable {
    public struct Configuration: Sendable {
        public var listen: ListenAddress
        public var mount: String
        public var maxClients = 64
        /// About a minute of a typical base's stream.
        public var clientQueueLimit = 128 * 1024
        /// The request head's limits.
        public var requestLimit = 8192
        public var requestTimeout = Duration.seconds(10)
        /// Checks a login (user, password); `nil`: no login asked.
        public var authorize: (@Sendable (String, [UInt8]) -> Bool)?
        /// The mount's line in the sourcetable (its mount is set from ``mount``).
        public var stream: Sourcetable.Stream
        /// `Server:` in the answers.
        public var server = "swift-nmea"

        public init(listen: ListenAddress, mount: String) {
            self.listen = listen
            self.mount = mount
            stream = Sourcetable.Stream(
                mount: mount, identifier: mount, format: "RTCM 3", formatDetails: "", carrier: nil,
                navigationSystems: "", network: "", country: "", latitude: nil, longitude: nil,
                needsPosition: false, isNetwork: false, authentication: "N", fee: false, bitRate: nil)
        }
    }

    /// What the caster has done.
    public struct Statistics: Sendable, Hashable {
        /// Frames read from the source, and their bytes.
        public var frames = 0
        public var bytes = 0
        /// Clients that received the stream, those that asked for the sourcetable, those refused.
        public var streamed = 0
        public var sourcetables = 0
        public var unauthorized = 0
        public var notFound = 0
        public var badRequests = 0
        /// Clients streaming now.
        public var streaming = 0
        /// From the server core: refused over the limit, disconnected for not reading.
        public var refused = 0
        public var disconnectedSlow = 0

        public init() {}
    }

    public let configuration: Configuration
    private let frames: RingConsumerLoop
    private let shared: Locked<CasterState>
    private let wakeUp = WakeUp()
    private let threads = Locked<(socket: NativeThread?, listener: FileDescriptor?, bound: ListenAddress?)>(
        (nil, nil, nil))

    /// A caster of `pipeline`'s RTCM 3 frames; make it before the pipeline starts (it joins the ring now), which must
    /// publish raw bytes (``Pipeline/ReceiverPipeline/Configuration/publishesRaw``).
    public init(pipeline: ReceiverPipeline, configuration: Configuration) {
        precondition(configuration.maxClients >= 1, "a caster serves at least one client")
        self.configuration = configuration
        let shared = Locked(CasterState())
        self.shared = shared
        frames = RingConsumerLoop(
            FrameCollector(shared: shared, wakeUp: wakeUp), name: "ntrip-caster", pipeline: pipeline,
            options: .init(batchSize: 64, idleInterval: .seconds(1)))
    }

    /// Binds and listens (errors are thrown here), then starts the frame reader and the socket thread. Call once.
    public func start() throws(ListenError) {
        let socket = try ListeningSocket.open(configuration.listen)
        let (listener, wakeUp, shared, configuration) = (socket.descriptor, wakeUp, shared, configuration)
        frames.start(threadName: "ntrip-frames")
        let thread = NativeThread(name: "ntrip-caster") {
            var core = TCPServerConfiguration()
            core.maxConnections = configuration.maxClients
            core.queueLimit = configuration.clientQueueLimit
            core.socketSendBufferSize = 64 * 1024
            let handler = NTRIPCasterHandler(configuration: configuration, shared: shared)
            TCPServerCore(listener: listener, wakeUp: wakeUp, configuration: core, handler: handler).run()
        }
        threads.withLock { $0 = (thread, listener, socket.bound) }
    }

    /// Closes every connection and the listening socket; stops both threads.
    public func stop() {
        let (thread, listener, _) = threads.withLock { value in
            defer { value = (nil, nil, value.bound) }
            return value
        }
        shared.withLock { $0.stopping = true }
        wakeUp.signal()
        thread?.join()
        frames.stop()
        try? listener?.close()
    }

    /// The address listened on (the real port when 0 was asked for); `nil` before ``start()``.
    public var boundAddress: ListenAddress? { threads.withLock { $0.bound } }

    public var statistics: Statistics { shared.withLock { $0.statistics } }
}

/// What the frame reader, the socket thread and the callers share.
struct CasterState {
    /// Frames read and not yet handed to the clients: as they are (NTRIP 1) and as a chunk (NTRIP 2).
    var outbox: [(raw: SharedBytes, chunk: SharedBytes)] = []
    var statistics = NTRIPCaster.Statistics()
    var stopping = false
    /// Where the base is, from its 1005/1006: the sourcetable's position when the configuration gives none.
    var station: (latitude: Double, longitude: Double)?
}

/// Reads the pipeline's raw bytes and frames RTCM 3 out of them, on the consumer loop's thread.
final class FrameCollector: RecordConsumer {
    private let shared: Locked<CasterState>
    private let wakeUp: WakeUp
    private var framer = Framer(maximumLength: 1100)

    init(shared: Locked<CasterState>, wakeUp: WakeUp) {
        self.shared = shared
        self.wakeUp = wakeUp
    }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        if lost > 0 { framer.reset() }
        var found: [(raw: SharedBytes, chunk: SharedBytes)] = []
        var bytes = 0
        var station: (latitude: Double, longitude: Double)?
        for record in records {
            guard let raw = record.raw else { continue }
            raw.withBytes { chunk in
                framer.feed(chunk) { event in
                    guard case .binaryFrame(let frame) = event, frame.kind == .rtcm3 else { return }
                    bytes += frame.bytes.count
                    if let rtcm = RTCMFrame(frame), let reference = RTCMStation(rtcm) {
                        let position = Geodesy.geodetic(x: reference.x, y: reference.y, z: reference.z)
                        station = (position.latitude, position.longitude)
                    }
                    let chunked =
                        Array((Hex.string(UInt64(frame.bytes.count)) + "\r\n").utf8) + Array(frame.bytes) + [
                            0x0D, 0x0A,
                        ]
                    found.append(
                        (
                            SharedBytes(frame.bytes, lineEnding: false),
                            chunked.withUnsafeBytes {
                                SharedBytes($0, lineEnding: false)
                            }
                        ))
                }
            }
        }
        guard !found.isEmpty else { return }
        shared.withLock { state in
            state.outbox += found
            state.statistics.frames += found.count
            state.statistics.bytes += bytes
            if let station { state.station = station }
        }
        wakeUp.signal()
    }
}
