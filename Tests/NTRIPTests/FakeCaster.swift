import Glibc
import NMEA
import System
import TestSupport
import Threading

/// An NTRIP caster for the client's tests, on a thread of its own: it answers each request as told (NTRIP 1 or 2,
/// chunked, a refusal, a sourcetable), streams the bytes it is given, and records what the client sent: its request
/// heads, and the bytes after (GGA), with their arrival times.
final class FakeCaster: @unchecked Sendable {
    enum Answer: Sendable {
        /// `ICY 200 OK`, then the stream.
        case version1
        /// `HTTP/1.1 200 OK` with `Transfer-Encoding: chunked`, the stream in chunks of `chunk` bytes.
        case version2(chunk: Int)
        /// An HTTP status line and nothing else.
        case refuse(String)
        /// A sourcetable (what casters answer for a mount they do not have).
        case sourcetable(String)
    }

    let port: Int
    private let listener: FileDescriptor
    private let answer: Answer
    private let stream: [UInt8]
    /// Close each connection once the stream is sent.
    private let dropsAfterStream: Bool
    private let state = Locked<(requests: [String], received: [(MonotonicTime, [UInt8])])>(([], []))
    private let stopping = Locked(false)
    private var thread: NativeThread?

    init(_ answer: Answer, stream: [UInt8] = [], dropsAfterStream: Bool = false) throws {
        listener = try FileDescriptor.socket(family: AF_INET, nonBlocking: true)
        try listener.setOption(.reuseAddress, 1)
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        port = Int(try listener.localAddress().numeric?.port ?? 0)
        self.answer = answer
        self.stream = stream
        self.dropsAfterStream = dropsAfterStream
        thread = NativeThread(name: "caster") { [self] in run() }
    }

    deinit { stop() }

    func stop() {
        stopping.withLock { $0 = true }
        thread?.join()
        thread = nil
        try? listener.close()
    }

    var requests: [String] { state.withLock { $0.requests } }

    /// The lines the client sent after its request (GGA sentences), with when each arrived.
    var sentences: [(at: MonotonicTime, text: String)] {
        state.withLock { state in
            state.received.flatMap { time, bytes in
                String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map { (time, String($0)) }
            }
        }
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run() {
        while !isStopping {
            guard (try? listener.poll(.readable, timeoutMilliseconds: 50)) == .readable,
                let connection = try? listener.accept()
            else { continue }
            serve(connection)
            try? connection.close()
        }
    }

    private func serve(_ connection: FileDescriptor) {
        var request: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while !isStopping, !request.ends(with: [0x0D, 0x0A, 0x0D, 0x0A]) {
            guard (try? connection.poll(.readable, timeoutMilliseconds: 50)) == .readable else { continue }
            guard let count = try? connection.receive(into: buffer), count > 0 else { return }
            request += buffer[..<count]
        }
        state.withLock { $0.requests.append(String(decoding: request, as: UTF8.self)) }
        guard respond(connection) else { return }
        while !isStopping {
            guard (try? connection.poll(.readable, timeoutMilliseconds: 50)) == .readable else { continue }
            guard let count = try? connection.receive(into: buffer), count > 0 else { return }
            let bytes = Array(buffer[..<count])
            state.withLock { $0.received.append((.now(), bytes)) }
        }
    }

    /// Sends the head and the stream; `false` when the connection ends here.
    private func respond(_ connection: FileDescriptor) -> Bool {
        switch answer {
        case .refuse(let status):
            try? connection.sendAll(Array("HTTP/1.1 \(status)\r\nConnection: close\r\n\r\n".utf8))
            return false
        case .sourcetable(let table):
            try? connection.sendAll(
                Array("SOURCETABLE 200 OK\r\nContent-Type: text/plain\r\n\r\n\(table)ENDSOURCETABLE\r\n".utf8))
            return false
        case .version1:
            try? connection.sendAll(Array("ICY 200 OK\r\n".utf8) + stream)
        case .version2(let size):
            try? connection.sendAll(
                Array("HTTP/1.1 200 OK\r\nContent-Type: gnss/data\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            for start in stride(from: 0, to: stream.count, by: size) {
                let chunk = stream[start..<min(stream.count, start + size)]
                try? connection.sendAll(Array((Hex.string(UInt64(chunk.count)) + "\r\n").utf8) + chunk + [0x0D, 0x0A])
                sleep(for: .milliseconds(2))
            }
        }
        return !dropsAfterStream
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self.suffix(suffix.count)) == suffix
    }
}
