import Glibc

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), for timeouts that must not jump with the wall clock.
struct MonotonicInstant: Comparable, Sendable {
    /// Nanoseconds since an arbitrary start.
    let nanoseconds: Int64

    static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = rhs.components
        return MonotonicInstant(nanoseconds: lhs.nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The time from `self` to `later`.
    func duration(to later: MonotonicInstant) -> Duration { .nanoseconds(later.nanoseconds - nanoseconds) }

    /// Milliseconds from now until `self` (0 when past), for `poll(2)`.
    var millisecondsFromNow: Int32 {
        let remaining = nanoseconds - MonotonicInstant.now().nanoseconds
        if remaining <= 0 { return 0 }
        return Int32(clamping: (remaining + 999_999) / 1_000_000)
    }
}

/// Sleeps for `duration` (`nanosleep`, resumed after signals).
func sleep(for duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
}
