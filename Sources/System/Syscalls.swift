import CShims
import Glibc

// The lowest of the three layers: each system call once, returning its raw result (`systemOpen`, …). The middle
// layer (`FileDescriptor._read` and friends) turns the C convention (-1 and `errno`) into a `Result` through
// `valueOrErrno`, the one place a call is retried on EINTR; the public layer throws. A call that must not be
// retried (`close`, `connect`) says so with `retryOnInterrupt: false`.

/// Calls `body` until it does not fail with EINTR (when `retryOnInterrupt`), and returns its value or the `Errno`.
@inline(__always)
func valueOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> I) -> Result<I, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        return .failure(error)
    }
}

/// Like ``valueOrErrno(retryOnInterrupt:_:)`` for calls whose only result is success or failure.
@inline(__always)
func nothingOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> I) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}

// MARK: Files

@inline(__always) func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
@inline(__always) func systemPread(
    _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int
) -> Int {
    pread(fd, buffer, count, off_t(offset))
}
@inline(__always) func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int) -> Int {
    pwrite(fd, buffer, count, off_t(offset))
}
@inline(__always) func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    poll(fds, nfds_t(count), timeout)
}
@inline(__always) func systemFcntl(_ fd: Int32, _ command: Int32) -> Int32 { fcntl(fd, command) }
@inline(__always) func systemFcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
    fcntl(fd, command, value)
}
@inline(__always) func systemFstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 { fstat(fd, info) }
@inline(__always) func systemStat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    stat(path, info)
}
@inline(__always) func systemLstat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    lstat(path, info)
}
@inline(__always) func systemFtruncate(_ fd: Int32, _ length: Int) -> Int32 { ftruncate(fd, off_t(length)) }
@inline(__always) func systemFdatasync(_ fd: Int32) -> Int32 { fdatasync(fd) }
@inline(__always) func systemFsync(_ fd: Int32) -> Int32 { fsync(fd) }
@inline(__always) func systemDup(_ fd: Int32) -> Int32 { dup(fd) }
@inline(__always) func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
@inline(__always) func systemNanosleep(_ request: UnsafePointer<timespec>, _ remaining: UnsafeMutablePointer<timespec>)
    -> Int32
{
    nanosleep(request, remaining)
}
@inline(__always) func systemEventfd() -> Int32 { nmea_eventfd() }
@inline(__always) func systemPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { nmea_pipe_cloexec(fds) }

// MARK: Terminals

@inline(__always) func systemTcgetattr(_ fd: Int32, _ attributes: UnsafeMutablePointer<termios>) -> Int32 {
    tcgetattr(fd, attributes)
}
@inline(__always) func systemTcsetattr(_ fd: Int32, _ when: Int32, _ attributes: UnsafePointer<termios>) -> Int32 {
    tcsetattr(fd, when, attributes)
}
@inline(__always) func systemTcflush(_ fd: Int32, _ queue: Int32) -> Int32 { tcflush(fd, queue) }
@inline(__always) func systemTcdrain(_ fd: Int32) -> Int32 { tcdrain(fd) }
@inline(__always) func systemTiocexcl(_ fd: Int32) -> Int32 { nmea_tiocexcl(fd) }
@inline(__always) func systemTiocnxcl(_ fd: Int32) -> Int32 { nmea_tiocnxcl(fd) }
@inline(__always) func systemTiocgexcl(_ fd: Int32) -> Int32 { nmea_tiocgexcl(fd) }
@inline(__always) func systemTiocgwinsz(_ fd: Int32, _ size: UnsafeMutablePointer<winsize>) -> Int32 {
    ioctl(fd, UInt(TIOCGWINSZ), size)
}
@inline(__always) func systemPosixOpenpt(_ flags: Int32) -> Int32 { nmea_posix_openpt(flags) }
@inline(__always) func systemGrantpt(_ fd: Int32) -> Int32 { nmea_grantpt(fd) }
@inline(__always) func systemUnlockpt(_ fd: Int32) -> Int32 { nmea_unlockpt(fd) }
@inline(__always) func systemPtsnameR(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int32 {
    nmea_ptsname_r(fd, buffer, count)
}

// MARK: Sockets

@inline(__always) func systemSocket(_ family: Int32, _ type: Int32, _ protocol: Int32) -> Int32 {
    socket(family, type, `protocol`)
}
@inline(__always) func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}
@inline(__always) func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
@inline(__always) func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
@inline(__always) func systemAccept4(_ fd: Int32, _ flags: Int32) -> Int32 { nmea_accept4(fd, flags) }
@inline(__always) func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
@inline(__always) func systemSendmsg(_ fd: Int32, _ message: UnsafePointer<msghdr>, _ flags: Int32) -> Int {
    sendmsg(fd, message, flags)
}
@inline(__always) func systemRecv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32)
    -> Int
{
    recv(fd, buffer, count, flags)
}
@inline(__always) func systemRecvCountingDrops(
    _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32,
    _ dropped: UnsafeMutablePointer<UInt32>
) -> Int {
    nmea_recv_counting_drops(fd, buffer, count, flags, dropped)
}
@inline(__always) func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
@inline(__always) func systemSetsockopt(
    _ fd: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer, _ length: socklen_t
) -> Int32 {
    setsockopt(fd, level, name, value, length)
}
@inline(__always) func systemGetsockopt(
    _ fd: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeMutableRawPointer,
    _ length: UnsafeMutablePointer<socklen_t>
) -> Int32 {
    getsockopt(fd, level, name, value, length)
}
@inline(__always) func systemGetsockname(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
) -> Int32 {
    getsockname(fd, address, length)
}
