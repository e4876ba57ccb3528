import Pipeline
import Threading

/// A `tcp://`, `udp://` or `gpsd://` source read as one input by the commands that read files (`parse`, `convert`,
/// `trips`, `plot`, `publish`): a stream until the peer closes the connection or SIGINT/SIGTERM ends it (then the
/// command finishes as at the end of a file). A connection is not made again: a refused one, or a name that does not
/// resolve, is the input's error.
final class NetworkInput {
    let address: NetworkSourceAddress
    private let failure = Locked<String?>(nil)
    private var source: any ByteSource

    /// The source `text` names, when it starts with a scheme; `nil` for a path or `-`.
    /// - Throws: ``RuntimeError`` when it starts with a scheme but is not a valid source.
    static func address(_ text: String) throws(RuntimeError) -> NetworkSourceAddress? {
        do {
            return try NetworkSourceAddress.parse(text)
        } catch {
            throw RuntimeError(error.description)
        }
    }

    /// Takes SIGINT and SIGTERM from now on: they end the stream, not the process.
    init(_ address: NetworkSourceAddress) {
        self.address = address
        source = address.makeByteSource(reconnects: false, failure: failure)
        StopSignal.install()
    }

    /// Calls `body` with each chunk received until the stream ends.
    /// - Throws: ``RuntimeError`` when the source failed (refused, unresolvable, port in use), or what `body` throws.
    func forEachChunk(bufferSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while !StopSignal.isRequested {
            switch source.read(into: buffer, timeout: .milliseconds(100)) {
            case .bytes(let count):
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)]))
            case .timedOut, .status:
                continue
            case .end:
                if let message = failure.withLock({ $0 }) { throw RuntimeError(message) }
                return
            }
        }
    }
}
