import Glibc

/// A moment on the monotonic clock (`CLOCK_MONOTONIC`, `clock_gettime(2)`): nanoseconds since an unspecified start
/// (boot), never set back, the same clock as `poll`/`futex` timeouts and every other thread's reading. The one clock
/// the project measures time, timeouts and deadlines with.
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

    /// The reading in seconds, for rates and for arithmetic in `Double` (`end.seconds - start.seconds`).
    /// - Complexity: O(1).
    @inlinable
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Milliseconds from now until `self`, rounded up (0 when past), as a `poll(2)` timeout.
    /// - Complexity: O(1).
    public var millisecondsFromNow: Int32 {
        let remaining = nanoseconds &- MonotonicTime.now().nanoseconds
        if remaining <= 0 { return 0 }
        return Int32(clamping: (remaining + 999_999) / 1_000_000)
    }

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

/// Sleeps for `duration` (`nanosleep(2)`, resumed for the time left after a signal interrupts it).
public func sleep(for duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while systemNanosleep(&request, &remaining) == -1 && Errno.current == .interrupted { request = remaining }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`.
    /// - Complexity: O(1).
    @inlinable
    public var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        if seconds >= Int64.max / 1_000_000_000 { return .max }
        if seconds <= Int64.min / 1_000_000_000 { return .min }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds, rounded up, clamped to what `poll(2)` accepts (never negative: -1 would
    /// wait forever).
    /// - Complexity: O(1).
    public var pollMilliseconds: Int32 {
        if self <= .zero { return 0 }
        let (seconds, attoseconds) = components
        if seconds >= Int64(Int32.max / 1000) { return Int32.max }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(milliseconds)
    }
}
