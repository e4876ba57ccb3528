import Glibc

/// A POSIX thread of its own, for loops that block (a ``ReceiverConnection``'s reader): blocking work does not
/// belong on Dispatch's or Swift concurrency's shared pools, which have one thread per core.
public final class OSThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(status == 0, "pthread_create failed: \(Errno(rawValue: status))")
    }

    /// Waits for the thread to finish. Calling it again returns at once.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    deinit {
        if !joined { pthread_detach(thread) }
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
