/// A wake-up for a thread that waits in `poll(2)`: an `eventfd(2)` other threads signal without ever blocking, and
/// that the waiting thread polls beside its other descriptors. The one wake-up of the project: it stops the serial
/// reader (`StopSignal`), wakes the server core's thread (``TCPServerCore``) and the MQTT network thread.
///
/// Signalling is thread-safe and async-signal-safe (one `write(2)`). It stays signalled until ``drain()``.
public final class WakeUp: Sendable {
    /// The eventfd (non-blocking, close-on-exec); readable while signalled.
    public let fileDescriptor: FileDescriptor

    /// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
    public init() {
        let made = valueOrErrno { systemEventfd() }
        guard case .success(let descriptor) = made else {
            preconditionFailure("eventfd failed: \(made)")
        }
        fileDescriptor = FileDescriptor(rawValue: descriptor)
    }

    deinit { try? fileDescriptor.close() }

    /// Makes ``fileDescriptor`` readable. Never blocks (a saturated counter is already readable).
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { try? fileDescriptor.write($0) }
    }

    /// Clears the signal (reads the counter).
    public func drain() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { try? fileDescriptor.read(into: $0) }
    }

    /// Whether it is signalled (does not clear it).
    public var isSignaled: Bool {
        (try? fileDescriptor.poll(.readable, timeoutMilliseconds: 0).contains(.readable)) ?? false
    }

    /// Waits up to `timeout` to be signalled; `true` when it is.
    @discardableResult
    public func wait(timeout: Duration) -> Bool {
        (try? fileDescriptor.poll(.readable, timeoutMilliseconds: timeout.pollMilliseconds).contains(.readable))
            ?? false
    }
}
