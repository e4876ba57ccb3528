import System
import Threading

/// The caster's protocol over the server core: a request head, then the sourcetable, a refusal or the stream.
final class NTRIPCasterHandler: TCPServerHandler {
    enum Session {
        case request
        /// Streaming: NTRIP 2 clients get chunks.
        case streaming(chunked: Bool)
        case closing
    }

    let configuration: NTRIPCaster.Configuration
    let shared: Locked<CasterState>
    private var counts = NTRIPCaster.Statistics()
    private var streamingCount = Recount()

    init(configuration: NTRIPCaster.Configuration, shared: Locked<CasterState>) {
        self.configuration = configuration
        self.shared = shared
    }

    func makeSession() -> Session { .request }

    func connected(_ connection: Connection, on server: Server) {
        connection.deadline = .now() + configuration.requestTimeout
    }

    func refusal(on server: Server) -> [UInt8]? {
        Array("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n".utf8)
    }

    func woken(_ server: Server) -> Bool {
        let (incoming, stopping) = shared.withLock { state in
            defer { state.outbox.removeAll(keepingCapacity: true) }
            return (state.outbox, state.stopping)
        }
        guard !stopping else { return false }
        guard !incoming.isEmpty else { return true }
        for connection in server.connections where connection.isOpen {
            guard case .streaming(let chunked) = connection.session else { continue }
            for frame in incoming { server.send(chunked ? frame.chunk : frame.raw, to: connection) }
        }
        return true
    }

    func deadlinePassed(_ connection: Connection, on server: Server) {
        if case .request = connection.session { counts.badRequests += 1 }
        server.close(connection)
    }

    func roundEnded(_ server: Server) {
        let streaming = streamingCount.value(server) { connection in
            if case .streaming = connection.session { return true }
            return false
        }
        let core = server.statistics
        shared.withLock { state in
            let frames = (state.statistics.frames, state.statistics.bytes)
            state.statistics = counts
            (state.statistics.frames, state.statistics.bytes) = frames
            state.statistics.streaming = streaming
            state.statistics.refused = core.refused
            state.statistics.disconnectedSlow = core.disconnectedSlow
        }
    }

    // MARK: The request

    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
        guard case .request = connection.session else { return }  // a streaming client's GGA: dropped
        connection.input.append(contentsOf: bytes)
        let parsed = connection.input.withUnsafeBytes { HTTPRequest.parse($0, limit: configuration.requestLimit) }
        switch parsed {
        case .incomplete:
            return
        case .invalid(let status, let reason):
            counts.badRequests += 1
            finish(connection, server, "HTTP/1.1 \(status.code) \(status.reason)", body: reason + "\r\n")
        case .request(let request, _):
            connection.input = []
            streamingCount.invalidate()
            answer(request, connection, server)
        }
    }

    private func answer(_ request: HTTPRequest, _ connection: Connection, _ server: Server) {
        let version2 = request.extensionHeaders["ntrip-version"]?.lowercased().contains("ntrip/2") ?? false
        guard request.method == "GET" else {
            counts.badRequests += 1
            return finish(connection, server, "HTTP/1.1 405 Method Not Allowed", body: "")
        }
        let mount = String(request.path.drop { $0 == "/" })
        if mount.isEmpty || (mount != configuration.mount && !version2) {
            if !mount.isEmpty { counts.notFound += 1 }
            counts.sourcetables += 1
            return sendSourcetable(connection, server, version2: version2)
        }
        guard mount == configuration.mount else {
            counts.notFound += 1
            return finish(connection, server, "HTTP/1.1 404 Not Found", body: "no mount point '\(mount)'\r\n")
        }
        if let authorize = configuration.authorize {
            guard let (user, password) = HTTPRequest.basicCredentials(request.authorization),
                authorize(user, password)
            else {
                counts.unauthorized += 1
                return finish(
                    connection, server, "HTTP/1.\(version2 ? 1 : 0) 401 Unauthorized",
                    headers: ["WWW-Authenticate: Basic realm=\"\(configuration.mount)\""], body: "")
            }
        }
        counts.streamed += 1
        connection.deadline = nil
        connection.session = .streaming(chunked: version2)
        let head =
            version2
            ? "HTTP/1.1 200 OK\r\nNtrip-Version: Ntrip/2.0\r\nServer: NTRIP \(configuration.server)\r\n"
                + "Content-Type: gnss/data\r\nTransfer-Encoding: chunked\r\nCache-Control: no-store\r\n"
                + "Connection: close\r\n\r\n"
            : "ICY 200 OK\r\n"
        send(Array(head.utf8), to: connection, server)
    }

    private func sendSourcetable(_ connection: Connection, _ server: Server, version2: Bool) {
        var stream = configuration.stream
        stream.mount = configuration.mount
        if stream.latitude == nil, let station = shared.withLock({ $0.station }) {
            (stream.latitude, stream.longitude) = (station.latitude, station.longitude)
        }
        stream.authentication = configuration.authorize == nil ? "N" : "B"
        let table = Array((Sourcetable.line(stream) + "\r\nENDSOURCETABLE\r\n").utf8)
        let head =
            version2
            ? "HTTP/1.1 200 OK\r\nNtrip-Version: Ntrip/2.0\r\nServer: NTRIP \(configuration.server)\r\n"
                + "Content-Type: gnss/sourcetable\r\nContent-Length: \(table.count)\r\nConnection: close\r\n\r\n"
            : "SOURCETABLE 200 OK\r\nServer: NTRIP \(configuration.server)\r\nContent-Type: text/plain\r\n"
                + "Content-Length: \(table.count)\r\n\r\n"
        connection.session = .closing
        send(Array(head.utf8) + table, to: connection, server)
        server.closeAfterSending(connection, deadline: .now() + .seconds(5))
    }

    /// A status line (and a short body), then the connection closes once it is sent.
    private func finish(
        _ connection: Connection, _ server: Server, _ statusLine: String, headers: [String] = [], body: String
    ) {
        connection.session = .closing
        var text = statusLine + "\r\n"
        for header in headers { text += header + "\r\n" }
        text += "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        send(Array(text.utf8), to: connection, server)
        server.closeAfterSending(connection, deadline: .now() + .seconds(5))
    }

    private func send(_ bytes: [UInt8], to connection: Connection, _ server: Server) {
        bytes.withUnsafeBytes { server.send(SharedBytes($0, lineEnding: false), to: connection) }
    }
}
