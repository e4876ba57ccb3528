import NMEA
import System
import Watch

/// A connection to a gpsd (or `nmea serve`) speaking the gpsd JSON protocol: after connecting it sends
/// `?WATCH={"enable":true,"json":true}` and reads one report per line (``GpsdSession``). When the server goes away
/// the feed tries again every two seconds, keeping the last fix on screen meanwhile.
final class GpsdFeed: WatchFeed {
    let host: String
    let port: Int
    private(set) var descriptor: FileDescriptor?
    private var session = GpsdSession()
    private var buffer: [UInt8] = []
    /// When to connect again after the connection was lost (nil: connected); the one backoff, 0.5 s doubling to 5.
    private var retry: ReconnectBackoff?
    private var messages: [String] = []
    private var fixes = 0
    /// Set by a successful connection: the status says so at the next pump.
    private var justConnected = false
    static let watchCommand = #"?WATCH={"enable":true,"json":true}"# + "\n"
    /// The longest report line kept (a SKY with 64 satellites is under 8 KiB).
    static let maximumLineLength = 65_536

    /// The reconnection rule: 0.5 s, doubling to 5 s, as every network source waits.
    static func backoff() -> ReconnectBackoff { ReconnectBackoff(minimum: 0.5, maximum: 5) }

    /// Connects at once; a server that cannot be reached is an error here (later, the feed retries).
    init(host: String, port: Int) throws(RuntimeError) {
        self.host = host
        self.port = port
        if let error = connect() {
            throw RuntimeError("cannot connect to gpsd at \(address): \(error)")
        }
    }

    deinit { disconnect() }

    var address: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    var hasEnded: Bool { false }
    var failure: String? { nil }

    func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    func wait(milliseconds: Int32) {
        guard let descriptor else {
            sleep(for: .milliseconds(Int(milliseconds)))
            return
        }
        _ = try? descriptor.poll(.readable, timeoutMilliseconds: milliseconds)
    }

    func pump(_ model: WatchModel, fix: (Fix) -> Void) {
        if descriptor == nil {
            guard retry?.isDue == true else { return }
            if let error = connect() {
                retry!.failed()
                model.state.status = "cannot connect to gpsd at \(address): \(error); retrying"
                return
            }
            retry = nil
            messages.append("connected to gpsd at \(address) again")
        }
        if justConnected {
            model.state.status = "connected"
            justConnected = false
        }
        let closed = receive()
        var lineStart = 0
        while let newline = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > lineStart && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            take(session.handle(line: buffer[lineStart..<end]), model, fix: fix)
            lineStart = newline + 1
        }
        buffer.removeFirst(lineStart)
        if buffer.count > GpsdFeed.maximumLineLength { buffer.removeAll() }
        if let closed {
            disconnect()
            buffer.removeAll()
            retry = GpsdFeed.backoff()
            retry!.failed()
            model.state.status = closed + "; reconnecting"
            messages.append(closed + "; reconnecting")
        }
    }

    /// Appends what the socket holds to the buffer; why the connection ended, when it did.
    private func receive() -> String? {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while let descriptor {
            let received = chunk.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try descriptor.receive(into: bytes) }
            }
            switch received {
            case .success(let count) where count > 0:
                buffer += chunk[0..<count]
                continue
            case .success:
                return "gpsd at \(address) closed the connection"
            case .failure(.wouldBlock):
                return nil
            case .failure(let error):
                return "lost gpsd at \(address): \(error)"
            }
        }
        return nil
    }

    /// What one report of gpsd's says, into the model (and a fix to `fix`).
    private func take(_ report: GpsdSession.Report, _ model: WatchModel, fix: (Fix) -> Void) {
        switch report {
        case .fix:
            fixes += 1
            model.received(session.fix, at: MonotonicTime.now().seconds)
            model.state.fixCount = fixes
            fix(session.fix)
        case .sky:
            // The satellites and DOPs of the fix on screen (its age is the TPV's).
            if model.state.fix != nil { model.state.fix = session.fix }
        case .error(let message):
            model.state.status = "gpsd: " + message
            messages.append("gpsd: " + message)
        case .device, .version, .other, .malformed:
            break
        }
        model.state.device = session.device
        model.state.baudRate = session.baudRate
    }

    func stop() { disconnect() }

    private func disconnect() {
        try? descriptor?.close()
        descriptor = nil
    }

    /// Resolves and connects (each address in turn, 3 s at most each), then asks for JSON reports. Returns the
    /// error in words, or `nil` once connected.
    private func connect() -> String? {
        let addresses: [ResolvedAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: UInt16(port))
        } catch {
            return error.description
        }
        var lastError = "no address"
        for candidate in addresses {
            let socket: FileDescriptor
            do {
                socket = try FileDescriptor.socket(
                    family: candidate.family, type: candidate.type, protocol: candidate.protocol, nonBlocking: true)
            } catch {
                lastError = error.description
                continue
            }
            do {
                try socket.connect(to: candidate.address, timeoutMilliseconds: 3000)
                try socket.sendAll(Array(GpsdFeed.watchCommand.utf8))
            } catch {
                lastError = error.description
                try? socket.close()
                continue
            }
            descriptor = socket
            session = GpsdSession()
            justConnected = true
            return nil
        }
        return lastError
    }

    /// `HOST:PORT`, `HOST` (port 2947), `[IPv6]:PORT` or `[IPv6]`.
    static func parseAddress(_ text: String) -> (host: String, port: Int)? {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard host.firstIndex(of: ":") == colon else { return nil }  // a bare IPv6 address needs brackets
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { return nil }
        var port = 2947
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else { return nil }
            port = number
        }
        return (String(host), port)
    }
}
