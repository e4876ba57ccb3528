import Glibc

/// A mutual-exclusion lock over `pthread_mutex_t`, for code that guards several fields at once.
///
/// Not `Synchronization.Mutex`: on Linux its futex-based locking lives in the uninstrumented standard library, so
/// Thread Sanitizer cannot see it and reports every value shared through one as a race; TSan intercepts
/// `pthread_mutex_*` and understands these. Uncontended, both cost a few tens of nanoseconds.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held, waiting for it.
    /// - Complexity: O(1) plus `body`, and the wait for the lock.
    @inline(__always)
    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` with the lock held if it is free now (`pthread_mutex_trylock`); `nil` without waiting if not.
    @inline(__always)
    public func withLockIfAvailable<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value shared between threads, every access under a ``Lock``.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, waiting for the lock.
    /// - Complexity: O(1) plus `body`, and the wait for the lock.
    @inline(__always)
    public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }

    /// Runs `body` with the value if the lock is free now; `nil` without waiting if not.
    @inline(__always)
    public func withLockIfAvailable<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R? {
        try lock.withLockIfAvailable { () throws(E) -> R in try body(&value) }
    }

    /// A copy of the value.
    public var current: Value { lock.withLock { value } }

    /// Takes the value out, leaving `nil` (a thread to join once, whoever asks first).
    public func take<Wrapped>() -> Value where Value == Wrapped? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
