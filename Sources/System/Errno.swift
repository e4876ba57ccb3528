import Glibc

/// An error number from a system call, as a typed error.
///
/// Catch a particular one by name:
///
///     do { let port = try SerialPort(path: "/dev/ttyACM0") }
///     catch Errno.permissionDenied { … }      // also matches an error that carries one (``ErrnoCarrying``)
///
/// The names are Swift spellings of the C constants; each one's documentation names its constant. The text of
/// ``description`` is `strerror(3)`'s, the one place the project asks the C library for it.
@frozen
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32

    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno` (read right after the call that failed).
    @inlinable
    public static var current: Errno { Errno(rawValue: errno) }

    /// `strerror(3)`: "Permission denied".
    public var description: String { String(cString: strerror(rawValue)) }

    /// `EPERM`: operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: input/output error (a USB serial device that was unplugged, a pty whose master closed).
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: no such device or address (the device behind the node is gone).
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EBADF`: bad file descriptor.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`/`EWOULDBLOCK` (the same number on Linux): nothing to read, or no room to write, now on a
    /// non-blocking descriptor.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EBUSY`: device or resource busy (a terminal another process holds with `TIOCEXCL`).
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// `EEXIST`: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ESRCH`: no such process.
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    /// `ENODEV`: no such device.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOTDIR`: not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: invalid argument (for example a baud rate the driver refuses).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENFILE`: too many open files in the system.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// `EMFILE`: too many open files in this process.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `ENOTTY`: inappropriate ioctl for device — the file is not a terminal.
    public static let notATerminal = Errno(rawValue: ENOTTY)
    /// `ENOSPC`: no space left on device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EDQUOT`: the user's disk quota is used up.
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// `EPIPE`: broken pipe.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENOSYS`: function not implemented.
    public static let notImplemented = Errno(rawValue: ENOSYS)
    /// `ELOOP`: too many symbolic links.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// `ENOBUFS`: no buffer space available.
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// `EAFNOSUPPORT`: address family not supported.
    public static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
    /// `EADDRINUSE`: address already in use.
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    /// `ECONNABORTED`: a connection was aborted before `accept` took it.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// `ECONNRESET`: connection reset by peer.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `ETIMEDOUT`: timed out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `ECONNREFUSED`: connection refused.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// `EINPROGRESS`: a non-blocking `connect` goes on in the background.
    public static let nowInProgress = Errno(rawValue: EINPROGRESS)

    /// Lets `catch Errno.permissionDenied` match an `Errno` or any error that carries one (``ErrnoCarrying``).
    public static func ~= (pattern: Errno, error: any Error) -> Bool {
        if let errno = error as? Errno { return errno == pattern }
        if let error = error as? any ErrnoCarrying { return error.errno == pattern }
        return false
    }
}

/// An error that was caused by a system call and says which `Errno` (`SerialPortError`, say), so that
/// `catch Errno.permissionDenied` matches it too.
public protocol ErrnoCarrying: Error {
    /// The system error behind this one, if any.
    var errno: Errno? { get }
}
