import NMEA

/// Decides where each fix goes in a track: skipped (no position), in the current segment, or first of a new one.
///
/// A segment ends when the fix is lost (a fix without a position), and a new one begins when the time between two
/// points exceeds the split gap or runs backwards (logs joined out of order). Provisional fixes are skipped: the
/// complete fix for the same epoch follows them.
public struct TrackSegmenter: Sendable {
    /// Where a fix goes.
    public enum Placement: Sendable, Hashable {
        /// Not a point: no position, or provisional.
        case skip
        /// The next point of the current segment.
        case continueSegment
        /// The first point of a new segment.
        case newSegment
    }

    /// The longest time between two points of one segment, nanoseconds.
    public let splitGapNanoseconds: Int64
    private var lastTimestamp: Int64?
    private var segmentIsOpen = false

    public init(splitGapSeconds: Double = 60) {
        splitGapNanoseconds = Int64((splitGapSeconds * 1e9).rounded())
    }

    /// Continues a track written before (a file reopened to append to): the next point joins the segment that ended
    /// with a point at `timestamp` (nanoseconds since 1970; `nil` when that point had no time), unless the split gap
    /// or time running backwards says otherwise.
    public mutating func resume(afterPointAt timestamp: Int64?) {
        segmentIsOpen = true
        lastTimestamp = timestamp
    }

    /// Places `fix`, updating the state for the next one.
    public mutating func place(_ fix: Fix) -> Placement {
        if fix.isProvisional { return .skip }
        guard fix.hasPosition && fix.hasWritablePosition else {
            segmentIsOpen = false
            return .skip
        }
        let timestamp = fix.timestamp
        defer {
            segmentIsOpen = true
            if let timestamp { lastTimestamp = timestamp }
        }
        guard segmentIsOpen else { return .newSegment }
        if let timestamp, let lastTimestamp,
            timestamp - lastTimestamp > splitGapNanoseconds || timestamp < lastTimestamp
        {
            return .newSegment
        }
        return .continueSegment
    }
}
