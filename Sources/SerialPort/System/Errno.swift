import Glibc

/// An error number from a system call, as a typed error.
///
/// Catch a particular one by name:
///
///     do { let port = try SerialPort(path: "/dev/ttyACM0") }
///     catch Errno.permissionDenied { … }      // also matches a SerialPortError caused by EACCES
///
/// The names are Swift spellings of the C constants; each one's documentation names its constant.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    static var current: Errno { Errno(rawValue: errno) }

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
    /// `EAGAIN`/`EWOULDBLOCK`: nothing to read now on a non-blocking descriptor.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EBUSY`: device or resource busy (a terminal another process holds with `TIOCEXCL`).
    public static let resourceBusy = Errno(rawValue: EBUSY)
    /// `ENODEV`: no such device.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOTDIR`: not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: invalid argument (for example a baud rate the driver refuses).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENOTTY`: inappropriate ioctl for device — the file is not a terminal.
    public static let notATerminal = Errno(rawValue: ENOTTY)
    /// `ENOSPC`: no space left on device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EPIPE`: broken pipe.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENOSYS`: function not implemented.
    public static let notImplemented = Errno(rawValue: ENOSYS)
    /// `ETIMEDOUT`: timed out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `ELOOP`: too many symbolic links.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)

    /// Lets `catch Errno.permissionDenied` match an `Errno` or any error that carries one (``SerialPortError``).
    public static func ~= (pattern: Errno, error: any Error) -> Bool {
        if let errno = error as? Errno { return errno == pattern }
        if let error = error as? SerialPortError { return error.errno == pattern }
        return false
    }
}
