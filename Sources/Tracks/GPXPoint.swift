import NMEA

/// The GPX version a ``GPXWriter`` writes.
public enum GPXVersion: String, Sendable, Hashable {
    /// GPX 1.1: speed and course in Garmin's TrackPointExtension v2.
    case v11 = "1.1"
    /// GPX 1.0: speed and course as the `<speed>` and `<course>` elements that GPX 1.1 dropped, which many readers
    /// (and GPSBabel's users) still want.
    case v10 = "1.0"
}

/// The GPX text of one track point, in the element order the schema requires.
///
/// GPX 1.1: `ele`, `time`, `magvar`, `geoidheight`, `fix`, `sat`, `hdop`, `vdop`, `pdop`, `ageofdgpsdata`, `dgpsid`,
/// `extensions` (speed and course in Garmin's TrackPointExtension v2, where speed is m/s and course is degrees
/// true in [0, 360); the receiver's own accuracy estimates in ours, `nmea:hacc`, `nmea:vacc` metres and `nmea:sacc`
/// m/s, as u-blox hAcc/vAcc/sAcc or GST give them). GPX 1.0: `ele`, `time`, `course`, `speed`, `magvar`, `geoidheight`, `fix`, `sat`, `hdop`,
/// `vdop`, `pdop`, `ageofdgpsdata`, `dgpsid` (course in degrees true, speed in m/s).
enum GPXPoint {
    static let namespaces = """
        xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
        xmlns:nmea="https://github.com/swift-nmea/swift-nmea/gpx/accuracy/1" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
        http://www.garmin.com/xmlschemas/TrackPointExtension/v2 \
        http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd"
        """
    static let namespaces10 = """
        xmlns="http://www.topografix.com/GPX/1/0" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/0 http://www.topografix.com/GPX/1/0/gpx.xsd"
        """

    /// ` lat="…" lon="…"`, the attributes of every GPX point element (`trkpt`, `rtept`, `wpt`).
    static func appendCoordinates(_ latitude: Double, _ longitude: Double, to out: inout [UInt8]) {
        out.append(contentsOf: " lat=\"".utf8)
        DecimalFormatter.append(latitude, to: &out)
        out.append(contentsOf: "\" lon=\"".utf8)
        // The schema's longitude is -180 ≤ lon < 180.
        DecimalFormatter.append(longitude == 180 ? -180 : longitude, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `<trkpt …>…</trkpt>` and a newline. The fix must have a writable position.
    static func append(_ fix: Fix, version: GPXVersion = .v11, to out: inout [UInt8]) {
        guard let longitude = fix.longitude, let latitude = fix.latitude else { return }
        out.appendText("      <trkpt")
        appendCoordinates(latitude, longitude, to: &out)
        out.append(UInt8(ascii: ">"))
        if let altitude = fix.altitudeMeters, altitude.isFinite {
            element("ele", altitude, &out)
        }
        if fix.date != nil && fix.time != nil {
            out.appendText("<time>")
            fix.appendISO8601(to: &out)
            out.appendText("</time>")
        }
        let speed = fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let course = fix.courseDegrees.flatMap(degreesTrue)
        if version == .v10 {
            if let course { element("course", course, &out) }
            if let speed { element("speed", speed, &out, style: .maximumDecimals(Fix.speedDecimals)) }
        }
        if let variation = fix.magneticVariationDegrees, let degrees = degreesTrue(variation) {
            element("magvar", degrees, &out)
        }
        if let separation = fix.geoidSeparationMeters, separation.isFinite {
            element("geoidheight", separation, &out)
        }
        if !fix.modeIsAssumed {
            out.appendText("<fix>")
            out.appendText(fixName(fix))
            out.appendText("</fix>")
        }
        if let used = fix.satellitesUsed, used >= 0 {
            out.appendText("<sat>")
            DecimalFormatter.append(used, to: &out)
            out.appendText("</sat>")
        }
        if let hdop = fix.hdop, hdop.isFinite { element("hdop", hdop, &out) }
        if let vdop = fix.vdop, vdop.isFinite { element("vdop", vdop, &out) }
        if let pdop = fix.pdop, pdop.isFinite { element("pdop", pdop, &out) }
        if let age = fix.differentialAgeSeconds, age.isFinite { element("ageofdgpsdata", age, &out) }
        if let station = fix.differentialStationID, (0...1023).contains(station) {
            out.appendText("<dgpsid>")
            DecimalFormatter.append(station, to: &out)
            out.appendText("</dgpsid>")
        }
        let hacc = accuracy(fix.horizontalErrorMeters)
        let vacc = accuracy(fix.verticalErrorMeters)
        let sacc = accuracy(fix.speedErrorMetersPerSecond)
        let hasAccuracy = hacc != nil || vacc != nil || sacc != nil
        if version == .v11 && (speed != nil || course != nil || hasAccuracy) {
            out.appendText("<extensions>")
            if speed != nil || course != nil {
                out.appendText("<gpxtpx:TrackPointExtension>")
                if let speed { element("gpxtpx:speed", speed, &out, style: .maximumDecimals(Fix.speedDecimals)) }
                if let course { element("gpxtpx:course", course, &out) }
                out.appendText("</gpxtpx:TrackPointExtension>")
            }
            if let hacc { element("nmea:hacc", hacc, &out, style: .maximumDecimals(3)) }
            if let vacc { element("nmea:vacc", vacc, &out, style: .maximumDecimals(3)) }
            if let sacc { element("nmea:sacc", sacc, &out, style: .maximumDecimals(3)) }
            out.appendText("</extensions>")
        }
        out.appendText("</trkpt>\n")
    }

    /// `none`, `2d`, `3d`, `dgps` or `pps`, the values of the schema's `fixType`. RTK counts as differential.
    static func fixName(_ fix: Fix) -> StaticString {
        switch fix.quality {
        case .differential, .rtkFixed, .rtkFloat: return "dgps"
        case .precise: return "pps"
        default: return fix.mode == .threeD ? "3d" : fix.mode == .twoD ? "2d" : "none"
        }
    }

    /// `degrees` in [0, 360), or `nil` when not finite.
    static func degreesTrue(_ degrees: Double) -> Double? {
        guard degrees.isFinite else { return nil }
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value >= 360 ? 0 : value
    }

    /// `<name>value</name>`, the value in its shortest digits unless `style` says otherwise.
    /// An accuracy estimate worth writing: finite and not negative.
    private static func accuracy(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    private static func element(
        _ name: StaticString, _ value: Double, _ out: inout [UInt8],
        style: DecimalFormatter.Style = .shortest
    ) {
        let name = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name)
        out.append(UInt8(ascii: ">"))
        DecimalFormatter.append(value, style, to: &out)
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        out.append(contentsOf: name)
        out.append(UInt8(ascii: ">"))
    }
}

extension [UInt8] {
    /// Appends the bytes of a literal, without going through a `String`.
    @inline(__always)
    mutating func appendText(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
