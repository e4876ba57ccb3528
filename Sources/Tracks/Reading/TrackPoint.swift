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
        guard let moment = ISO8601.parse(text) else { return false }
        (fix.date, fix.time) = dateAndTime(moment, fractionDigits: fractionDigits(text))
        return true
    }

    /// The date and time of `moment` (nanoseconds since 1970).
    static func dateAndTime(_ moment: Int64, fractionDigits: UInt8) -> (UTCDate, UTCTime) {
        let day: Int64 = 86_400_000_000_000
        let days = moment >= 0 ? moment / day : (moment + 1) / day - 1
        let ofDay = moment - days * day
        let seconds = ofDay / 1_000_000_000
        let time = UTCTime(
            hour: UInt8(seconds / 3600), minute: UInt8(seconds / 60 % 60), second: UInt8(seconds % 60),
            nanoseconds: UInt32(ofDay % 1_000_000_000), fractionDigits: fractionDigits)
        return (UTCDate(daysSinceEpoch: Int(days)), time)
    }

    /// How many digits the time's fraction of a second had, so it is written back as given.
    static func fractionDigits(_ text: String) -> UInt8 {
        let utf8 = text.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        let digits = utf8[utf8.index(after: dot)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return UInt8(min(digits.count, 9))
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
