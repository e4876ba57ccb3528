import Glibc

/// An open file descriptor: a strong type over the C `int`.
///
/// Like swift-system's: it does not close itself; whoever opened it calls ``close()``. Every call retries on EINTR
/// except `close`, which must not be retried on Linux (the descriptor is gone even when it reports EINTR).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The C descriptor.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// How a file is opened for reading and writing: `O_RDONLY`, `O_WRONLY` or `O_RDWR`.
    public struct AccessMode: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_RDONLY`.
        public static let readOnly = AccessMode(rawValue: O_RDONLY)
        /// `O_WRONLY`.
        public static let writeOnly = AccessMode(rawValue: O_WRONLY)
        /// `O_RDWR`.
        public static let readWrite = AccessMode(rawValue: O_RDWR)
    }

    /// Flags for `open(2)` beside the access mode.
    public struct OpenOptions: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_NONBLOCK`: do not wait for carrier on open; reads return EAGAIN instead of waiting.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_NOCTTY`: never make the terminal the process's controlling terminal.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// `O_CLOEXEC`: close in child processes after `exec`.
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
    }

    /// Events for `poll(2)`.
    public struct PollEvents: OptionSet, Hashable, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        /// `POLLIN`: there is data to read (or end of file).
        public static let readable = PollEvents(rawValue: Int16(POLLIN))
        /// `POLLOUT`: writing will not block.
        public static let writable = PollEvents(rawValue: Int16(POLLOUT))
        /// `POLLERR`: an error condition (output only).
        public static let error = PollEvents(rawValue: Int16(POLLERR))
        /// `POLLHUP`: hang-up — the device or the other end went away (output only).
        public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        /// `POLLNVAL`: the descriptor is not open (output only).
        public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    }

    /// Opens `path`. `open(2)`.
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec]
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue
        let result = path.withCString { cPath in valueOrErrno { system_open(cPath, flags) } }
        return FileDescriptor(rawValue: try result.get())
    }

    /// Closes the descriptor. `close(2)`; not retried on EINTR.
    public func close() throws(Errno) {
        try nothingOrErrno(retryOnInterrupt: false) { system_close(rawValue) }.get()
    }

    /// Reads at most `buffer.count` bytes. `read(2)`.
    /// - Returns: the number of bytes read; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { system_read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes some of `bytes`. `write(2)`.
    /// - Returns: the number of bytes written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { system_write(rawValue, bytes.baseAddress, bytes.count) }.get()
    }

    /// Writes all of `bytes`, however many calls it takes (waiting with `poll` when the descriptor is non-blocking).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            do throws(Errno) {
                offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch .wouldBlock {
                _ = try poll(.writable, timeoutMilliseconds: 1000)
            }
        }
    }

    /// Waits until one of `events` happens or `timeoutMilliseconds` pass (-1: no limit). `poll(2)`.
    /// - Returns: the events that happened (hang-up and errors are always reported); empty after a timeout.
    public func poll(_ events: PollEvents, timeoutMilliseconds: Int32) throws(Errno) -> PollEvents {
        try FileDescriptor.poll((self, events), nil, timeoutMilliseconds: timeoutMilliseconds).0
    }

    /// Waits on one or two descriptors at once, without allocating. `poll(2)`. Retried on EINTR.
    /// - Returns: the events that happened on each (empty for an absent second).
    public static func poll(
        _ first: (FileDescriptor, PollEvents), _ second: (FileDescriptor, PollEvents)?, timeoutMilliseconds: Int32
    ) throws(Errno) -> (PollEvents, PollEvents) {
        var fds = (pollfd(fd: first.0.rawValue, events: first.1.rawValue, revents: 0),
                   pollfd(fd: second?.0.rawValue ?? -1, events: second?.1.rawValue ?? 0, revents: 0))
        let count = second == nil ? 1 : 2
        let result = withUnsafeMutableBytes(of: &fds) { raw in
            let pointer = raw.baseAddress!.assumingMemoryBound(to: pollfd.self)
            return valueOrErrno { system_poll(pointer, count, timeoutMilliseconds) }
        }
        _ = try result.get()
        return (PollEvents(rawValue: fds.0.revents), PollEvents(rawValue: fds.1.revents))
    }

    /// Waits on any number of descriptors. `poll(2)`. Retried on EINTR.
    /// - Returns: for each entry, the events that happened.
    public static func poll(
        _ entries: [(FileDescriptor, PollEvents)], timeoutMilliseconds: Int32
    ) throws(Errno) -> [PollEvents] {
        var fds = entries.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
        let count = fds.count
        _ = try fds.withUnsafeMutableBufferPointer { buffer in
            valueOrErrno { system_poll(buffer.baseAddress!, count, timeoutMilliseconds) }
        }.get()
        return fds.map { PollEvents(rawValue: $0.revents) }
    }

    /// Whether reads and writes return EAGAIN instead of waiting (`O_NONBLOCK` via `fcntl(F_SETFL)`).
    public func setNonBlocking(_ nonBlocking: Bool) throws(Errno) {
        let flags = try valueOrErrno { system_fcntl(rawValue, F_GETFL) }.get()
        let updated = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard updated != flags else { return }
        try nothingOrErrno { system_fcntl(rawValue, F_SETFL, updated) }.get()
    }

    /// Whether the descriptor is a character device (`fstat(2)`, `S_ISCHR`).
    public func isCharacterDevice() throws(Errno) -> Bool {
        var info = stat()
        try nothingOrErrno { system_fstat(rawValue, &info) }.get()
        return info.st_mode & S_IFMT == S_IFCHR
    }

    /// The device number (`st_rdev`) of a device file, for finding who else has it open.
    func deviceNumber() throws(Errno) -> UInt {
        var info = stat()
        try nothingOrErrno { system_fstat(rawValue, &info) }.get()
        return UInt(info.st_rdev)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up, clamped to what `poll(2)` accepts.
    var pollMilliseconds: Int32 {
        // Never negative: poll(2) would wait forever.
        if self <= .zero { return 0 }
        let (seconds, attoseconds) = components
        if seconds >= Int64(Int32.max / 1000) { return Int32.max }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(milliseconds)
    }

    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
