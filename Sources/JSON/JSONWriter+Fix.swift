import NMEA

extension JSONWriter {
    /// A fix as one object (``JSONText/write(_:)``), in one piece.
    public mutating func write(_ fix: Fix) { write { $0.write(fix) } }

    /// See ``JSONText/writeMembers(of:)``.
    public mutating func writeMembers(of fix: Fix) { write { $0.writeMembers(of: fix) } }
}

/// The JSON form of a fix, as `nmea parse --fixes` prints it: one object, absent values left out.
extension JSONText {
    /// One object: ``writeMembers(of:)`` in braces.
    public mutating func write(_ fix: Fix) {
        beginObject()
        writeMembers(of: fix)
        endObject()
    }

    /// The fix's members, into an object the caller opened (the web page's position adds its place and age).
    public mutating func writeMembers(of fix: Fix) {
        if fix.date != nil && fix.time != nil {
            key("time")
            asciiString { output in fix.writeISO8601(to: output) }
        } else if let time = fix.time {
            key("time_of_day")
            asciiString(time.write)
        }
        field("lat", fix.latitude)
        field("lon", fix.longitude)
        field("alt", fix.altitudeMeters)
        key("mode")
        string(fix.mode.name)
        key("quality")
        string(fix.quality.name)
        field("speed", fix.speed, maximumDecimals: Fix.speedDecimals)
        field("course", fix.courseDegrees)
        field("climb", fix.climb, maximumDecimals: Fix.speedDecimals)
        field("heading", fix.headingDegrees)
        field("heading_magnetic", fix.magneticHeadingDegrees)
        field("depth_m", fix.depthMeters)
        field("rate_of_turn_deg_per_min", fix.rateOfTurnDegreesPerMinute)
        field("pitch", fix.pitchDegrees)
        field("roll", fix.rollDegrees)
        field("magnetic_variation", fix.magneticVariationDegrees)
        field("geoid_separation", fix.geoidSeparationMeters)
        field("hdop", fix.hdop)
        field("vdop", fix.vdop)
        field("pdop", fix.pdop)
        field("satellites_used", fix.satellitesUsed)
        if !fix.satellites.isEmpty {
            field("satellites_in_view", fix.satellites.count)
        }
        field("lat_error", fix.latitudeErrorMeters)
        field("lon_error", fix.longitudeErrorMeters)
        field("horizontal_error", fix.horizontalErrorMeters)
        field("vertical_error", fix.verticalErrorMeters)
        field("dgps_age", fix.differentialAgeSeconds)
        field("dgps_station", fix.differentialStationID)
        if fix.isProvisional { field("provisional", true) }
        if fix.dateWasCorrected { field("date_corrected", true) }
    }
}
