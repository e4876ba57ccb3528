import System
import Threading

/// HTTP/1.1 over the server core, on the socket thread: request heads read within the request timeout and answered
/// in order by the ``HTTPResponder``, keep-alive, and Server-Sent Event streams fed by ``HTTPServer/publish(_:)``
/// (the latest of each name for a client that falls behind, never a backlog), with a comment as a heartbeat.
final class HTTPHandler: TCPServerHandler {
    /// What the server keeps for one connection.
    struct Session {
        enum Phase {
            /// Waiting for (the rest of) a request head until the connection's deadline.
            case reading
            /// An event stream: events as they come.
            case streaming
        }

        var phase = Phase.reading
        /// Events waiting for the queue to drain, the latest of each name.
        var waiting: [(name: String, bytes: SharedBytes)] = []
    }

    let responder: any HTTPResponder
    let configuration: HTTPServer.Configuration
    let shared: Locked<HTTPServer.Shared>
    /// What the handler counts; the core's figures are added in ``roundEnded(_:)``.
    var statistics = HTTPServerStatistics()
    /// Event streams, counted again only when a client came, left or sent a request.
    private var streams = Recount()

    init(responder: any HTTPResponder, configuration: HTTPServer.Configuration, shared: Locked<HTTPServer.Shared>) {
        self.responder = responder
        self.configuration = configuration
        self.shared = shared
    }

    func makeSession() -> Session { Session() }

    func connected(_ connection: Connection, on server: Server) {
        connection.deadline = MonotonicTime.now() + configuration.requestTimeout
    }

    func refusal(on server: Server) -> [UInt8]? {
        HTTPResponse.error(
            .serviceUnavailable,
            "Too many connections: \(configuration.maxConnections) are open; try again shortly",
            headers: ["Retry-After: 5"]
        ).encoded(keepAlive: false)
    }

    func woken(_ server: Server) -> Bool {
        var events: [ServerSentEvent] = []
        let stopping = shared.withLock { state in
            swap(&events, &state.events)
            return state.stopping
        }
        if stopping { return false }
        fanOut(events, server)
        return true
    }

    func roundEnded(_ server: Server) {
        let core = server.statistics
        statistics.connections = core.connections
        statistics.streaming = streams.value(server) { $0.session.phase == .streaming }
        statistics.accepted = core.accepted
        statistics.refused = core.refused
        statistics.bytesSent = core.bytesSent
        var snapshot = statistics
        snapshot.timedOut += core.writeTimeouts
        shared.withLock { $0.statistics = snapshot }
    }

    // MARK: Requests

    /// Reads a connection's bytes while it waits for requests (a stream's input is dropped), and answers every
    /// complete request in them, in order.
    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
        guard connection.session.phase == .reading else { return }
        streams.invalidate()
        connection.input.append(contentsOf: bytes)
        while connection.isOpen, connection.session.phase == .reading, !connection.input.isEmpty {
            let limit = configuration.maximumHeadLength
            let parsed = connection.input.withUnsafeBytes { HTTPRequest.parse($0, limit: limit) }
            switch parsed {
            case .incomplete:
                return
            case .invalid(let status, let reason):
                statistics.badRequests += 1
                send(HTTPResponse.error(status, reason).encoded(keepAlive: false), to: connection, server)
                server.closeAfterSending(connection, deadline: nil)
            case .request(let request, let consumed):
                connection.input.removeFirst(consumed)
                answer(request, connection, server)
            }
        }
    }

    private func answer(_ request: HTTPRequest, _ connection: Connection, _ server: Server) {
        statistics.requests += 1
        switch responder.respond(to: request) {
        case .response(let response):
            if response.status.code >= 400 { statistics.errorResponses += 1 }
            let keepAlive = request.keepsAlive && !request.hasBody
            send(response.encoded(keepAlive: keepAlive, head: request.isHead), to: connection, server)
            if keepAlive {
                connection.deadline = MonotonicTime.now() + configuration.requestTimeout
            } else {
                server.closeAfterSending(connection, deadline: nil)
            }
        case .eventStream(let initial):
            statistics.eventStreams += 1
            var head = Array(
                ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                    + "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\nretry: 2000\n\n").utf8)
            if !request.isHead { head += initial }
            send(head, to: connection, server)
            if request.isHead {
                server.closeAfterSending(connection, deadline: nil)
            } else {
                connection.input.removeAll()
                connection.deadline = nil
                connection.session.phase = .streaming
            }
        }
    }

    /// A request head that did not arrive in time: 408 when part of one came, else the connection is just closed.
    func deadlinePassed(_ connection: Connection, on server: Server) {
        statistics.timedOut += 1
        if connection.input.isEmpty {
            server.close(connection)  // an idle keep-alive connection, or one that never spoke: nothing to answer
            return
        }
        let message = "The request head did not arrive within \(configuration.requestTimeout); closing"
        send(HTTPResponse.error(.requestTimeout, message).encoded(keepAlive: false), to: connection, server)
        server.closeAfterSending(connection, deadline: nil)
    }

    private func send(_ bytes: [UInt8], to connection: Connection, _ server: Server) {
        server.send(SharedBytes.line(bytes, lineEnding: false), to: connection)
    }

    // MARK: Events

    private func fanOut(_ events: [ServerSentEvent], _ server: Server) {
        guard !events.isEmpty else { return }
        let shared = events.map { (name: $0.name, bytes: SharedBytes.line($0.encoded, lineEnding: false)) }
        for connection in server.connections where connection.isOpen && connection.session.phase == .streaming {
            for event in shared {
                if connection.output.isEmpty {
                    server.send(event.bytes, to: connection)
                    statistics.eventsSent += 1
                } else if let index = connection.session.waiting.firstIndex(where: { $0.name == event.name }) {
                    connection.session.waiting[index].bytes = event.bytes
                    statistics.eventsReplaced += 1
                } else {
                    connection.session.waiting.append(event)
                }
            }
        }
    }

    /// Caught up: the latest of each event it missed, in the order they first waited.
    func drained(_ connection: Connection, on server: Server) {
        guard !connection.session.waiting.isEmpty else { return }
        for event in connection.session.waiting { server.send(event.bytes, to: connection) }
        statistics.eventsSent += connection.session.waiting.count
        connection.session.waiting.removeAll(keepingCapacity: true)
    }

    /// A comment on every idle stream, so that it (and any proxy on the way) stays open.
    func tick(_ server: Server) {
        server.nextTick = MonotonicTime.now() + configuration.heartbeatInterval
        let comment = SharedBytes.line(Array(":\n\n".utf8), lineEnding: false)
        for connection in server.connections
        where connection.isOpen && connection.session.phase == .streaming && connection.output.isEmpty {
            server.send(comment, to: connection)
        }
    }
}
