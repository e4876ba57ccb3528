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
/// m/s, as u-blox hAcc/vAcc/sAcc or GST give them; `nmea:rtk`, `float` or `fixed`, for an RTK fix, which GPX's
/// `fix` can only call `dgps`). GPX 1.0: `ele`, `time`, `course`, `speed`, `magvar`, `geoidheight`, `fix`, `sat`, `hdop`,
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

    /// The text of a writer's last point, element by element (``TextMemo``): what the next point repeats is copied.
    struct Memos {
        var latitude = TextMemo(), longitude = TextMemo(), altitude = TextMemo()
        var course10 = TextMemo(), speed10 = TextMemo(), variation = TextMemo(), separation = TextMemo()
        var satellites = TextMemo(), hdop = TextMemo(), vdop = TextMemo(), pdop = TextMemo()
        var age = TextMemo(), station = TextMemo()
        var speed = TextMemo(), course = TextMemo(), hacc = TextMemo(), vacc = TextMemo(), sacc = TextMemo()
    }

    /// Appends `<trkpt …>…</trkpt>` and a newline. The fix must have a writable position.
    ///
    /// The point is written into a buffer on the stack and appended to `out` in one piece (a piece at a time to
    /// `out`, each checked for uniqueness and room, cost a third of writing a point). An element whose value is the
    /// one `memos` holds from the last point is copied from there.
    static func append(_ fix: Fix, version: GPXVersion = .v11, memos: inout Memos, to out: inout [UInt8]) {
        guard let longitude = fix.longitude, let latitude = fix.latitude else { return }
        TextBuffer.appending(to: &out) { buffer in
            var text = PointText(buffer: buffer)
            write(fix, latitude: latitude, longitude: longitude, version: version, memos: &memos, to: &text)
            buffer = text.buffer
        }
    }

    /// Appends `<trkpt …>…</trkpt>` and a newline, on its own (no earlier point to repeat).
    static func append(_ fix: Fix, version: GPXVersion = .v11, to out: inout [UInt8]) {
        var memos = Memos()
        append(fix, version: version, memos: &memos, to: &out)
    }

    /// Writes the point's elements, in the schema's order.
    private static func write(
        _ fix: Fix, latitude: Double, longitude: Double, version: GPXVersion, memos: inout Memos,
        to text: inout PointText
    ) {
        text.append("      <trkpt lat=\"")
        text.append(latitude, memo: &memos.latitude)
        text.append("\" lon=\"")
        // The schema's longitude is -180 ≤ lon < 180.
        text.append(longitude == 180 ? -180 : longitude, memo: &memos.longitude)
        text.append("\">")
        if let altitude = fix.altitudeMeters, altitude.isFinite {
            text.element("<ele>", altitude, "</ele>", memo: &memos.altitude)
        }
        if let date = fix.date, let time = fix.time {
            text.append("<time>")
            ISO8601.withText(date, time, fraction: .asSent) { text.append($0) }
            text.append("</time>")
        }
        let speed = fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let course = fix.courseDegrees.flatMap(degreesTrue)
        if version == .v10 {
            if let course { text.element("<course>", course, "</course>", memo: &memos.course10) }
            if let speed {
                text.element(
                    "<speed>", speed, "</speed>", style: .maximumDecimals(Fix.speedDecimals), memo: &memos.speed10)
            }
        }
        if let variation = fix.magneticVariationDegrees, let degrees = degreesTrue(variation) {
            text.element("<magvar>", degrees, "</magvar>", memo: &memos.variation)
        }
        if let separation = fix.geoidSeparationMeters, separation.isFinite {
            text.element("<geoidheight>", separation, "</geoidheight>", memo: &memos.separation)
        }
        if !fix.modeIsAssumed {
            text.append("<fix>")
            text.append(fixName(fix))
            text.append("</fix>")
        }
        if let used = fix.satellitesUsed, used >= 0 { text.element("<sat>", used, "</sat>", memo: &memos.satellites) }
        if let hdop = fix.hdop, hdop.isFinite { text.element("<hdop>", hdop, "</hdop>", memo: &memos.hdop) }
        if let vdop = fix.vdop, vdop.isFinite { text.element("<vdop>", vdop, "</vdop>", memo: &memos.vdop) }
        if let pdop = fix.pdop, pdop.isFinite { text.element("<pdop>", pdop, "</pdop>", memo: &memos.pdop) }
        if let age = fix.differentialAgeSeconds, age.isFinite {
            text.element("<ageofdgpsdata>", age, "</ageofdgpsdata>", memo: &memos.age)
        }
        if let station = fix.differentialStationID, (0...1023).contains(station) {
            text.element("<dgpsid>", station, "</dgpsid>", memo: &memos.station)
        }
        if version == .v11 { writeExtensions(fix, speed: speed, course: course, memos: &memos, to: &text) }
        text.append("</trkpt>\n")
    }

    /// GPX 1.1's extensions: speed and course (Garmin's TrackPointExtension), and the accuracies.
    private static func writeExtensions(
        _ fix: Fix, speed: Double?, course: Double?, memos: inout Memos, to text: inout PointText
    ) {
        let hacc = accuracy(fix.horizontalErrorMeters)
        let vacc = accuracy(fix.verticalErrorMeters)
        let sacc = accuracy(fix.speedErrorMetersPerSecond)
        let rtk: StaticString? = fix.quality == .rtkFixed ? "fixed" : fix.quality == .rtkFloat ? "float" : nil
        guard speed != nil || course != nil || hacc != nil || vacc != nil || sacc != nil || rtk != nil else { return }
        text.append("<extensions>")
        if speed != nil || course != nil {
            text.append("<gpxtpx:TrackPointExtension>")
            if let speed {
                text.element(
                    "<gpxtpx:speed>", speed, "</gpxtpx:speed>", style: .maximumDecimals(Fix.speedDecimals),
                    memo: &memos.speed)
            }
            if let course { text.element("<gpxtpx:course>", course, "</gpxtpx:course>", memo: &memos.course) }
            text.append("</gpxtpx:TrackPointExtension>")
        }
        if let hacc { text.element("<nmea:hacc>", hacc, "</nmea:hacc>", style: .maximumDecimals(3), memo: &memos.hacc) }
        if let vacc { text.element("<nmea:vacc>", vacc, "</nmea:vacc>", style: .maximumDecimals(3), memo: &memos.vacc) }
        if let sacc { text.element("<nmea:sacc>", sacc, "</nmea:sacc>", style: .maximumDecimals(3), memo: &memos.sacc) }
        if let rtk {
            text.append("<nmea:rtk>")
            text.append(rtk)
            text.append("</nmea:rtk>")
        }
        text.append("</extensions>")
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

    /// An accuracy estimate worth writing: finite and not negative.
    private static func accuracy(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }
}

/// A point's text, written through a ``TextBuffer`` and appended to the document's bytes in pieces.
struct PointText {
    var buffer: TextBuffer

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

    @inline(__always)
    mutating func append(_ text: StaticString) { buffer.append(text) }

    /// `value`'s shortest digits, or the text `memo` holds for it.
    @inline(__always)
    mutating func append(_ value: Double, memo: inout TextMemo) {
        buffer.append(memo: &memo, key: value.bitPattern) { buffer in
            DecimalFormatter.withText(value, .shortest) { buffer.append($0) }
        }
    }

    /// `<name>value</name>`, given as its opening and closing tags, or the text `memo` holds for the value.
    @inline(__always)
    mutating func element(
        _ open: StaticString, _ value: Double, _ close: StaticString, style: DecimalFormatter.Style = .shortest,
        memo: inout TextMemo
    ) {
        buffer.append(memo: &memo, key: value.bitPattern) { buffer in
            buffer.append(open)
            DecimalFormatter.withText(value, style) { buffer.append($0) }
            buffer.append(close)
        }
    }

    /// `<name>value</name>` for a count, or the text `memo` holds for it.
    @inline(__always)
    mutating func element(_ open: StaticString, _ value: Int, _ close: StaticString, memo: inout TextMemo) {
        buffer.append(memo: &memo, key: UInt64(bitPattern: Int64(value))) { buffer in
            buffer.append(open)
            DecimalFormatter.withText(value) { buffer.append($0) }
            buffer.append(close)
        }
    }
}
