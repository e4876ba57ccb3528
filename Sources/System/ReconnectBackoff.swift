/// When to try a connection again: the first wait is `minimum` seconds, doubled after each failure up to
/// `maximum`, each with ±10 % jitter so that clients that failed together do not come back together. One rule for
/// the broker, the database and the network receivers.
public struct ReconnectBackoff: Sendable {
    public let minimum: Double
    public let maximum: Double
    private var delay: Double
    /// Monotonic seconds (``MonotonicTime``) of the next attempt; 0 until a failure.
    public private(set) var nextAttempt = 0.0

    public init(minimum: Double, maximum: Double) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        delay = minimum
    }

    /// An attempt failed: the next one waits longer.
    public mutating func failed() {
        nextAttempt = MonotonicTime.now().seconds + delay * Double.random(in: 0.9...1.1)
        delay = min(delay * 2, maximum)
    }

    /// The wait the next ``failed()`` will set (before its jitter), in seconds.
    public var nextDelay: Double { delay }

    /// A connection succeeded: the next failure waits `minimum` again.
    public mutating func succeeded() {
        delay = minimum
    }

    /// `true` when an attempt may be made now.
    public var isDue: Bool { MonotonicTime.now().seconds >= nextAttempt }

    /// Seconds until the next attempt (0 when due).
    public var secondsLeft: Double { max(0, nextAttempt - MonotonicTime.now().seconds) }
}
