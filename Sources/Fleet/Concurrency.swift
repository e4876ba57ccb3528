import CMosquitto
import Glibc

/// A mutual-exclusion lock over `pthread_mutex_t`.
///
/// A plain pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer on Linux sees pthread locks, so races
/// in the code around it stay visible to it.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value shared between threads, every access under a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value) }
    }

    var current: Value { lock.withLock { value } }
}

/// A thread of its own (`pthread_create`), joined with ``join()``.
final class NativeThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread named `name` (at most 15 bytes show in `top`).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            nmea_fleet_name_thread(box.name)
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits for the thread to end.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}

/// A wake-up for a thread that waits in `poll(2)`: an `eventfd` that other threads signal without ever blocking.
final class WakeUp: @unchecked Sendable {
    /// Readable when signalled.
    let fd: Int32

    init() {
        fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(fd >= 0, "eventfd failed: \(errno)")
    }

    deinit { close(fd) }

    /// Makes ``fd`` readable. Never blocks (a saturated counter is already readable).
    func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Clears the signal.
    func drain() {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Seconds since 1970 on the wall clock.
func wallSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// `strerror(code)`.
func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
