import System
import Threading

/// A small, read-only HTTP/1.1 server: one thread running the server core (`System`'s `TCPServerCore`) with HTTP
/// as its handler, responses from an ``HTTPResponder``, and Server-Sent Event streams fed by ``publish(_:)``.
///
///     let server = HTTPServer(responder: routes, configuration: .init(listen: ListenAddress(port: 8080)))
///     try server.start()
///     server.publish(ServerSentEvent(name: "position", data: json))   // from any thread
///     server.stop()
///
/// **Safety and load.** No path maps to a file: the responder answers from memory. A request head is at most
/// ``Configuration/maximumHeadLength`` bytes (431 beyond); a client has ``Configuration/requestTimeout`` to send
/// one (408 then), and ``Configuration/writeTimeout`` to read what it is sent (then it is cut). At most
/// ``Configuration/maxConnections`` connections: the next gets a 503 and is closed. A request with a body is
/// answered and its connection closed (the body is never read as a request). A connection is closed as the gpsd
/// server closes one: its last response is sent, its write side shut down, and what it still sends is read and
/// dropped until it closes or ``Configuration/closingGracePeriod`` passes, so that no reset cuts the response
/// short. Nothing a client sends can trap.
///
/// **Events.** A stream client that reads slower than events come gets the latest event of each name once it has
/// caught up, never a backlog: while its queue is not empty, a new event replaces the one of the same name still
/// waiting. A comment line every ``Configuration/heartbeatInterval`` keeps idle streams (and proxies) open.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        /// Where to listen (loopback unless told otherwise).
        public var listen: ListenAddress
        /// Connections served at once; the next gets a 503.
        public var maxConnections = 64
        /// The longest request head (request line and headers), bytes.
        public var maximumHeadLength = 8 * 1024
        /// How long a client has to send a complete request head, from its connection or its previous response.
        public var requestTimeout = Duration.seconds(10)
        /// How long a response (or an event stream's queue) may wait unread before the client is cut.
        public var writeTimeout = Duration.seconds(30)
        /// A comment on every event stream this often.
        public var heartbeatInterval = Duration.seconds(15)
        /// The kernel's send buffer per connection (`SO_SNDBUF`), so a client that stops reading holds a bounded
        /// amount of kernel memory.
        public var socketSendBufferSize: Int? = 256 * 1024
        /// How long a connection being closed (after its last response, or refused) has to read what it is sent
        /// once it is sent, before it is closed whatever remains.
        public var closingGracePeriod = Duration.seconds(1)

        public init(listen: ListenAddress) { self.listen = listen }
    }

    public let configuration: Configuration
    private let responder: any HTTPResponder
    private let shared = Locked(Shared())
    private let wakeUp = WakeUp()
    private let threads = Locked(Threads())

    private struct Threads {
        var loop: NativeThread?
        var listener: FileDescriptor?
        var bound: ListenAddress?
    }

    /// What callers and the socket thread share.
    struct Shared {
        var events: [ServerSentEvent] = []
        var stopping = false
        var statistics = HTTPServerStatistics()
    }

    public init(responder: any HTTPResponder, configuration: Configuration) {
        precondition(configuration.maxConnections >= 1, "a server serves at least one connection")
        self.responder = responder
        self.configuration = configuration
    }

    /// Binds and listens (errors are thrown here), then starts the socket thread. Call once.
    public func start() throws(ListenError) {
        let socket = try ListeningSocket.open(configuration.listen)
        let (listener, wakeUp, shared, configuration, responder) = (
            socket.descriptor, wakeUp, shared, configuration, responder
        )
        threads.withLock { threads in
            threads.listener = listener
            threads.bound = socket.bound
            threads.loop = NativeThread(name: "http") {
                var core = TCPServerConfiguration()
                core.maxConnections = configuration.maxConnections
                core.writeTimeout = configuration.writeTimeout
                core.closingGracePeriod = configuration.closingGracePeriod
                core.socketSendBufferSize = configuration.socketSendBufferSize
                let handler = HTTPHandler(responder: responder, configuration: configuration, shared: shared)
                let server = TCPServerCore(listener: listener, wakeUp: wakeUp, configuration: core, handler: handler)
                server.nextTick = MonotonicTime.now() + configuration.heartbeatInterval
                server.run()
            }
        }
    }

    /// Closes every connection and the listening socket. Harmless when not started or stopped already.
    public func stop() {
        let (thread, listener) = threads.withLock { threads in
            defer {
                threads.loop = nil
                threads.listener = nil
            }
            return (threads.loop, threads.listener)
        }
        shared.withLock { $0.stopping = true }
        wakeUp.signal()
        thread?.join()
        try? listener?.close()
    }

    /// The address actually listened on (the real port when 0 was asked for); `nil` before ``start()``.
    public var boundAddress: ListenAddress? { threads.withLock { $0.bound } }

    /// What the server has done so far.
    public var statistics: HTTPServerStatistics { shared.withLock { $0.statistics } }

    /// Sends `event` to every event-stream client (from any thread; never blocks on a client).
    public func publish(_ event: ServerSentEvent) {
        shared.withLock { state in
            // The socket thread takes them at once; if it somehow lagged, only the newest of each name matter.
            if let index = state.events.firstIndex(where: { $0.name == event.name }) {
                state.events.remove(at: index)
            }
            state.events.append(event)
        }
        wakeUp.signal()
    }
}

/// What an ``HTTPServer`` has done.
public struct HTTPServerStatistics: Sendable, Hashable {
    /// Connections open now.
    public var connections = 0
    /// Of those, event streams.
    public var streaming = 0
    /// Connections accepted in all.
    public var accepted = 0
    /// Connections refused with a 503 because ``HTTPServer/Configuration/maxConnections`` were open.
    public var refused = 0
    /// Requests answered.
    public var requests = 0
    /// Requests that could not be read (400, 431, 505), answered and closed.
    public var badRequests = 0
    /// Responses with a status of 400 or more (not found, not allowed…).
    public var errorResponses = 0
    /// Clients cut for sending a request too slowly or not reading what they were sent.
    public var timedOut = 0
    /// Event streams opened.
    public var eventStreams = 0
    /// Events queued to stream clients.
    public var eventsSent = 0
    /// Events that replaced an older one of the same name for a client that had fallen behind.
    public var eventsReplaced = 0
    /// Bytes written.
    public var bytesSent = 0
}
