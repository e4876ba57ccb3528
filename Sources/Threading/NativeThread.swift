import CShims
import Glibc
import System

/// A POSIX thread running one closure, for loops that block in `read`, `poll` or a futex (a receiver's reader, the
/// ring's consumers, the gpsd server's sockets, the MQTT connection): blocking work does not belong on Dispatch's
/// or Swift concurrency's shared pools, which have one thread per core.
public final class NativeThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let joined = Locked(false)

    /// Starts `body` on a new thread, named `name` in `top` and `/proc` when given (the kernel keeps 15 bytes).
    public init(name: String? = nil, _ body: sending @escaping () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { argument in
                let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                if let name = start.name { nmea_set_thread_name(name) }
                start.body()
                return nil
            }, start)
        precondition(status == 0, "pthread_create failed: \(Errno(rawValue: status))")
    }

    /// Waits for the thread to end (`pthread_join`). Later calls, from any thread, return at once.
    public func join() {
        let first = joined.withLock { joined in
            defer { joined = true }
            return !joined
        }
        if first { _ = pthread_join(thread, nil) }
    }

    deinit {
        if !joined.current { pthread_detach(thread) }
    }

    private final class Start: @unchecked Sendable {
        let name: String?
        let body: () -> Void
        init(name: String?, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
