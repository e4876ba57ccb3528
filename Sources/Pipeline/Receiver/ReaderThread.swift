import CShims
import Glibc

/// A POSIX thread running one closure: the pipeline's reader owns a thread of its own, not a pool's.
final class ReaderThread: @unchecked Sendable {
    private let body: () -> Void
    private let name: String
    private var thread = pthread_t()

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept by the kernel).
    init(name: String, _ body: sending @escaping () -> Void) {
        self.body = body
        self.name = name
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let this = Unmanaged<ReaderThread>.fromOpaque(context!).takeRetainedValue()
            nmea_set_thread_name(this.name)
            this.body()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to end (`pthread_join`). Call once.
    func join() {
        _ = pthread_join(thread, nil)
    }
}
