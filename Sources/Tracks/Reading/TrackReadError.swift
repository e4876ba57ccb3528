/// Why a GPX or GeoJSON input cannot be read on: malformed at a line, or too deep or too long to hold.
public struct TrackReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line (1-based) where the input went wrong.
    public var line: Int
    public var reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// What a track reader found: points handed on, points it could not use (a bad latitude, a time it cannot read),
/// and what it passed over.
public struct TrackReadStatistics: Sendable, Hashable {
    public var points = 0
    public var segments = 0
    /// Points without a usable position or time (counted, not written).
    public var rejectedPoints = 0
    /// Waypoints read (GPX `<wpt>`, KML untimed placemarks, GeoJSON untimed Points), carried to the outputs.
    public var waypoints = 0
    /// Routes read (GPX `<rte>`, ours in KML and GeoJSON).
    public var routes = 0
    /// Features or placemarks that hold no track, waypoint or route (polygons, say): passed over.
    public var ignoredFeatures = 0
    /// Lines whose times could not be paired with their positions (another count): read without times.
    public var unpairedTimes = 0
    public init() {}

    /// The counts of both.
    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.points += rhs.points
        sum.segments += rhs.segments
        sum.rejectedPoints += rhs.rejectedPoints
        sum.waypoints += rhs.waypoints
        sum.routes += rhs.routes
        sum.ignoredFeatures += rhs.ignoredFeatures
        sum.unpairedTimes += rhs.unpairedTimes
        return sum
    }
}

/// `bytes` without a leading UTF-8 byte-order mark (the first chunk of a GPX or GeoJSON file may have one).
func withoutByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    guard bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF else { return bytes }
    return UnsafeRawBufferPointer(rebasing: bytes[3...])
}
