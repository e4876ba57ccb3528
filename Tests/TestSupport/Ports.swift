import Glibc
import System

/// Ports on 127.0.0.1 for servers the tests start.
public enum Ports {
    /// A TCP port nothing listens on now: the kernel's pick for a bind to port 0, released at once.
    public static func freeTCP() -> Int { free(type: Int32(SOCK_STREAM.rawValue)) }

    /// A UDP port nothing is bound to now (as ``freeTCP()``).
    public static func freeUDP() -> Int { free(type: Int32(SOCK_DGRAM.rawValue)) }

    private static func free(type: Int32) -> Int {
        do {
            let socket = try FileDescriptor.socket(family: AF_INET, type: type)
            defer { try? socket.close() }
            try socket.bind(to: .loopback(port: 0))
            return Int(try socket.localAddress().numeric?.port ?? 0)
        } catch {
            preconditionFailure("cannot find a free port: \(error)")
        }
    }

    /// `true` when a socket listens on TCP `port` (any address), as `/proc/net/tcp` and `/proc/net/tcp6` list them:
    /// without connecting, for a server that serves its first connection only (`socat TCP-LISTEN` without `fork`).
    public static func hasListener(_ port: Int) -> Bool {
        tcpSockets().contains { $0.localPort == port && $0.state == .listen }
    }

    /// A TCP socket of this machine as `/proc/net/tcp` and `/proc/net/tcp6` list it: its ports, its state and the
    /// bytes in its queues, which tell a test what the program on either end has done with what it was sent.
    public struct TCPSocket: Sendable, Hashable {
        /// The states a test looks for (`include/net/tcp_states.h`).
        public struct State: RawRepresentable, Sendable, Hashable {
            public var rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            public static let established = State(rawValue: 0x01)
            public static let listen = State(rawValue: 0x0A)
        }

        public var localPort: Int
        public var remotePort: Int
        public var state: State
        /// Bytes written and not yet acknowledged by the peer (on loopback: not yet in the peer's receive queue).
        public var sendQueue: Int
        /// Bytes received and not yet read by the program; for a listening socket, the connections it has not
        /// accepted yet.
        public var receiveQueue: Int
    }

    /// Every TCP socket (IPv4 and IPv6) now.
    public static func tcpSockets() -> [TCPSocket] {
        var sockets: [TCPSocket] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            for fields in procTable(table) {
                // "sl local_address rem_address st tx_queue:rx_queue …", the addresses ADDRESS:PORT in hex.
                guard let local = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                    let remote = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                    let state = UInt8(fields[3], radix: 16), let queues = queues(fields[4])
                else { continue }
                sockets.append(
                    TCPSocket(
                        localPort: local, remotePort: remote, state: TCPSocket.State(rawValue: state),
                        sendQueue: queues.send, receiveQueue: queues.receive))
            }
        }
        return sockets
    }

    /// The bytes waiting to be read on the UDP socket bound to `port` (any address, IPv4 or IPv6), as
    /// `/proc/net/udp` counts them (with the kernel's bookkeeping: zero means empty); `nil` when nothing is bound
    /// there. A datagram sent on loopback is in that queue when the `send` returns, so zero after the sends means
    /// the program has read them all.
    public static func udpReceiveQueue(_ port: Int) -> Int? {
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            for fields in procTable(table) {
                guard fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) == port else { continue }
                return queues(fields[4])?.receive
            }
        }
        return nil
    }

    /// The rows of a `/proc/net` table, split into fields (the header left out; rows too short dropped).
    private static func procTable(_ path: String) -> [[Substring]] {
        readTextFile(path).split(separator: "\n").dropFirst().map { $0.split(separator: " ") }.filter { $0.count > 4 }
    }

    /// `tx_queue:rx_queue`, two hex numbers.
    private static func queues(_ field: Substring) -> (send: Int, receive: Int)? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let send = Int(parts[0], radix: 16), let receive = Int(parts[1], radix: 16) else {
            return nil
        }
        return (send, receive)
    }

    /// `true` when something accepts TCP connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        guard let socket = try? FileDescriptor.socket(family: AF_INET) else { return false }
        defer { try? socket.close() }
        return (try? socket.connect(to: .loopback(port: UInt16(port)))) != nil
    }
}

/// A TCP client that reads lines with timeouts: for servers speaking line protocols (gpsd's JSON, NMEA).
public final class LineClient {
    public let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    /// Every complete line received so far (without CR LF).
    public private(set) var lines: [String] = []
    /// The server closed the connection (end of file or reset).
    public private(set) var closedByPeer = false

    /// Connects to 127.0.0.1:`port`; a small `receiveBuffer` (bytes) makes a client that stops reading fill up fast.
    public init(port: UInt16, receiveBuffer: Int32? = nil) throws(Errno) {
        descriptor = try FileDescriptor.socket(family: AF_INET)
        do {
            if let receiveBuffer { try descriptor.setOption(.receiveBufferSize, receiveBuffer) }
            try descriptor.connect(to: .loopback(port: port))
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    deinit { try? descriptor.close() }

    /// Sends all of `text` (blocking); `false` when the connection failed.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool { (try? descriptor.sendAll(bytes)) != nil }

    /// Reads what arrives within `timeout`, splitting it into lines (CR LF removed).
    public func read(timeout: Duration) {
        guard let events = try? descriptor.poll(.readable, timeoutMilliseconds: timeout.pollMilliseconds),
            !events.isEmpty
        else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let received = chunk.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try descriptor.receive(into: bytes, flags: .dontWait) }
        }
        switch received {
        case .success(0), .failure(.connectionReset), .failure(.brokenPipe):
            closedByPeer = true
        case .success(let count):
            buffer += chunk[..<count]
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                lines.append(String(decoding: line, as: UTF8.self))
                buffer.removeFirst(newline + 1)
            }
        case .failure(.wouldBlock):
            break
        case .failure:
            closedByPeer = true
        }
    }

    /// Reads until `condition` holds on the lines so far, the peer closes, or `timeout` passes.
    /// - Returns: whether `condition` holds.
    @discardableResult
    public func read(until condition: ([String]) -> Bool, timeout: Duration = .seconds(5)) -> Bool {
        let deadline = MonotonicTime.now() + timeout
        while !condition(lines) && !closedByPeer {
            let left = deadline - MonotonicTime.now()
            if left <= .zero { break }
            read(timeout: min(left, .milliseconds(50)))
        }
        return condition(lines)
    }

    /// Reads until the server closes the connection or `timeout` passes; `true` if it closed.
    public func readUntilClosed(timeout: Duration = .seconds(5)) -> Bool {
        read(until: { _ in false }, timeout: timeout)
        return closedByPeer
    }

    /// The lines of one gpsd class: `lines(of: "TPV")`.
    public func lines(of kind: String) -> [String] { lines.filter { $0.hasPrefix("{\"class\":\"\(kind)\"") } }
}
