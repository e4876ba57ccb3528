import Geodesy
import Trips

/// Decides which positions to publish, so that a parked vehicle does not flood the broker.
///
/// A position is published when it is the first, or when at least ``intervalSeconds`` have passed since the last
/// published one *and* it lies at least ``minimumMoveMeters`` from it, or when ``heartbeatSeconds`` have passed
/// whatever the distance (so a dashboard can tell a parked vehicle from a dead one). Time is the fix time, so a
/// replayed log is limited as the live drive was. A fix time that goes backwards (a new log, a receiver reset) starts
/// over: that fix is published.
///
/// With both limits 0 every position is published.
public struct PublishRateLimiter: Sendable, Hashable {
    /// Why a position was or was not published.
    public enum Decision: Sendable, Hashable {
        case publish
        /// Too soon after the last published position.
        case tooSoon
        /// Not far enough from the last published position.
        case tooClose
    }

    public var intervalSeconds: Double
    public var minimumMoveMeters: Double
    /// 0 for none.
    public var heartbeatSeconds: Double
    private var last: (timestamp: Int64, latitude: Double, longitude: Double)?

    public init(intervalSeconds: Double = 5, minimumMoveMeters: Double = 25, heartbeatSeconds: Double = 300) {
        self.intervalSeconds = intervalSeconds
        self.minimumMoveMeters = minimumMoveMeters
        self.heartbeatSeconds = heartbeatSeconds
    }

    /// Decides about the position at `latitude`, `longitude`, fix time `timestamp` (nanoseconds since 1970), and
    /// remembers it when the answer is ``Decision/publish``.
    public mutating func decide(timestamp: Int64, latitude: Double, longitude: Double) -> Decision {
        let decision = evaluate(timestamp: timestamp, latitude: latitude, longitude: longitude)
        if decision == .publish { last = (timestamp, latitude, longitude) }
        return decision
    }

    private func evaluate(timestamp: Int64, latitude: Double, longitude: Double) -> Decision {
        guard let last, timestamp >= last.timestamp else { return .publish }
        let elapsed = Double(timestamp - last.timestamp) / 1e9
        if heartbeatSeconds > 0 && elapsed >= heartbeatSeconds { return .publish }
        if elapsed < intervalSeconds { return .tooSoon }
        if minimumMoveMeters > 0,
            Geodesy.distanceMeters(last.latitude, last.longitude, latitude, longitude) < minimumMoveMeters
        {
            return .tooClose
        }
        return .publish
    }

    /// Forgets the last published position: the next one is published.
    public mutating func reset() { last = nil }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.intervalSeconds == rhs.intervalSeconds && lhs.minimumMoveMeters == rhs.minimumMoveMeters
            && lhs.heartbeatSeconds == rhs.heartbeatSeconds && lhs.last?.timestamp == rhs.last?.timestamp
            && lhs.last?.latitude == rhs.last?.latitude && lhs.last?.longitude == rhs.last?.longitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(intervalSeconds)
        hasher.combine(minimumMoveMeters)
        hasher.combine(heartbeatSeconds)
        hasher.combine(last?.timestamp)
    }
}
