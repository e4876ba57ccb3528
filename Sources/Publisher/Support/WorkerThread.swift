import CShims
import Glibc

/// A POSIX thread running one closure. The publisher's consumer and the server's socket loop block in `futex` and
/// `poll`; blocking work does not belong on the shared pools of Dispatch or Swift concurrency (one thread per core).
final class WorkerThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private let name: String
    private var thread = pthread_t()
    private let joined = Lock(false)

    /// Starts `body` on a new thread named `name` (the kernel keeps 15 bytes).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        self.body = body
        self.name = name
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let this = Unmanaged<WorkerThread>.fromOpaque(context!).takeRetainedValue()
                nmea_set_thread_name(this.name)
                this.body()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to end (`pthread_join`). Later calls return at once.
    func join() {
        let first = joined.withLock { joined -> Bool in
            defer { joined = true }
            return !joined
        }
        if first { _ = pthread_join(thread, nil) }
    }
}
