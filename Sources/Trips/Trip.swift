/// A moment and a position on a trip or a stop.
public struct TripPoint: Sendable, Hashable {
    /// Nanoseconds since 1970-01-01 UTC.
    public var timestamp: Int64
    /// Decimal degrees, negative south.
    public var latitude: Double
    /// Decimal degrees, negative west.
    public var longitude: Double

    public init(timestamp: Int64, latitude: Double, longitude: Double) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A journey between two stops, as ``TripDetector`` found it.
public struct Trip: Sendable, Hashable {
    /// Why the trip ended where it did.
    public enum Ending: String, Sendable, Hashable {
        /// The vehicle stopped: every fix for the stop time lay within the minimum distance.
        case stop
        /// The data paused for longer than the maximum gap.
        case gap
        /// The data ended while moving (or before a stop could be confirmed).
        case endOfData = "end"
    }

    /// Where and when movement began: the last fix at rest at the stop it left.
    public var start: TripPoint
    /// Where and when the vehicle came to rest (or the last fix, for a trip cut by a gap or the end of the data).
    public var end: TripPoint
    /// Along the track: the sum of the great-circle steps between consecutive fixes, metres.
    public var distanceMeters: Double
    /// The highest speed: the receiver's speed over ground where it sent one, else from the positions over at least
    /// a second; metres per second.
    public var maximumSpeed: Double
    /// Fixes from start to end.
    public var fixes: Int
    public var ending: Ending

    public init(
        start: TripPoint, end: TripPoint, distanceMeters: Double, maximumSpeed: Double, fixes: Int,
        ending: Ending
    ) {
        self.start = start
        self.end = end
        self.distanceMeters = distanceMeters
        self.maximumSpeed = maximumSpeed
        self.fixes = fixes
        self.ending = ending
    }

    /// Seconds from start to end.
    public var durationSeconds: Double { Double(end.timestamp - start.timestamp) / 1e9 }

    /// Distance over duration, metres per second (0 for a trip of no duration).
    public var averageSpeed: Double {
        Self.averageSpeed(distanceMeters: distanceMeters, durationSeconds: durationSeconds)
    }

    /// The one average-speed rule, for trips known only by their figures (a stored trip): distance over duration,
    /// metres per second, 0 for no duration.
    public static func averageSpeed(distanceMeters: Double, durationSeconds: Double) -> Double {
        durationSeconds > 0 ? distanceMeters / durationSeconds : 0
    }

    public var averageSpeedKmh: Double { averageSpeed * 3.6 }
    public var maximumSpeedKmh: Double { maximumSpeed * 3.6 }
}
