import Glibc

/// Bytes read from a file descriptor: a file, standard input, a pipe, a FIFO, a pty, a socket.
///
/// Waits with `poll(2)`, reads with `read(2)` (both retried on `EINTR`). Reports
/// ``ReceiverStatus/connected(device:baudRate:detail:)`` first; end of file ends the source (``ReceiverStatus/Reason/endOfFile``).
/// A failed read (EIO when a pty's other end closes, say) is reported as a disconnection and ends the source too:
/// reconnecting is the business of a serial-port source.
public final class FileByteSource: ByteSource {
    /// The descriptor read from.
    public let fileDescriptor: Int32
    /// The name reported in status records (a path, or `-`).
    public let name: String
    private let closesOnDeinit: Bool
    private var announced = false
    private var failure: ReceiverStatus.Reason?

    /// Reads `fileDescriptor`, which stays open unless `closesOnDeinit`.
    public init(fileDescriptor: Int32, name: String, closesOnDeinit: Bool = false) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.closesOnDeinit = closesOnDeinit
    }

    /// Opens `path` for reading (`open(2)` with `O_RDONLY | O_CLOEXEC | O_NOCTTY`).
    /// - Throws: ``FileByteSource/OpenError`` with the `errno`.
    public convenience init(path: String) throws(OpenError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw OpenError(path: path, errorNumber: errno) }
        self.init(fileDescriptor: descriptor, name: path, closesOnDeinit: true)
    }

    deinit {
        if closesOnDeinit { _ = close(fileDescriptor) }
    }

    /// A file that could not be opened.
    public struct OpenError: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var errorNumber: Int32

        public init(path: String, errorNumber: Int32) {
            self.path = path
            self.errorNumber = errorNumber
        }

        public var description: String { "\(path): \(String(cString: strerror(errorNumber)))" }
    }

    /// - Complexity: one `poll` and one `read` system call.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if !announced {
            announced = true
            return .status(.connected(device: name))
        }
        if let failure { return .end(failure) }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: (timeout.nanosecondsClamped + 999_999) / 1_000_000)
        var ready: Int32
        repeat { ready = poll(&descriptor, 1, milliseconds) } while ready < 0 && errno == EINTR
        if ready == 0 { return .timedOut }
        var count: Int
        repeat {
            count = Glibc.read(fileDescriptor, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        if count > 0 { return .bytes(count) }
        if count == 0 { return .end(.endOfFile) }
        let error = errno
        if error == EAGAIN || error == EWOULDBLOCK { return .timedOut }
        failure = .readError
        return .status(.disconnected(device: name, reason: .readError, errorNumber: error,
                                     detail: String(cString: strerror(error))))
    }
}
