import CMosquitto
import Glibc

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
