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

    /// Nanoseconds since 1970, now.
    /// - Complexity: O(1) (a vDSO call).
    public static func nanosecondsSinceEpoch() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
    }

    /// The calendar clock less the monotonic one, for putting monotonic readings taken a moment ago on the
    /// calendar (stamping bytes with the time they were read, after the fact).
    ///
    /// The two clocks cannot be read at the same instant, so each reading of the difference is off by the
    /// nanoseconds between the two calls; taken afresh for every stamp, that jitter could put two bytes of one read
    /// a millisecond apart, or in the wrong order. ``refresh()`` therefore keeps the difference it has unless the
    /// new one differs by more than a millisecond (the calendar clock was set or stepped): stamps of readings in
    /// order are in order.
    public struct Offset: Sendable {
        private var nanoseconds: Int64?

        public init() {}

        /// Reads both clocks, and takes their difference if it moved by more than a millisecond (or on the first
        /// call).
        public mutating func refresh() {
            let difference = WallClock.nanosecondsSinceEpoch() &- MonotonicTime.now().nanoseconds
            if let nanoseconds, abs(difference &- nanoseconds) <= 1_000_000 { return }
            nanoseconds = difference
        }

        /// The calendar time of `moment` in milliseconds since 1970 (``refresh()`` first, at least once).
        public func milliseconds(at moment: MonotonicTime) -> Int64 {
            (moment.nanoseconds &+ (nanoseconds ?? 0)) / 1_000_000
        }
    }
}
