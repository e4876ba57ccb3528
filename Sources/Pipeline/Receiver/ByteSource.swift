/// Where a pipeline's bytes come from: a file, a serial port, a pty, a socket, a test stub.
///
/// One method, called again and again on the pipeline's reader thread:
///
///     struct Stub: ByteSource {
///         var chunks: [[UInt8]]
///         mutating func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
///             guard !chunks.isEmpty else { return .end(.endOfFile) }
///             let chunk = chunks.removeFirst()
///             buffer.copyBytes(from: chunk)
///             return .bytes(chunk.count)
///         }
///     }
///
/// An adapter for a serial port maps its own outcomes: data → ``ByteSourceEvent/bytes(_:)``, nothing within the
/// timeout → ``ByteSourceEvent/timedOut``, a change of connection (opened at a rate, unplugged, searching again) →
/// ``ByteSourceEvent/status(_:)``, and giving up → ``ByteSourceEvent/end(_:)``. A source that reconnects by itself
/// just reports `.disconnected` then `.connected` and carries on; the pipeline starts framing afresh after a
/// disconnection. Sources that push bytes from a loop of their own (a callback API) need no adapter at all: call
/// the ``PipelineFeeder`` from that loop (``ReceiverPipeline/feed(_:)``).
public protocol ByteSource: SendableMetatype {
    /// Waits at most `timeout` for input and copies what has arrived to the start of `buffer`.
    ///
    /// Return within about `timeout`: the reader thread looks for a stop request between reads.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent
}

/// What one ``ByteSource/read(into:timeout:)`` brought.
public enum ByteSourceEvent: Sendable, Hashable {
    /// This many bytes (at least one) were written at the start of the buffer.
    case bytes(Int)
    /// Nothing arrived within the timeout.
    case timedOut
    /// The connection changed (and no bytes were read): published as a status record.
    case status(ReceiverStatus)
    /// No more input, ever, for this reason (``ReceiverStatus/Reason/endOfFile`` for the end of a file).
    case end(ReceiverStatus.Reason)
}

/// Bytes held in memory, handed out in chunks of a given size: for tests and for replaying a buffer.
///
/// Reports ``ReceiverStatus/connected(device:baudRate:detail:)`` with `device` first, then the bytes, then the end.
public struct MemoryByteSource: ByteSource, Sendable {
    public let bytes: [UInt8]
    /// The most bytes handed out per read.
    public let chunkSize: Int
    /// The name reported in the connected status (empty: no status is reported).
    public let device: String
    private var offset = 0
    private var announced = false

    /// - Complexity: O(1).
    public init(_ bytes: [UInt8], chunkSize: Int = 4096, device: String = "memory") {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.bytes = bytes
        self.chunkSize = chunkSize
        self.device = device
    }

    /// - Complexity: O(*n*) in the bytes handed out.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if !announced {
            announced = true
            if !device.isEmpty { return .status(.connected(device: device)) }
        }
        guard offset < bytes.count else { return .end(.endOfFile) }
        let count = min(chunkSize, buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }
}
