import Publisher
import System
import Threading

/// A small, read-only HTTP/1.1 server: one thread, one `poll(2)` loop, responses from an ``HTTPResponder``, and
/// Server-Sent Event streams fed by ``publish(_:)``.
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
/// answered and its connection closed (the body is never read as a request). Nothing a client sends can trap.
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

    private struct Shared {
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
    public func start() throws(GPSDServerError) {
        let socket = try ListeningSocket.open(configuration.listen)
        threads.withLock { threads in
            threads.listener = socket.descriptor
            threads.bound = socket.bound
            threads.loop = NativeThread(name: "http") { [self] in
                var loop = Loop(server: self, listener: socket.descriptor)
                loop.run()
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

    // MARK: The socket thread

    private final class Connection {
        enum Phase {
            /// Waiting for (the rest of) a request head until the deadline.
            case reading(deadline: MonotonicTime)
            /// An event stream: events as they come.
            case streaming
            /// The last response is being sent; then the connection closes.
            case closingAfterFlush
        }

        let descriptor: FileDescriptor
        var input: [UInt8] = []
        var output = OutputQueue()
        var phase: Phase
        /// Events waiting for the queue to drain, the latest of each name.
        var waiting: [(name: String, bytes: SharedBytes)] = []
        /// Since when unsent output has waited (reset whenever the queue drains).
        var outputSince: MonotonicTime?
        var isClosed = false

        init(descriptor: FileDescriptor, deadline: MonotonicTime) {
            self.descriptor = descriptor
            phase = .reading(deadline: deadline)
        }

        var isStreaming: Bool {
            if case .streaming = phase { return true }
            return false
        }

        func close() {
            guard !isClosed else { return }
            isClosed = true
            output.removeAll()
            waiting.removeAll()
            try? descriptor.close()
        }
    }

    private struct Loop {
        let server: HTTPServer
        let listener: FileDescriptor
        let configuration: Configuration
        var connections: [Connection] = []
        var statistics = HTTPServerStatistics()
        var acceptPausedUntil: MonotonicTime?
        var nextHeartbeat: MonotonicTime
        let readBuffer: UnsafeMutableRawBufferPointer

        init(server: HTTPServer, listener: FileDescriptor) {
            self.server = server
            self.listener = listener
            configuration = server.configuration
            nextHeartbeat = MonotonicTime.now() + server.configuration.heartbeatInterval
            readBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
        }

        mutating func run() {
            defer {
                for connection in connections { connection.close() }
                readBuffer.deallocate()
            }
            var descriptors: [FileDescriptor.PollEntry] = []
            var polled: [Connection] = []
            while true {
                descriptors.removeAll(keepingCapacity: true)
                polled.removeAll(keepingCapacity: true)
                descriptors.append(.init(server.wakeUp.fileDescriptor, .readable))
                let now = MonotonicTime.now()
                if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }
                descriptors.append(.init(acceptPausedUntil == nil ? listener : nil, .readable))
                var nearest = min(nextHeartbeat, acceptPausedUntil ?? nextHeartbeat)
                for connection in connections where !connection.isClosed {
                    var events = FileDescriptor.PollEvents.readable
                    if !connection.output.isEmpty { events.insert(.writable) }
                    descriptors.append(.init(connection.descriptor, events))
                    polled.append(connection)
                    if case .reading(let deadline) = connection.phase { nearest = min(nearest, deadline) }
                    if let since = connection.outputSince { nearest = min(nearest, since + configuration.writeTimeout) }
                }
                let milliseconds = (nearest.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
                let timeout = Int32(clamping: max(0, min(milliseconds, 1000)))
                do {
                    try FileDescriptor.poll(&descriptors, timeoutMilliseconds: timeout)
                } catch {
                    break
                }

                var events: [ServerSentEvent] = []
                var stopping = false
                if !descriptors[0].returned.isEmpty { server.wakeUp.drain() }
                server.shared.withLock { state in
                    swap(&events, &state.events)
                    stopping = state.stopping
                }
                if stopping { break }
                fanOut(events)

                if descriptors[1].returned.contains(.readable) { accept() }
                for (offset, connection) in polled.enumerated() where !connection.isClosed {
                    let returned = descriptors[offset + 2].returned
                    if returned.isEmpty { continue }
                    if !returned.isDisjoint(with: [.readable, .hangUp, .error]) { read(connection) }
                    if !connection.isClosed && returned.contains(.writable) { flush(connection) }
                }
                let time = MonotonicTime.now()
                if time >= nextHeartbeat {
                    nextHeartbeat = time + configuration.heartbeatInterval
                    heartbeat()
                }
                for connection in connections where !connection.isClosed {
                    if !connection.output.isEmpty { flush(connection) }
                    enforceDeadlines(connection, now: time)
                }
                connections.removeAll { $0.isClosed }
                publishStatistics()
            }
        }

        // MARK: Accepting

        private mutating func accept() {
            while true {
                let descriptor: FileDescriptor
                switch listener.acceptClient(sendBufferSize: configuration.socketSendBufferSize) {
                case .accepted(let accepted): descriptor = accepted
                case .pause:
                    acceptPausedUntil = MonotonicTime.now() + .milliseconds(100)
                    return
                case .none: return
                }
                let connection = Connection(
                    descriptor: descriptor, deadline: MonotonicTime.now() + configuration.requestTimeout)
                if connections.count(where: { !$0.isClosed }) >= configuration.maxConnections {
                    statistics.refused += 1
                    let response = HTTPResponse.error(
                        .serviceUnavailable,
                        "Too many connections: \(configuration.maxConnections) are open; try again shortly",
                        headers: ["Retry-After: 5"])
                    // One best-effort write into a fresh socket's empty buffer, then close.
                    let bytes = response.encoded(keepAlive: false)
                    _ = bytes.withUnsafeBytes { try? descriptor.send($0, flags: [.noSignal, .dontWait]) }
                    try? descriptor.close()
                    continue
                }
                statistics.accepted += 1
                connections.append(connection)
            }
        }

        // MARK: Reading and answering

        private mutating func read(_ connection: Connection) {
            let count: Int
            do throws(Errno) {
                count = try connection.descriptor.receive(into: readBuffer, flags: .dontWait)
            } catch .wouldBlock {
                return
            } catch {
                connection.close()
                return
            }
            if count == 0 {
                // The client closed its side. A response still being sent to it is dropped too: it left.
                connection.close()
                return
            }
            guard case .reading = connection.phase else { return }  // streams and closings: input dropped
            connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
            answerRequests(connection)
        }

        /// Answers every complete request in `connection`'s input, in order.
        private mutating func answerRequests(_ connection: Connection) {
            while case .reading = connection.phase, !connection.input.isEmpty {
                let limit = configuration.maximumHeadLength
                let parsed = connection.input.withUnsafeBytes { HTTPRequest.parse($0, limit: limit) }
                switch parsed {
                case .incomplete:
                    return
                case .invalid(let status, let reason):
                    statistics.badRequests += 1
                    connection.input.removeAll()
                    send(HTTPResponse.error(status, reason).encoded(keepAlive: false), to: connection)
                    connection.phase = .closingAfterFlush
                case .request(let request, let consumed):
                    connection.input.removeFirst(consumed)
                    answer(request, connection)
                }
            }
        }

        private mutating func answer(_ request: HTTPRequest, _ connection: Connection) {
            statistics.requests += 1
            switch server.responder.respond(to: request) {
            case .response(let response):
                if response.status.code >= 400 { statistics.errorResponses += 1 }
                let keepAlive = request.keepsAlive
                send(response.encoded(keepAlive: keepAlive, head: request.isHead), to: connection)
                if keepAlive {
                    connection.phase = .reading(deadline: MonotonicTime.now() + configuration.requestTimeout)
                } else {
                    connection.input.removeAll()
                    connection.phase = .closingAfterFlush
                }
            case .eventStream(let initial):
                statistics.eventStreams += 1
                var head = Array(
                    ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                        + "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\nretry: 2000\n\n").utf8)
                if !request.isHead { head += initial }
                send(head, to: connection)
                connection.input.removeAll()
                connection.phase = request.isHead ? .closingAfterFlush : .streaming
            }
        }

        private func send(_ bytes: [UInt8], to connection: Connection) {
            if connection.output.isEmpty { connection.outputSince = MonotonicTime.now() }
            connection.output.append(SharedBytes.line(bytes, lineEnding: false))
        }

        // MARK: Events

        private mutating func fanOut(_ events: [ServerSentEvent]) {
            guard !events.isEmpty else { return }
            let shared = events.map { (name: $0.name, bytes: SharedBytes.line($0.encoded, lineEnding: false)) }
            for connection in connections where connection.isStreaming && !connection.isClosed {
                for event in shared {
                    if connection.output.isEmpty {
                        connection.outputSince = MonotonicTime.now()
                        connection.output.append(event.bytes)
                        statistics.eventsSent += 1
                    } else if let index = connection.waiting.firstIndex(where: { $0.name == event.name }) {
                        connection.waiting[index].bytes = event.bytes
                        statistics.eventsReplaced += 1
                    } else {
                        connection.waiting.append(event)
                    }
                }
            }
        }

        private mutating func heartbeat() {
            let comment = SharedBytes.line(Array(":\n\n".utf8), lineEnding: false)
            for connection in connections where connection.isStreaming && connection.output.isEmpty {
                connection.outputSince = MonotonicTime.now()
                connection.output.append(comment)
            }
        }

        // MARK: Writing, deadlines, closing

        private mutating func flush(_ connection: Connection) {
            var sent = 0
            let outcome = connection.output.send(to: connection.descriptor, sent: &sent)
            statistics.bytesSent += sent
            switch outcome {
            case .failed:
                connection.close()
            case .blocked:
                break
            case .drained:
                connection.outputSince = nil
                if case .closingAfterFlush = connection.phase {
                    try? connection.descriptor.shutdown(.write)
                    connection.close()
                } else if !connection.waiting.isEmpty {
                    // Caught up: the latest of each event it missed, in the order they first waited.
                    connection.outputSince = MonotonicTime.now()
                    for event in connection.waiting { connection.output.append(event.bytes) }
                    statistics.eventsSent += connection.waiting.count
                    connection.waiting.removeAll(keepingCapacity: true)
                    flush(connection)
                }
            }
        }

        private mutating func enforceDeadlines(_ connection: Connection, now: MonotonicTime) {
            if let since = connection.outputSince, now - since > configuration.writeTimeout {
                statistics.timedOut += 1
                connection.close()
                return
            }
            guard case .reading(let deadline) = connection.phase, now >= deadline else { return }
            statistics.timedOut += 1
            if connection.input.isEmpty {
                connection.close()  // an idle keep-alive connection, or one that never spoke: nothing to answer
                return
            }
            connection.input.removeAll()
            let message = "The request head did not arrive within \(configuration.requestTimeout); closing"
            send(HTTPResponse.error(.requestTimeout, message).encoded(keepAlive: false), to: connection)
            connection.phase = .closingAfterFlush
            flush(connection)
        }

        private mutating func publishStatistics() {
            statistics.connections = connections.count(where: { !$0.isClosed })
            statistics.streaming = connections.count(where: { !$0.isClosed && $0.isStreaming })
            let snapshot = statistics
            server.shared.withLock { $0.statistics = snapshot }
        }
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
