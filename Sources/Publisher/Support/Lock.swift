import Glibc

/// A value behind a `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`, for the reason the pipeline gives: Thread Sanitizer does not see that mutex's
/// futex-based locking on Linux and would report every value shared through one as a race; it understands
/// `pthread_mutex_*`.
final class Lock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, waiting for the lock.
    /// - Complexity: O(1) plus `body`, and the wait for the lock.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
