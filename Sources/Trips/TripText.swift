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

// MARK: - Tables

extension TripText {
    /// `2026-11-30 08:00:00`: a time in a table, to the second (UTC).
    public static func time(_ timestamp: Int64) -> String {
        let text = ISO8601.string(timestamp.flooredDivision(by: 1_000_000_000).quotient * 1_000_000_000)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }

    /// `48.13740, 11.57550`: a position without a place name.
    public static func position(_ latitude: Double, _ longitude: Double) -> String {
        DecimalFormatter.string(latitude, decimals: 5) + ", " + DecimalFormatter.string(longitude, decimals: 5)
    }

    /// Text for a terminal: control characters (from a cache file, a geocoder, a database) shown as `?`.
    public static func printable(_ text: String) -> String { TextEscaping.replacingControls(text) }

    /// Columns padded to their widest cell, two spaces apart, the last one unpadded; the columns in `rightAligned`
    /// aligned right.
    public static func layout(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let columns = rows[0].count
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var out = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index > 0 { line += "  " }
                if rightAligned.contains(index) {
                    line += padding + cell
                } else {
                    line += index == columns - 1 ? cell : cell + padding
                }
            }
            out += line + "\n"
        }
        return out
    }

    /// The trips and stops of `log` as `nmea trips` prints them: a table of trips, one of stops, and the summary
    /// line; `place` names a position (`nil`: its coordinates are shown).
    public static func table(_ log: TripLog, place: (Double, Double) -> PlaceName?) -> String {
        let trips = log.trips
        let stops = log.stops
        guard !trips.isEmpty else { return "No trips.\n" }
        func label(_ latitude: Double, _ longitude: Double) -> String {
            guard let text = place(latitude, longitude)?.label else { return position(latitude, longitude) }
            // A label from a cache file or another geocoder must not steer the terminal.
            return printable(text)
        }
        var rows = [["#", "START (UTC)", "END (UTC)", "DURATION", "DISTANCE", "AVG km/h", "MAX km/h", "FROM → TO"]]
        for (number, trip) in trips.enumerated() {
            rows.append([
                String(number + 1), time(trip.start.timestamp), time(trip.end.timestamp),
                duration(trip.durationSeconds), distance(trip.distanceMeters),
                DecimalFormatter.string(trip.averageSpeedKmh, decimals: 1),
                DecimalFormatter.string(trip.maximumSpeedKmh, decimals: 1),
                label(trip.start.latitude, trip.start.longitude) + " → " + label(trip.end.latitude, trip.end.longitude),
            ])
        }
        var out = "TRIPS\n" + layout(rows, rightAligned: [0, 3, 4, 5, 6])
        if !stops.isEmpty {
            var stopRows = [["#", "START (UTC)", "END (UTC)", "DURATION", "PLACE"]]
            for (number, stop) in stops.enumerated() {
                stopRows.append([
                    String(number + 1), time(stop.start.timestamp), time(stop.endTimestamp),
                    duration(stop.durationSeconds), label(stop.latitude, stop.longitude),
                ])
            }
            out += "\nSTOPS\n" + layout(stopRows, rightAligned: [0, 3])
        }
        return out + "\n" + summary(log.summary) + "\n"
    }
}
