import Glibc
import System
import Threading

/// A TCP relay on 127.0.0.1 for one client: what the client sends goes on to a server, what the server answers goes
/// back, and both directions are kept. A test points a client it cannot look into (`nmea parse gpsd://`) at
/// ``port`` and waits for the protocol event it needs, such as the server's answer to the client's `?WATCH`:
///
///     let relay = try TCPRelay(to: server.gpsdPort)
///     let parse = try ChildProcess([nmea, "parse", "gpsd://127.0.0.1:\(relay.port)"])
///     #expect(waitUntil(timeout: .seconds(10)) { relay.fromServer.contains("{\"class\":\"WATCH\"") })
///     // the server now counts parse as a watcher: everything fed from here on reaches it
///
/// An end of file from either side is passed on as a shutdown of the other side's writing; the relay ends when both
/// directions have ended, or on ``stop()``.
public final class TCPRelay: @unchecked Sendable {
    /// The port the client connects to.
    public let port: UInt16
    private let listener: FileDescriptor
    private let serverPort: UInt16
    private let wakeUp = WakeUp()
    private let state = Locked(State())
    private var thread: NativeThread?

    private struct State {
        var fromClient: [UInt8] = []
        var fromServer: [UInt8] = []
        var stopping = false
        var finished = false
    }

    /// Listens on a free port of 127.0.0.1; once a client connects, connects to 127.0.0.1:`serverPort` for it.
    public init(to serverPort: UInt16) throws(Errno) {
        self.serverPort = serverPort
        listener = try FileDescriptor.socket(family: AF_INET)
        do {
            try listener.bind(to: .loopback(port: 0))
            try listener.listen()
            port = try listener.localAddress().port
        } catch {
            try? listener.close()
            throw error
        }
        thread = NativeThread(name: "tcp-relay") { [self] in relay() }
    }

    deinit {
        stop()
        try? listener.close()
    }

    /// What the client has sent so far, as text.
    public var fromClient: String { String(decoding: state.withLock { $0.fromClient }, as: UTF8.self) }
    /// What the server has sent towards the client so far, as text.
    public var fromServer: String { String(decoding: state.withLock { $0.fromServer }, as: UTF8.self) }
    /// `true` once both directions have ended (or the relay failed or was stopped).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Closes both connections and ends the relay's thread.
    public func stop() {
        state.withLock { $0.stopping = true }
        wakeUp.signal()
        thread?.join()
        thread = nil
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func relay() {
        defer { state.withLock { $0.finished = true } }
        // The client, accepted while watching for stop.
        while !isStopping {
            guard
                let events = try? FileDescriptor.poll(
                    (listener, .readable), (wakeUp.fileDescriptor, .readable), timeoutMilliseconds: -1)
            else { return }
            if !events.0.isEmpty { break }
        }
        guard !isStopping, let client = try? listener.accept() else { return }
        defer { try? client.close() }
        guard let server = try? FileDescriptor.socket(family: AF_INET) else { return }
        defer { try? server.close() }
        guard (try? server.connect(to: .loopback(port: serverPort))) != nil else { return }

        var buffer = [UInt8](repeating: 0, count: 65_536)
        var clientOpen = true
        var serverOpen = true
        while (clientOpen || serverOpen) && !isStopping {
            var entries: [FileDescriptor.PollEntry] = [
                .init(clientOpen ? client : nil, .readable), .init(serverOpen ? server : nil, .readable),
                .init(wakeUp.fileDescriptor, .readable),
            ]
            guard (try? FileDescriptor.poll(&entries, timeoutMilliseconds: -1)) != nil else { return }
            if clientOpen && !entries[0].returned.isEmpty {
                clientOpen = forward(from: client, to: server, &buffer) { $0.fromClient += $1 }
            }
            if serverOpen && !entries[1].returned.isEmpty {
                serverOpen = forward(from: server, to: client, &buffer) { $0.fromServer += $1 }
            }
        }
    }

    /// Moves what `source` has to `destination` and keeps it; at the end of `source` (or an error) shuts down
    /// `destination`'s writing and returns `false`.
    private func forward(
        from source: FileDescriptor, to destination: FileDescriptor, _ buffer: inout [UInt8],
        keep: (inout State, ArraySlice<UInt8>) -> Void
    ) -> Bool {
        let count = buffer.withUnsafeMutableBytes { (try? source.receive(into: $0)) ?? 0 }
        guard count > 0 else {
            try? destination.shutdown(.write)
            return false
        }
        let bytes = buffer[..<count]
        state.withLock { keep(&$0, bytes) }
        return (try? destination.sendAll(Array(bytes))) != nil
    }
}
