import Glibc
import System

/// A raw-socket HTTP client for the tests: sends exactly the bytes given, reads what comes back.
public enum RawHTTP {
    /// A response as read off the socket.
    public struct Response: Sendable {
        public var statusLine: String
        public var headers: [String]
        public var body: String

        public var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
        public func header(_ name: String) -> String? {
            let prefix = name.lowercased() + ":"
            return headers.first { $0.lowercased().hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count).drop { $0 == " " })
            }
        }
    }

    /// Sends `request` on a new connection and reads until the server closes it (or `timeout`): everything it
    /// sent, CR LF as LF.
    public static func exchange(port: UInt16, _ request: String, timeout: Duration = .seconds(5)) throws -> String {
        let socket = try FileDescriptor.socket(family: AF_INET)
        defer { try? socket.close() }
        try socket.connect(to: .loopback(port: port))
        try socket.sendAll(Array(request.utf8))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = MonotonicTime.now() + timeout
        while MonotonicTime.now() < deadline {
            guard let events = try? socket.poll(.readable, timeoutMilliseconds: 50), !events.isEmpty else { continue }
            let count = chunk.withUnsafeMutableBytes { (try? socket.receive(into: $0, flags: .dontWait)) ?? 0 }
            if count == 0 { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self).replacing("\r\n", with: "\n")
    }

    /// `GET path` with `Connection: close`, parsed.
    public static func get(port: UInt16, _ path: String, method: String = "GET") throws -> Response {
        try parse(exchange(port: port, "\(method) \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"))
    }

    /// The first response in `text` (lines joined by LF, CR removed).
    public static func parse(_ text: String) -> Response {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let blank = lines.firstIndex(of: "") else {
            return Response(statusLine: lines.first ?? "", headers: Array(lines.dropFirst()), body: "")
        }
        return Response(
            statusLine: lines[0], headers: Array(lines[1..<blank]),
            body: lines[(blank + 1)...].joined(separator: "\n"))
    }
}
