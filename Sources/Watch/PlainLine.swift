import NMEA
import Presentation

/// One line per fix, for when standard output is not a terminal (a pipe, a file, a log):
///
///     2026-11-30T08:00:05Z 3D 48.137400 N 11.575500 E 45.0 km/h course 45.0 alt 520.0 m 24/28 sats HDOP 0.50 Munich
///     2026-11-30T08:00:06Z no fix 0/12 sats
///
/// Fields are separated by single spaces; absent values are left out (a GGA-only log has no speed). The same in
/// every locale (ASCII but for a place's own name); control characters in a place name become `?`.
public enum PlainLine {
    public static func format(_ fix: Fix, place: String?) -> String {
        var parts: [String] = []
        if let time = fix.time {
            if let date = fix.date { parts.append("\(date)T\(time)Z") } else { parts.append("\(time)Z") }
        } else {
            parts.append("-")
        }
        if fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude {
            parts.append(fix.mode == .threeD ? "3D" : "2D")
            if fix.quality != .gps && fix.quality != .none {
                parts.append(Formatting.qualityName(fix.quality).replacing(" ", with: "-"))
            }
            parts.append(Formatting.fixed(abs(latitude), 6) + (latitude < 0 ? " S" : " N"))
            parts.append(Formatting.fixed(abs(longitude), 6) + (longitude < 0 ? " W" : " E"))
            if let speed = fix.speed { parts.append(Formatting.fixed(speed * 3.6, 1) + " km/h") }
            if let course = fix.courseDegrees { parts.append("course " + Formatting.fixed(course, 1)) }
            if let altitude = fix.altitudeMeters { parts.append("alt " + Formatting.fixed(altitude, 1) + " m") }
        } else {
            parts.append("no fix")
        }
        let used = fix.satellitesUsed ?? fix.satellitesUsedInView
        parts.append("\(used)/\(fix.satellites.count) sats")
        if let hdop = fix.hdop { parts.append("HDOP " + Formatting.fixed(hdop, 2)) }
        if let place, !place.isEmpty { parts.append(place.map { Canvas.printable($0) }.joined()) }
        return parts.joined(separator: " ")
    }
}
