import Glibc
import Synchronization
import System

/// A buffered writer to a file descriptor: bytes are gathered in a fixed buffer and written with `write(2)` when it
/// fills, so printing a line costs no system call and no allocation.
///
/// Not locked: one thread writes to a buffer at a time, the one that made it or the last to ``claim()`` it (checked in
/// debug builds). The commands' other threads (`convert --jobs`, servers) write files and standard error, never
/// ``Console/standardOutput``, but for `parse --fixes --jobs`, whose fixes are written by the thread that takes them.
final class OutputBuffer: @unchecked Sendable {
    let fd: FileDescriptor
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// Set when a write failed (for example `EPIPE` when the reader went away, or `ENOSPC`); later writes are dropped.
    private(set) var failure: Errno? {
        didSet { failed.store(failure != nil, ordering: .relaxed) }
    }
    /// ``failure`` as a flag any thread may read.
    private let failed = Atomic(false)

    /// The thread that writes (the one that made the buffer, or the last to ``claim()`` it).
    private var owner = pthread_self()

    init(fd: FileDescriptor, capacity: Int = 64 * 1024) {
        self.fd = fd
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        flush()
        storage.deallocate()
    }

    @inline(__always)
    func write(_ byte: UInt8) {
        assert(pthread_equal(owner, pthread_self()) != 0, "an OutputBuffer is written by the thread that made it")
        if count == capacity { flush() }
        storage[count] = byte
        count += 1
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        assert(pthread_equal(owner, pthread_self()) != 0, "an OutputBuffer is written by the thread that made it")
        if bytes.count > capacity - count {
            flush()
            if bytes.count > capacity {
                writeAll(bytes)
                return
            }
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        (storage + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `true` once a write failed (``failure``): read from any thread, for one that stops its work when the output
    /// is gone while another writes it.
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// Makes the calling thread the one that writes, from its next write on, what is buffered included. The thread
    /// that wrote before must be done writing, and its writes ordered before this call (it was joined, or handed
    /// over through a lock or a semaphore).
    @inline(__always)
    func claim() {
        if pthread_equal(owner, pthread_self()) == 0 { owner = pthread_self() }
    }

    /// Writes everything buffered.
    func flush() {
        guard count > 0 else { return }
        writeAll(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        do {
            try fd.writeAll(bytes)
        } catch {
            failure = error
        }
    }
}

/// Standard output and standard error, shared by the commands.
enum Console {
    /// Made (lazily, as every `static let`) by the main thread's first print, and written by it only.
    static let standardOutput = OutputBuffer(fd: .standardOutput)

    /// Writes `text` to standard error at once (unbuffered, so diagnostics interleave correctly with output), or,
    /// on a thread inside ``capturingErrors(_:)``, to that thread's capture.
    static func error(_ text: String) {
        if let capture = ErrorCapture.current {
            capture.text += text
            return
        }
        var text = text
        text.withUTF8 { try? FileDescriptor.standardError.writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// Runs `body`, collecting what it writes with ``error(_:)`` on this thread instead of writing it: for work run
    /// on several threads whose messages must come out whole and in order (`convert --jobs`).
    static func capturingErrors<R>(_ body: () throws -> R) rethrows -> (result: R, errors: String) {
        let capture = ErrorCapture()
        let outer = ErrorCapture.current
        ErrorCapture.current = capture
        defer { ErrorCapture.current = outer }
        let result = try body()
        return (result, capture.text)
    }

    /// `true` when standard error is a terminal (progress and status lines go there only then).
    static var standardErrorIsTerminal: Bool { FileDescriptor.standardError.isTerminal }
}

/// One thread's captured standard error (``Console/capturingErrors(_:)``), found through a pthread key.
final class ErrorCapture {
    var text = ""

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ErrorCapture? {
        get { pthread_getspecific(key).map { Unmanaged<ErrorCapture>.fromOpaque($0).takeUnretainedValue() } }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<ErrorCapture>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }
}
