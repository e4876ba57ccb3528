import NMEA

/// Times as labels: `08:05`, `08:05:30`, `2026-11-30`.
enum TimeText {
    /// `HH:MM` or `HH:MM:SS` of `seconds` (since 1970 or since midnight), UTC.
    static func clock(_ seconds: Double, withSeconds: Bool) -> String {
        let secondOfDay = Int(Int64(seconds.rounded(.down)).flooredDivision(by: 86_400).remainder)
        func two(_ value: Int) -> String { DecimalFormatter.string(value, minimumDigits: 2) }
        var text = two(secondOfDay / 3600) + ":" + two(secondOfDay / 60 % 60)
        if withSeconds { text += ":" + two(secondOfDay % 60) }
        return text
    }

    /// `YYYY-MM-DD` of `seconds` since 1970.
    static func date(_ seconds: Double) -> String {
        UTCDate(containing: Int64(seconds.rounded(.down)) * 1_000_000_000).description
    }

    /// `MM-DD` of `seconds` since 1970, for multi-day axes.
    static func monthDay(_ seconds: Double) -> String { String(date(seconds).dropFirst(5)) }
}
