import System

/// Bytes read from a file descriptor: a file, standard input, a pipe, a FIFO, a pty, a socket.
///
/// Waits with `poll(2)`, reads with `read(2)` (``FileDescriptor``'s, which resume after signals). Reports
/// ``ReceiverStatus/connected(device:baudRate:detail:)`` first; end of file ends the source
/// (``ReceiverStatus/Reason/endOfFile``).
/// A failed read (EIO when a pty's other end closes, say) is reported as a disconnection and ends the source too:
/// reconnecting is the business of a serial-port source.
public final class FileByteSource: ByteSource {
    /// The descriptor read from.
    public let fileDescriptor: FileDescriptor
    /// The name reported in status records (a path, or `-`).
    public let name: String
    private let closesOnDeinit: Bool
    private var announced = false
    private var failure: ReceiverStatus.Reason?

    /// Reads `fileDescriptor`, which stays open unless `closesOnDeinit`.
    public init(fileDescriptor: FileDescriptor, name: String, closesOnDeinit: Bool = false) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.closesOnDeinit = closesOnDeinit
    }

    /// Opens `path` for reading (`open(2)` with `O_RDONLY | O_CLOEXEC | O_NOCTTY`).
    /// - Throws: ``FileByteSource/OpenError`` with the `errno`.
    public convenience init(path: String) throws(OpenError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal])
        } catch {
            throw OpenError(path: path, errorNumber: error.rawValue)
        }
        self.init(fileDescriptor: descriptor, name: path, closesOnDeinit: true)
    }

    deinit {
        if closesOnDeinit { try? fileDescriptor.close() }
    }

    /// A file that could not be opened.
    public struct OpenError: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var errorNumber: Int32

        public init(path: String, errorNumber: Int32) {
            self.path = path
            self.errorNumber = errorNumber
        }

        public var description: String { "\(path): \(Errno(rawValue: errorNumber))" }
    }

    /// - Complexity: one `poll` and one `read` system call.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if !announced {
            announced = true
            return .status(.connected(device: name))
        }
        if let failure { return .end(failure) }
        do throws(Errno) {
            let milliseconds = Int32(clamping: (timeout.nanosecondsClamped + 999_999) / 1_000_000)
            if try fileDescriptor.poll(.readable, timeoutMilliseconds: milliseconds).isEmpty { return .timedOut }
            let count = try fileDescriptor.read(into: buffer)
            return count > 0 ? .bytes(count) : .end(.endOfFile)
        } catch .wouldBlock {
            return .timedOut
        } catch {
            failure = .readError
            return .status(
                .disconnected(
                    device: name, reason: .readError, errorNumber: error.rawValue, detail: error.description))
        }
    }
}
