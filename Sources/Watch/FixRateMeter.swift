/// The fix rate, from the timestamps of the last few fixes: `(n − 1) / (last − first)`.
public struct FixRateMeter: Sendable, Hashable {
    /// Timestamps (nanoseconds since 1970) of recent fixes, oldest first.
    private var stamps: [Int64] = []
    public let window: Int

    public init(window: Int = 8) { self.window = max(window, 2) }

    /// Adds a fix's timestamp. One that repeats or goes back (a new file, a receiver restart, lost records) starts
    /// the measurement afresh.
    public mutating func add(_ timestamp: Int64) {
        if let last = stamps.last, timestamp <= last { stamps.removeAll() }
        stamps.append(timestamp)
        if stamps.count > window { stamps.removeFirst(stamps.count - window) }
    }

    /// Forgets the fixes seen (after a gap in what was read).
    public mutating func reset() { stamps.removeAll() }

    /// Fixes per second; `nil` until two fixes have been seen.
    public var hertz: Double? {
        guard stamps.count >= 2, let first = stamps.first, let last = stamps.last, last > first else { return nil }
        return Double(stamps.count - 1) / (Double(last - first) / 1e9)
    }
}
