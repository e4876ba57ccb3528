import System

/// A line to a receiver that bytes are read from at a chosen rate: a ``SerialPort``, or a fake in tests.
///
/// ``Autobaud`` and ``ReceiverConnection`` work through this protocol only, so a test can stand in a device that
/// sends garbage until the right rate is set.
public protocol SerialConnection: AnyObject {
    /// The path it was opened from.
    var path: String { get }
    /// The current line rate.
    var baudRate: BaudRate { get }
    /// Changes the line rate and discards input received before the change.
    func setBaudRate(_ rate: BaudRate) throws(SerialPortError)
    /// Waits at most `timeout` for bytes (or for `stop` to be signalled) and reads what has arrived.
    func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, stop: StopSignal?)
        throws(SerialPortError) -> ReadOutcome
    /// Closes the line; a real port gets its old settings back. Calling it twice is harmless.
    func close()
}

/// What a read brought.
public enum ReadOutcome: Sendable, Equatable {
    /// This many bytes (at least one) were read into the buffer.
    case data(Int)
    /// Nothing arrived within the timeout.
    case timedOut
    /// The stop signal was raised.
    case stopped
    /// The device went away: unplugged, or the other end of a pty closed.
    case disconnected(DisconnectReason)
}

/// Why a device was considered gone.
public enum DisconnectReason: Sendable, Hashable, CustomStringConvertible {
    /// `read` returned 0.
    case endOfFile
    /// `poll` reported `POLLHUP` or `POLLERR`.
    case hangUp
    /// `read` failed with EIO, ENXIO or ENODEV.
    case error(Errno)
    /// The device node disappeared (seen by a rescan or a udev "remove" event).
    case removed

    public var description: String {
        switch self {
        case .endOfFile: "end of file"
        case .hangUp: "hang-up"
        case .error(let errno): String(describing: errno).lowercased()
        case .removed: "device removed"
        }
    }
}

/// A flag another thread raises to stop a blocking loop at once: the system layer's eventfd ``WakeUp``, which
/// every `poll` in the loop also waits on. Raising it is thread-safe and async-signal-safe (one `write`); nothing
/// here drains it, so it stays raised.
public typealias StopSignal = WakeUp
