import Glibc

/// A moment on the monotonic clock (`CLOCK_MONOTONIC`, `clock_gettime(2)`): nanoseconds since an unspecified start
/// (boot), never set back, the same clock as `poll`/`futex` timeouts and every other thread's reading.
///
/// Plain data (one `Int64`), so records carrying it stay `BitwiseCopyable`.
@frozen
public struct MonotonicTime: Sendable, Hashable, Comparable, BitwiseCopyable {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    public var nanoseconds: Int64

    /// - Complexity: O(1).
    @inlinable
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The time now (`clock_gettime(CLOCK_MONOTONIC)`, a vDSO call: no system call, ~20 ns).
    /// - Complexity: O(1).
    @inlinable
    public static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec))
    }

    /// The time elapsed since `self`.
    /// - Complexity: O(1).
    @inlinable
    public var elapsed: Duration { MonotonicTime.now() - self }

    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The time from `rhs` to `lhs`.
    /// - Complexity: O(1).
    @inlinable
    public static func - (lhs: MonotonicTime, rhs: MonotonicTime) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// `time` moved on by `duration` (saturating at the clock's limits).
    /// - Complexity: O(1).
    @inlinable
    public static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
        let (sum, overflow) = time.nanoseconds.addingReportingOverflow(duration.nanosecondsClamped)
        return MonotonicTime(nanoseconds: overflow ? (duration < .zero ? .min : .max) : sum)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`.
    /// - Complexity: O(1).
    @inlinable
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        if seconds >= Int64.max / 1_000_000_000 { return .max }
        if seconds <= Int64.min / 1_000_000_000 { return .min }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
