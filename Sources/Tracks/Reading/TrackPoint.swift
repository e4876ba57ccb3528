import NMEA

/// What every track file reader (GPX, KML, GeoJSON, CSV) makes of a point: a fix with what the file said and
/// nothing it did not.
enum TrackPoint {
    /// A fix at `latitude`, `longitude` (and `altitude`), or `nil` when the position is not one (out of range, not
    /// finite). Its mode and quality are assumed (``Fix/modeIsAssumed``: 3D with an altitude, 2D without) until the
    /// file states them.
    static func fix(latitude: Double, longitude: Double, altitude: Double? = nil) -> Fix? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        var fix = Fix(latitude: latitude, longitude: longitude, quality: .gps)
        fix.altitudeMeters = altitude.flatMap { $0.isFinite ? $0 : nil }
        fix.mode = fix.altitudeMeters == nil ? .twoD : .threeD
        fix.modeIsAssumed = true
        return fix
    }

    /// Sets the fix type a file stated (`none`, `2d`, `3d`, `dgps`, `pps`, as GPX's `fixType` names them); `false`
    /// for a name it does not know (the fix keeps its assumed mode).
    @discardableResult
    static func setFixType(_ name: String, of fix: inout Fix) -> Bool {
        switch name {
        case "none":
            fix.quality = .none
            fix.mode = .none
        case "2d": fix.mode = .twoD
        case "3d": fix.mode = .threeD
        case "dgps": fix.quality = .differential
        case "pps": fix.quality = .precise
        default: return false
        }
        fix.modeIsAssumed = false
        return true
    }

    /// Sets the fix's date and time from an ISO 8601 text (any `xsd:dateTime` form, converted to UTC), keeping as
    /// many fraction digits as the text had; `false` when the text is not a time.
    static func setTime(_ text: String, of fix: inout Fix) -> Bool {
        guard let (date, time) = ISO8601.parseDateTime(text) else { return false }
        (fix.date, fix.time) = (date, time)
        return true
    }

    /// A finite number, or `nil`.
    static func number(_ text: some StringProtocol) -> Double? {
        Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The name for a waypoint that has none: GPX and KML allow nameless ones, and waypoints are kept by name.
    static func waypointName(_ name: String?, number: Int) -> String {
        if let name, !name.isEmpty { return name }
        return "Waypoint \(number)"
    }
}
