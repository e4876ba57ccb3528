import Glibc

/// An open file descriptor: a strong type over the C `int`.
///
/// As in swift-system it does not close itself; whoever opened it calls ``close()``. Every call is written in three
/// layers: the public method throws `Errno`, an internal `_method` returns a `Result`, and a raw `system…` function
/// makes the C call. Every call is retried on EINTR except `close` (the descriptor is gone on Linux even when it
/// reports EINTR) and `connect` (a retried connect fails with EALREADY).
@frozen
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The C descriptor.
    public let rawValue: Int32

    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `STDIN_FILENO`.
    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// `STDOUT_FILENO`.
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// `STDERR_FILENO`.
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// How a file is opened for reading and writing: `O_RDONLY`, `O_WRONLY` or `O_RDWR`.
    @frozen
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
    @frozen
    public struct OpenOptions: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_NONBLOCK`: do not wait for carrier on open; reads return EAGAIN instead of waiting.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_NOCTTY`: never make the terminal the process's controlling terminal.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// `O_CLOEXEC`: close in child processes after `exec`.
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        /// `O_CREAT`: create the file when it does not exist, with the permissions given to
        /// ``FileDescriptor/open(_:_:options:permissions:)``.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_TRUNC`: empty a regular file that exists.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_APPEND`: every write goes to the end of the file.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// `O_EXCL` (with ``create``): fail with EEXIST when the file exists.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        /// `O_DIRECTORY`: fail unless the path is a directory (to `fsync` a directory).
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// The permission bits of a file created by ``open(_:_:options:permissions:)`` (before the umask): `mode_t`.
    @frozen
    public struct FilePermissions: OptionSet, Hashable, Sendable {
        public let rawValue: mode_t
        public init(rawValue: mode_t) { self.rawValue = rawValue }
        /// `S_IRUSR | S_IWUSR` (0o600).
        public static let ownerReadWrite = FilePermissions(rawValue: 0o600)
        /// `S_IRUSR | S_IWUSR | S_IXUSR` (0o700).
        public static let ownerReadWriteExecute = FilePermissions(rawValue: 0o700)
        /// `S_IRGRP` (0o040).
        public static let groupRead = FilePermissions(rawValue: 0o040)
        /// `S_IXGRP` (0o010).
        public static let groupExecute = FilePermissions(rawValue: 0o010)
        /// `S_IROTH` (0o004).
        public static let otherRead = FilePermissions(rawValue: 0o004)
        /// `S_IXOTH` (0o001).
        public static let otherExecute = FilePermissions(rawValue: 0o001)
        /// 0o644: the owner reads and writes, everyone else reads. What the project's files are created with.
        public static let standardFile: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
        /// 0o755: a directory everyone may enter and list.
        public static let standardDirectory: FilePermissions = [
            .ownerReadWriteExecute, .groupRead, .groupExecute, .otherRead, .otherExecute,
        ]
    }

    /// Events for `poll(2)`.
    @frozen
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
}

// MARK: Opening and closing

extension FileDescriptor {
    /// Opens `path`. `open(2)`. The descriptor is always close-on-exec, whatever `options` say: a process another
    /// thread starts meanwhile must not keep it open after its `exec` (a file open for writing there cannot itself be
    /// run: `ETXTBSY`, "text file busy", for as long as that process lives).
    /// - Parameter permissions: for a file that ``OpenOptions/create`` makes.
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec],
        permissions: FilePermissions = .standardFile
    ) throws(Errno) -> FileDescriptor {
        try _open(path, mode, options: options, permissions: permissions).get()
    }

    static func _open(
        _ path: String, _ mode: AccessMode, options: OpenOptions, permissions: FilePermissions
    ) -> Result<FileDescriptor, Errno> {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        return path.withCString { cPath in
            valueOrErrno { systemOpen(cPath, flags, permissions.rawValue) }.map(FileDescriptor.init(rawValue:))
        }
    }

    /// Closes the descriptor. `close(2)`; not retried on EINTR.
    public func close() throws(Errno) {
        try _close().get()
    }

    func _close() -> Result<Void, Errno> {
        nothingOrErrno(retryOnInterrupt: false) { systemClose(rawValue) }
    }

    /// A new pipe, both ends close-on-exec: what is written to `writeEnd` is read from `readEnd`.
    /// `pipe2(2)` with `O_CLOEXEC`.
    public static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: (Int32, Int32) = (-1, -1)
        try withUnsafeMutableBytes(of: &fds) { raw in
            nothingOrErrno { systemPipe(raw.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        }.get()
        return (FileDescriptor(rawValue: fds.0), FileDescriptor(rawValue: fds.1))
    }

    /// A second descriptor for the same open file. `dup(2)`.
    public func duplicate() throws(Errno) -> FileDescriptor {
        try _duplicate().get()
    }

    func _duplicate() -> Result<FileDescriptor, Errno> {
        valueOrErrno { systemDup(rawValue) }.map(FileDescriptor.init(rawValue:))
    }
}

// MARK: Reading and writing

extension FileDescriptor {
    /// Reads at most `buffer.count` bytes. `read(2)`.
    /// - Returns: the number of bytes read; 0 at end of file.
    @inlinable
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try _read(into: buffer).get()
    }

    @usableFromInline
    func _read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { systemRead(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads at most `buffer.count` bytes from `offset`, leaving the file position alone. `pread(2)`.
    /// - Returns: the number of bytes read; 0 at end of file.
    public func read(fromAbsoluteOffset offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try _read(fromAbsoluteOffset: offset, into: buffer).get()
    }

    func _read(fromAbsoluteOffset offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { systemPread(rawValue, buffer.baseAddress, buffer.count, offset) }
    }

    /// Reads until `buffer` is full or the file ends (`read(2)` or `pread(2)` as often as it takes).
    /// - Returns: the number of bytes read; fewer than `buffer.count` only at the end of the file.
    public func readAll(into buffer: UnsafeMutableRawBufferPointer, fromAbsoluteOffset offset: Int? = nil)
        throws(Errno) -> Int
    {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            let count =
                if let offset { try read(fromAbsoluteOffset: offset + done, into: rest) } else {
                    try read(into: rest)
                }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Writes some of `bytes`. `write(2)`.
    /// - Returns: the number of bytes written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try _write(bytes).get()
    }

    func _write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { systemWrite(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes some of `bytes` at `offset`, leaving the file position alone. `pwrite(2)`.
    /// - Returns: the number of bytes written.
    public func write(toAbsoluteOffset offset: Int, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try _write(toAbsoluteOffset: offset, bytes).get()
    }

    func _write(toAbsoluteOffset offset: Int, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        valueOrErrno { systemPwrite(rawValue, bytes.baseAddress, bytes.count, offset) }
    }

    /// Writes all of `bytes` (at `offset` with `pwrite(2)`, else at the file position with `write(2)`), however
    /// many calls it takes, waiting with `poll(2)` when the descriptor is non-blocking and full.
    /// - Throws: the first failure (some bytes may have been written); `Errno.ioError` when a call writes nothing.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, toAbsoluteOffset offset: Int? = nil) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            do throws(Errno) {
                let written =
                    if let offset { try write(toAbsoluteOffset: offset + done, rest) } else { try write(rest) }
                if written == 0 { throw Errno.ioError }
                done += written
            } catch .wouldBlock {
                _ = try poll(.writable, timeoutMilliseconds: 1000)
            }
        }
    }

    /// ``writeAll(_:toAbsoluteOffset:)`` for an array.
    public func writeAll(_ bytes: [UInt8], toAbsoluteOffset offset: Int? = nil) throws(Errno) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAll(buffer, toAbsoluteOffset: offset) }
        }
        try result.get()
    }
}

// MARK: Waiting

extension FileDescriptor {
    /// Waits until one of `events` happens or `timeoutMilliseconds` pass (-1: no limit). `poll(2)`.
    /// - Returns: the events that happened (hang-up and errors are always reported); empty after a timeout.
    public func poll(_ events: PollEvents, timeoutMilliseconds: Int32) throws(Errno) -> PollEvents {
        try FileDescriptor.poll((self, events), nil, timeoutMilliseconds: timeoutMilliseconds).0
    }

    /// Waits on one or two descriptors at once, without allocating. `poll(2)`.
    /// - Returns: the events that happened on each (empty for an absent second).
    public static func poll(
        _ first: (FileDescriptor, PollEvents), _ second: (FileDescriptor, PollEvents)?, timeoutMilliseconds: Int32
    ) throws(Errno) -> (PollEvents, PollEvents) {
        try _poll(first, second, timeoutMilliseconds: timeoutMilliseconds).get()
    }

    static func _poll(
        _ first: (FileDescriptor, PollEvents), _ second: (FileDescriptor, PollEvents)?, timeoutMilliseconds: Int32
    ) -> Result<(PollEvents, PollEvents), Errno> {
        var fds = (
            pollfd(fd: first.0.rawValue, events: first.1.rawValue, revents: 0),
            pollfd(fd: second?.0.rawValue ?? -1, events: second?.1.rawValue ?? 0, revents: 0)
        )
        let count = second == nil ? 1 : 2
        let result = withUnsafeMutableBytes(of: &fds) { raw in
            let pointer = raw.baseAddress!.assumingMemoryBound(to: pollfd.self)
            return valueOrErrno { systemPoll(pointer, count, timeoutMilliseconds) }
        }
        return result.map { _ in (PollEvents(rawValue: fds.0.revents), PollEvents(rawValue: fds.1.revents)) }
    }

    /// Waits on any number of descriptors. `poll(2)`. An entry whose descriptor is -1 is ignored (as `poll` does).
    /// - Returns: for each entry, the events that happened.
    public static func poll(
        _ entries: [(FileDescriptor, PollEvents)], timeoutMilliseconds: Int32
    ) throws(Errno) -> [PollEvents] {
        var fds = entries.map { PollEntry($0.0, $0.1) }
        try poll(&fds, timeoutMilliseconds: timeoutMilliseconds)
        return fds.map(\.returned)
    }

    /// Waits on `entries` (kept by a caller that polls the same set again and again without allocating); their
    /// ``PollEntry/returned`` events say what happened. `poll(2)`.
    /// - Returns: how many entries have events.
    @discardableResult
    public static func poll(_ entries: inout [PollEntry], timeoutMilliseconds: Int32) throws(Errno) -> Int {
        try _poll(&entries, timeoutMilliseconds: timeoutMilliseconds).get()
    }

    static func _poll(_ entries: inout [PollEntry], timeoutMilliseconds: Int32) -> Result<Int, Errno> {
        let count = entries.count
        return entries.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: pollfd.self) { fds in
                valueOrErrno { systemPoll(fds.baseAddress!, count, timeoutMilliseconds) }.map(Int.init)
            }
        }
    }

    /// One descriptor of a set to ``poll(_:timeoutMilliseconds:)-swift.type.method``: what to wait for and, after
    /// the call, what happened. Laid out as C's `struct pollfd`.
    @frozen
    public struct PollEntry {
        @usableFromInline var raw: pollfd

        /// Waits for `events` on `descriptor`; `nil` makes an entry `poll` skips (descriptor -1).
        @inlinable
        public init(_ descriptor: FileDescriptor?, _ events: PollEvents) {
            raw = pollfd(fd: descriptor?.rawValue ?? -1, events: events.rawValue, revents: 0)
        }

        /// What happened in the last call (hang-up and errors are reported whatever was asked for).
        @inlinable
        public var returned: PollEvents { PollEvents(rawValue: raw.revents) }
    }
}

// MARK: Settings, status, syncing, locking

extension FileDescriptor {
    /// Whether reads and writes return EAGAIN instead of waiting (`O_NONBLOCK` via `fcntl(F_SETFL)`).
    public func setNonBlocking(_ nonBlocking: Bool) throws(Errno) {
        try _setStatusFlag(O_NONBLOCK, nonBlocking).get()
    }

    func _setStatusFlag(_ flag: Int32, _ on: Bool) -> Result<Void, Errno> {
        valueOrErrno { systemFcntl(rawValue, F_GETFL) }.flatMap { flags in
            let updated = on ? flags | flag : flags & ~flag
            guard updated != flags else { return .success(()) }
            return nothingOrErrno { systemFcntl(rawValue, F_SETFL, updated) }
        }
    }

    /// What kind of file is open, its size and device numbers. `fstat(2)`.
    public func status() throws(Errno) -> FileStatus {
        try _status().get()
    }

    func _status() -> Result<FileStatus, Errno> {
        var info = stat()
        return nothingOrErrno { systemFstat(rawValue, &info) }.map { FileStatus(info) }
    }

    /// Cuts (or extends with zeros) the file to `length` bytes. `ftruncate(2)`.
    public func resize(to length: Int) throws(Errno) {
        try _resize(to: length).get()
    }

    func _resize(to length: Int) -> Result<Void, Errno> {
        nothingOrErrno { systemFtruncate(rawValue, length) }
    }

    /// The file's data (and its size) reach the disk before this returns. `fdatasync(2)`.
    public func synchronizeData() throws(Errno) {
        try _synchronizeData().get()
    }

    func _synchronizeData() -> Result<Void, Errno> {
        nothingOrErrno { systemFdatasync(rawValue) }
    }

    /// The file's data and metadata (for a directory: its entries) reach the disk before this returns. `fsync(2)`.
    public func synchronize() throws(Errno) {
        try _synchronize().get()
    }

    func _synchronize() -> Result<Void, Errno> {
        nothingOrErrno { systemFsync(rawValue) }
    }

    /// Takes an exclusive advisory lock on the file without waiting (`flock(2)` with `LOCK_EX | LOCK_NB`).
    /// - Throws: `Errno.wouldBlock` when another open file description holds it.
    public func lockExclusively() throws(Errno) {
        try _lockExclusively().get()
    }

    func _lockExclusively() -> Result<Void, Errno> {
        nothingOrErrno { systemFlock(rawValue, LOCK_EX | LOCK_NB) }
    }
}

/// What `stat(2)` says about a file: its kind, size, owner and group, permissions, device and inode numbers.
public struct FileStatus: Sendable, Hashable {
    /// The kind of file (`S_IFMT` of `st_mode`).
    public enum Kind: Sendable, Hashable {
        /// `S_IFREG`.
        case regular
        /// `S_IFDIR`.
        case directory
        /// `S_IFCHR`: a terminal, a serial port, `/dev/null`.
        case characterDevice
        /// `S_IFBLK`.
        case blockDevice
        /// `S_IFIFO`: a pipe or a FIFO.
        case fifo
        /// `S_IFLNK` (only from ``init(path:followingSymbolicLinks:)`` without following).
        case symbolicLink
        /// `S_IFSOCK`.
        case socket
        case other
    }

    public var kind: Kind
    /// `st_size`, in bytes.
    public var size: Int
    /// `st_rdev`: which device a device file stands for.
    public var deviceNumber: UInt
    /// `st_gid`.
    public var groupID: UInt32
    /// `st_uid`.
    public var ownerID: UInt32
    /// The permission bits of `st_mode` (`0o7777`: set-ID, sticky, owner, group, others).
    public var permissions: UInt32
    /// `st_dev`: the file system the file is on (with ``inode``, what `/proc/locks` names a file by).
    public var fileSystemDevice: UInt
    /// `st_ino`.
    public var inode: UInt

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .fifo
        case S_IFLNK: kind = .symbolicLink
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(info.st_size)
        deviceNumber = UInt(info.st_rdev)
        groupID = info.st_gid
        ownerID = info.st_uid
        permissions = UInt32(info.st_mode) & 0o7777
        fileSystemDevice = UInt(info.st_dev)
        inode = UInt(info.st_ino)
    }

    /// The status of the file at `path`: `stat(2)`, or `lstat(2)` when not `followingSymbolicLinks`.
    public init(path: String, followingSymbolicLinks: Bool = true) throws(Errno) {
        var info = stat()
        let result = path.withCString { cPath in
            nothingOrErrno {
                followingSymbolicLinks ? systemStat(cPath, &info) : systemLstat(cPath, &info)
            }
        }
        try result.get()
        self.init(info)
    }
}
