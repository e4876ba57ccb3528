import Compression
import System

/// Bytes read from a file descriptor: a file, standard input, a pipe, a FIFO, a pty, a socket.
///
/// Waits with `poll(2)`, reads with `read(2)` (``FileDescriptor``'s, which resume after signals). Reports
/// ``ReceiverStatus/connected(device:baudRate:detail:)`` first; end of file ends the source
/// (``ReceiverStatus/Reason/endOfFile``).
/// A failed read (EIO when a pty's other end closes, say) is reported as a disconnection and ends the source too:
/// reconnecting is the business of a serial-port source.
///
/// A gzip or Zstandard input (told by the first bytes read, not by its name) is decompressed as it is read, in
/// constant memory (``StreamDecompressor``); one that ends inside a compressed member or frame, or is damaged, is
/// reported as a disconnection (``ReceiverStatus/Reason/readError``, the reason in its detail) after every byte
/// before the damage.
public final class FileByteSource: ByteSource {
    /// The descriptor read from.
    public let fileDescriptor: FileDescriptor
    /// The name reported in status records (a path, or `-`).
    public let name: String
    private let closesOnDeinit: Bool
    private var announced = false
    private var failure: ReceiverStatus.Reason?
    /// `false` until the first bytes have told whether the input is compressed.
    private var formatKnown = false
    private var decompressor: StreamDecompressor?
    /// Compressed bytes read, on their way to the decompressor.
    private var compressed: UnsafeMutableRawBufferPointer?

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
        compressed?.deallocate()
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
        if let decompressor { return readDecompressing(decompressor, into: buffer, timeout: timeout) }
        // The first read is kept to what the decompressor takes at once, should it prove compressed.
        let space =
            formatKnown
            ? buffer : UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(StreamDecompressor.inputCapacity))
        switch readRaw(into: space, timeout: timeout) {
        case .bytes(let count) where !formatKnown:
            formatKnown = true
            let format = CompressionFormat(prefix: UnsafeRawBufferPointer(rebasing: buffer.prefix(count)))
            guard format != .none else { return .bytes(count) }
            let decompressor = StreamDecompressor(format)
            decompressor.supply(UnsafeRawBufferPointer(rebasing: buffer.prefix(count)))
            self.decompressor = decompressor
            compressed = .allocate(byteCount: StreamDecompressor.inputCapacity / 2, alignment: 16)
            return readDecompressing(decompressor, into: buffer, timeout: timeout)
        case let event:
            return event
        }
    }

    /// One `poll` and one `read`: `.bytes`, `.timedOut`, the end, or a failed read reported as a disconnection.
    private func readRaw(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        do throws(Errno) {
            let milliseconds = Int32(clamping: (timeout.nanosecondsClamped + 999_999) / 1_000_000)
            if try fileDescriptor.poll(.readable, timeoutMilliseconds: milliseconds).isEmpty { return .timedOut }
            let count = try fileDescriptor.read(into: buffer)
            return count > 0 ? .bytes(count) : .end(.endOfFile)
        } catch .wouldBlock {
            return .timedOut
        } catch {
            return fail(errorNumber: error.rawValue, detail: error.description)
        }
    }

    /// Decompressed bytes into `buffer`, reading compressed ones as the decompressor needs them.
    private func readDecompressing(
        _ decompressor: StreamDecompressor, into buffer: UnsafeMutableRawBufferPointer, timeout: Duration
    ) -> ByteSourceEvent {
        do throws(DecompressionError) {
            while true {
                let produced = try decompressor.decompress(into: buffer)
                if produced > 0 { return .bytes(produced) }
                let event = readRaw(into: compressed!, timeout: timeout)
                guard case .bytes(let count) = event else {
                    if case .end = event { try decompressor.finish() }
                    return event
                }
                decompressor.supply(UnsafeRawBufferPointer(rebasing: compressed!.prefix(count)))
            }
        } catch {
            return fail(errorNumber: 0, detail: "\(name): \(error)")
        }
    }

    private func fail(errorNumber: Int32, detail: String) -> ByteSourceEvent {
        failure = .readError
        return .status(.disconnected(device: name, reason: .readError, errorNumber: errorNumber, detail: detail))
    }
}
