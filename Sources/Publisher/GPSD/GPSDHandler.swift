import JSON
import System
import Threading

/// gpsd's JSON protocol over the server core, on the socket thread: VERSION on connect, the commands a client
/// sends answered in order (``CommandScanner``), and the reports the consumer thread encoded handed to every client
/// whose watch policy wants them.
final class GPSDHandler: TCPServerHandler {
    typealias Session = WatchPolicy

    let configuration: GPSDServer.Configuration
    let shared: Locked<GPSDServer.SharedState>
    var json = JSONWriter(capacity: 16 * 1024)
    /// ERROR objects sent.
    var errors = 0
    /// Clients closed after a command longer than the limit.
    var disconnectedOverlong = 0
    /// Clients watching, counted again only when a client came, left or sent a command.
    private var watchers = Recount()

    init(configuration: GPSDServer.Configuration, shared: Locked<GPSDServer.SharedState>) {
        self.configuration = configuration
        self.shared = shared
    }

    func makeSession() -> WatchPolicy { WatchPolicy() }

    func connected(_ connection: Connection, on server: Server) {
        json.reset()
        GPSDReports.writeVersion(release: configuration.release, revision: configuration.revision, into: &json)
        enqueue(connection, server)
    }

    func refusal(on server: Server) -> [UInt8]? {
        errors += 1
        json.reset()
        GPSDReports.writeError(
            "Too many clients: \(configuration.maxClients) are connected; try again later", into: &json)
        return json.bytes + [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    /// Hands the reports and sentences encoded since the last round to every client whose policy wants them, in
    /// the order they were encoded (a client watching both gets them interleaved as they came).
    func woken(_ server: Server) -> Bool {
        guard let incoming = shared.takeOutbox() else { return false }
        guard !incoming.isEmpty else { return true }
        for connection in server.connections where connection.isOpen {
            let policy = connection.session
            let (reports, sentences) = (policy.wantsReports, policy.wantsSentences)
            guard reports || sentences else { continue }
            for item in incoming where policy.wants(item.audience) {
                server.send(item.bytes, to: connection)
            }
        }
        return true
    }

    func roundEnded(_ server: Server) {
        let watching = watchers.value(server) { connection in
            let policy = connection.session
            return policy.wantsReports || policy.wantsSentences
        }
        shared.publish(
            server.statistics, watchers: watching, errors: errors, disconnectedOverlong: disconnectedOverlong)
    }

    // MARK: Reading and answering

    /// Answers every complete command in what the client has sent so far; one longer than the limit gets an ERROR
    /// and the client is closed once it is sent.
    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
        watchers.invalidate()
        connection.input.append(contentsOf: bytes)
        let limit = configuration.maximumCommandLength
        let scan = connection.input.withUnsafeBytes { CommandScanner.scan($0, maximumLength: limit) }
        for command in scan.commands {
            answer(command, connection, server)
            if connection.isClosed { return }
        }
        if scan.overflow {
            connection.input.removeAll()
            disconnectedOverlong += 1
            reply(error: "Request too long: commands are at most \(limit) bytes; closing", to: connection, server)
            server.closeAfterSending(connection, deadline: MonotonicTime.now() + configuration.closingGracePeriod)
        } else if scan.consumed > 0 {
            connection.input.removeFirst(scan.consumed)
        }
    }

    private func answer(_ command: ClientCommand, _ connection: Connection, _ server: Server) {
        let (device, path, latestTPV, latestSKY) = shared.withLock {
            ($0.device, $0.devicePath, $0.latestTPV, $0.latestSKY)
        }
        switch command {
        case .watch(let request):
            if let request { connection.session = request.applied(to: connection.session) }
            json.reset()
            GPSDReports.writeDevices(device, into: &json)
            enqueue(connection, server)
            json.reset()
            GPSDReports.writeWatch(connection.session, into: &json)
            enqueue(connection, server)
            if request?.enable == true, connection.session.wantsReports, configuration.sendsLatestOnWatch,
                device != nil, let latestTPV
            {
                server.send(.line(latestTPV), to: connection)
                if let latestSKY { server.send(.line(latestSKY), to: connection) }
            }
        case .poll:
            json.reset()
            GPSDReports.writePoll(
                active: device == nil ? 0 : 1, tpv: latestTPV, sky: latestSKY, device: path, into: &json)
            enqueue(connection, server)
        case .devices:
            json.reset()
            GPSDReports.writeDevices(device, into: &json)
            enqueue(connection, server)
        case .version:
            json.reset()
            GPSDReports.writeVersion(release: configuration.release, revision: configuration.revision, into: &json)
            enqueue(connection, server)
        case .device(let changes):
            if changes {
                reply(error: "Changing device settings is not supported", to: connection, server)
            } else if let device {
                json.reset()
                GPSDReports.writeDevice(device, into: &json)
                enqueue(connection, server)
            } else {
                reply(error: "No device is active", to: connection, server)
            }
        case .invalid(let message):
            reply(error: message, to: connection, server)
        }
    }

    private func reply(error message: String, to connection: Connection, _ server: Server) {
        errors += 1
        json.reset()
        GPSDReports.writeError(message, into: &json)
        enqueue(connection, server)
    }

    /// Queues what `json` holds for `connection`, with CR LF.
    private func enqueue(_ connection: Connection, _ server: Server) {
        server.send(json.bytes.withUnsafeBytes { SharedBytes($0) }, to: connection)
    }
}

/// Raw NMEA over the server core (`--nmea-tcp`): every sentence to every client from its connection on, no handshake;
/// what a client sends is dropped, and one over the limit is closed without a word.
final class RawNMEAHandler: TCPServerHandler {
    let shared: Locked<GPSDServer.SharedState>

    init(shared: Locked<GPSDServer.SharedState>) { self.shared = shared }

    func makeSession() {}
    func connected(_ connection: Connection, on server: Server) {}
    func refusal(on server: Server) -> [UInt8]? { nil }
    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {}

    func woken(_ server: Server) -> Bool {
        guard let incoming = shared.takeOutbox() else { return false }
        for sentence in incoming where sentence.audience == .sentences {
            server.broadcast(sentence.bytes) { _ in true }
        }
        return true
    }

    func roundEnded(_ server: Server) {
        shared.publish(server.statistics, watchers: server.connections.count, errors: 0, disconnectedOverlong: 0)
    }
}

extension Locked<GPSDServer.SharedState> {
    /// The reports the consumer thread encoded since the last call (counted as queued until the next ``publish``);
    /// `nil` once the server is stopping.
    func takeOutbox() -> [GPSDServer.Outgoing]? {
        withLock { state in
            guard !state.stopping else { return nil }
            var incoming: [GPSDServer.Outgoing] = []
            swap(&incoming, &state.outbox)
            // Still queued until the fan-out and the flush, when `publish` counts them again.
            state.statistics.queuedBytes += incoming.reduce(0) { $0 + $1.bytes.count }
            return incoming
        }
    }

    /// Publishes the socket thread's figures, keeping the consumer thread's.
    func publish(_ core: TCPServerStatistics, watchers: Int, errors: Int, disconnectedOverlong: Int) {
        withLock { state in
            state.statistics.clients = core.connections
            state.statistics.watchers = watchers
            state.statistics.accepted = core.accepted
            state.statistics.refused = core.refused
            state.statistics.disconnectedSlow = core.disconnectedSlow
            state.statistics.disconnectedOverlong = disconnectedOverlong
            state.statistics.errors = errors
            state.statistics.bytesSent = core.bytesSent
            state.statistics.queuedBytes = core.queuedBytes
        }
    }
}
