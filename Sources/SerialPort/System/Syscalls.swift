import CShims
import Glibc

// The lowest layer: each system call once, returning its raw result. Everything above goes through
// `valueOrErrno`/`nothingOrErrno`, which turn the C convention (-1 and errno) into a `Result`, retrying on EINTR
// unless told not to.

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

// MARK: Raw calls

@inline(__always) func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}
@inline(__always) func system_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
@inline(__always) func system_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
@inline(__always) func system_poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    poll(fds, nfds_t(count), timeout)
}
@inline(__always) func system_fcntl(_ fd: Int32, _ command: Int32) -> Int32 { fcntl(fd, command) }
@inline(__always) func system_fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
    fcntl(fd, command, value)
}
@inline(__always) func system_tcgetattr(_ fd: Int32, _ attributes: UnsafeMutablePointer<termios>) -> Int32 {
    tcgetattr(fd, attributes)
}
@inline(__always) func system_tcsetattr(_ fd: Int32, _ when: Int32, _ attributes: UnsafePointer<termios>) -> Int32 {
    tcsetattr(fd, when, attributes)
}
@inline(__always) func system_tcflush(_ fd: Int32, _ queue: Int32) -> Int32 { tcflush(fd, queue) }
@inline(__always) func system_tcdrain(_ fd: Int32) -> Int32 { tcdrain(fd) }
@inline(__always) func system_tiocexcl(_ fd: Int32) -> Int32 { nmea_tiocexcl(fd) }
@inline(__always) func system_tiocnxcl(_ fd: Int32) -> Int32 { nmea_tiocnxcl(fd) }
@inline(__always) func system_fstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 { fstat(fd, info) }
@inline(__always) func system_stat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    stat(path, info)
}
