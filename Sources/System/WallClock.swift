import Glibc

/// The system's calendar clock (`CLOCK_REALTIME`, `clock_gettime(2)`): for stamping when something happened, as
/// receive times are. It can be set and stepped, so durations are measured on ``MonotonicTime``.
public enum WallClock {
    /// Milliseconds since 1970-01-01 00:00:00 UTC, now.
    /// - Complexity: O(1) (a vDSO call).
    public static func millisecondsSinceEpoch() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) &* 1000 &+ Int64(spec.tv_nsec) / 1_000_000
    }

    /// The calendar time of `moment`, a reading of the monotonic clock taken a moment ago (up to hours): now on this
    /// clock less the time elapsed since it. For stamping bytes with the time they were read, after the fact.
    /// - Complexity: O(1).
    public static func millisecondsSinceEpoch(at moment: MonotonicTime) -> Int64 {
        let now = millisecondsSinceEpoch()
        let elapsed = MonotonicTime.now().nanoseconds &- moment.nanoseconds
        return now &- elapsed / 1_000_000
    }
}
