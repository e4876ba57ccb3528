/// A time at rest in one place, as ``TripDetector`` found it; ``TripLog/stops`` are those between trips.
public struct Stop: Sendable, Hashable {
    /// When the vehicle arrived (the end of the trip before), and where: the stop's position.
    public var start: TripPoint
    /// Nanoseconds since 1970-01-01 UTC: when movement began again (the start of the next trip), or the last fix.
    public var endTimestamp: Int64
    /// The stop was already going on when the data began, or resumed here after a gap: it began earlier.
    public var openStart: Bool
    /// The data ended during the stop, or paused and resumed elsewhere: it ended later.
    public var openEnd: Bool

    public init(start: TripPoint, endTimestamp: Int64, openStart: Bool, openEnd: Bool) {
        self.start = start
        self.endTimestamp = endTimestamp
        self.openStart = openStart
        self.openEnd = openEnd
    }

    public var latitude: Double { start.latitude }
    public var longitude: Double { start.longitude }

    /// Seconds from start to end.
    public var durationSeconds: Double { Double(endTimestamp - start.timestamp) / 1e9 }
}
