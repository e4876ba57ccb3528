import NMEA

/// The time of each fix on one track, in nanoseconds: since 1970-01-01 UTC when the track has dates, else — for
/// logs of date-less sentences (GGA only), when ``undatedFixes`` allows — since midnight of the track's first day,
/// carried over each midnight.
///
/// The first fix with a time decides: with a date, the track is dated, and a later fix without one has no time on
/// it; without, times are of the day from then on, dates or not. A time of day more than 12 hours before the one
/// before is taken as the next day.
public struct TrackClock: Sendable, Hashable {
    /// What to do with fixes that have a time of day but no date.
    public enum UndatedFixes: Sendable, Hashable {
        /// They have no time on the track (as `nmea trips` wants: its trips are dated).
        case ignored
        /// They are timed by the time of day, when the track begins without dates (as a picture or a live view
        /// can be).
        case timeOfDay
    }

    public let undatedFixes: UndatedFixes
    /// `true` once a dated fix began the track, `false` once an undated one did; `nil` before.
    public private(set) var isDated: Bool?
    private var dayOffset: Int64 = 0
    private var lastTimeOfDay: Int64?

    public init(undatedFixes: UndatedFixes = .ignored) { self.undatedFixes = undatedFixes }

    /// The time of `fix` on the track, or `nil` when it has none.
    public mutating func timestamp(of fix: Fix) -> Int64? {
        if isDated == nil {
            if fix.timestamp != nil {
                isDated = true
            } else if fix.time != nil && undatedFixes == .timeOfDay {
                isDated = false
            }
        }
        guard isDated == false else { return fix.timestamp }
        guard let timeOfDay = fix.time?.nanosecondsSinceMidnight else { return nil }
        let day = UTCDate.nanosecondsPerDay
        if let lastTimeOfDay, timeOfDay + dayOffset < lastTimeOfDay - day / 2 { dayOffset += day }
        lastTimeOfDay = timeOfDay + dayOffset
        return timeOfDay + dayOffset
    }
}
