/// GPS time as receivers count it: whole weeks and milliseconds into the week since 1980-01-06 00:00:00 UTC, running
/// ahead of UTC by the leap seconds.
public enum GPSTime {
    /// 1980-01-06 00:00:00 UTC, in milliseconds since 1970.
    public static let epochMilliseconds: Int64 = 315_964_800_000
    /// The milliseconds of a week.
    public static let weekMilliseconds: Int64 = 604_800_000

    /// The GPS week and time of week of a moment `unixMilliseconds` after 1970 (UTC), with GPS time `leapSeconds`
    /// ahead of UTC (0 for a key that needs only to be the same for the same moment).
    public static func week(
        unixMilliseconds: Int64, leapSeconds: Int64 = 0
    ) -> (week: Int64, timeOfWeekMilliseconds: Int64) {
        let (week, timeOfWeek) = (unixMilliseconds + leapSeconds * 1000 - epochMilliseconds).flooredDivision(
            by: weekMilliseconds)
        return (week, timeOfWeek)
    }
}
