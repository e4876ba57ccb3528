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
        let local = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // "sl local_address rem_address st …": state 0A is LISTEN.
            for line in readTextFile(table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                if fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "0A" { return true }
            }
        }
        return false
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

extension String {
    /// The text with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
