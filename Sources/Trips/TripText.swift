import NMEA

/// Distances and durations of trips as every command writes them, so that `nmea trips`, `nmea plot` and
/// `nmea watch` print the same figure for the same track.
public enum TripText {
    /// `35.21 km`, or `850 m` under a kilometre.
    public static func distance(_ meters: Double) -> String {
        meters < 1000
            ? DecimalFormatter.string(meters, decimals: 0) + " m"
            : DecimalFormatter.string(meters / 1000, decimals: 2) + " km"
    }

    /// `1:05:09`: hours, minutes and seconds.
    public static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return "\(total / 3600):" + DecimalFormatter.string(total / 60 % 60, minimumDigits: 2) + ":"
            + DecimalFormatter.string(total % 60, minimumDigits: 2)
    }

    /// `2 trips, 68.34 km in 1:00:02; 1 stop between them` — the figures of a track in one line (the stops only
    /// when there are two trips or more).
    public static func summary(_ summary: TripLog.Summary) -> String {
        var text =
            "\(summary.trips) trip\(summary.trips == 1 ? "" : "s"), \(distance(summary.distanceMeters)) in "
            + duration(summary.durationSeconds)
        if summary.trips > 1 { text += "; \(summary.stops) stop\(summary.stops == 1 ? "" : "s") between them" }
        return text
    }
}
