import JSON
import NMEA

/// An OwnTracks `location` message: the payload that OwnTracks apps, the OwnTracks Recorder and most fleet
/// dashboards read from `owntracks/<user>/<device>`.
///
///     {"_type":"location","tid":"42","tst":1795939200,"lat":48.1374,"lon":11.5755,"alt":520,"vel":50,"cog":45,
///      "acc":4,"vac":7}
///
/// Fields (OwnTracks booklet, "JSON" chapter): `lat`, `lon` degrees; `tst` the fix time, whole seconds since 1970
/// UTC; the optional ones are integers as the apps send them — `alt` metres above sea level, `vel` km/h, `cog`
/// degrees true, `acc` and `vac` the horizontal and vertical accuracy in metres, `tid` a short tracker ID. Absent
/// values are left out, never written as 0. One field is ours, not OwnTracks': `sat`, the satellites the fix used
/// (consumers that do not know it ignore it, as OwnTracks consumers do with unknown fields).
public struct OwnTracksLocation: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// The fix time, seconds since 1970-01-01 UTC (`tst`).
    public var timestamp: Int64
    /// Metres above mean sea level (`alt`).
    public var altitudeMeters: Int?
    /// Speed, km/h (`vel`).
    public var speedKmh: Int?
    /// Course over ground, degrees true, 0–359 (`cog`).
    public var courseDegrees: Int?
    /// Horizontal accuracy, metres (`acc`).
    public var accuracyMeters: Int?
    /// Vertical accuracy, metres (`vac`).
    public var verticalAccuracyMeters: Int?
    /// Tracker ID (`tid`), shown by the apps on the map pin; OwnTracks uses two characters.
    public var trackerID: String?
    /// Satellites used in the fix (`sat`, this tool's addition).
    public var satellites: Int?

    public init(
        latitude: Double, longitude: Double, timestamp: Int64, altitudeMeters: Int? = nil,
        speedKmh: Int? = nil, courseDegrees: Int? = nil, accuracyMeters: Int? = nil,
        verticalAccuracyMeters: Int? = nil, trackerID: String? = nil, satellites: Int? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
        self.altitudeMeters = altitudeMeters
        self.speedKmh = speedKmh
        self.courseDegrees = courseDegrees
        self.accuracyMeters = accuracyMeters
        self.verticalAccuracyMeters = verticalAccuracyMeters
        self.trackerID = trackerID
        self.satellites = satellites
    }

    /// The user range error assumed when only dilution of precision is known: accuracy ≈ DOP × 5 m, a common rule
    /// of thumb for autonomous single-frequency GNSS (it overstates the error of SBAS, DGPS and RTK fixes).
    public static let assumedRangeErrorMeters = 5.0

    /// The message for `fix`, or `nil` when it has no position, no date and time, or is provisional.
    ///
    /// `acc` comes from the receiver's own horizontal error estimate (GST, or u-blox/Garmin estimates) when it sent
    /// one, else from the GST latitude/longitude deviations, else HDOP × ``assumedRangeErrorMeters``; `vac` likewise
    /// from the vertical error estimate or VDOP.
    public init?(_ fix: Fix, trackerID: String? = nil) {
        guard fix.hasPosition, !fix.isProvisional, let latitude = fix.latitude, let longitude = fix.longitude,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            let nanoseconds = fix.timestamp
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        timestamp = nanoseconds.flooredDivision(by: 1_000_000_000).quotient
        altitudeMeters = fix.altitudeMeters.flatMap(Self.rounded)
        speedKmh = fix.speed.flatMap { $0 >= 0 ? Self.rounded($0 * 3.6) : nil }
        courseDegrees = fix.courseDegrees.flatMap(Self.rounded).map { (($0 % 360) + 360) % 360 }
        var horizontal = fix.horizontalErrorMeters
        if horizontal == nil, let lat = fix.latitudeErrorMeters, let lon = fix.longitudeErrorMeters {
            horizontal = (lat * lat + lon * lon).squareRoot()
        }
        if horizontal == nil, let hdop = fix.hdop { horizontal = hdop * Self.assumedRangeErrorMeters }
        accuracyMeters = horizontal.flatMap { $0 >= 0 ? Self.rounded($0) : nil }
        var vertical = fix.verticalErrorMeters
        if vertical == nil, let vdop = fix.vdop { vertical = vdop * Self.assumedRangeErrorMeters }
        verticalAccuracyMeters = vertical.flatMap { $0 >= 0 ? Self.rounded($0) : nil }
        self.trackerID = trackerID
        satellites = fix.satellitesUsed
    }

    private static func rounded(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e9 else { return nil }
        return Int(value.rounded())
    }

    // MARK: Encoding

    /// The JSON text, fields in the order above.
    public var json: [UInt8] {
        var writer = JSONWriter(capacity: 192)
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the JSON object into `writer`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("_type", "location" as StaticString)
        writer.field("tid", trackerID)
        writer.field("tst", Int(timestamp))
        // Seven decimals: about a centimetre, trailing zeros dropped (`48.1374`, `-0.5`).
        writer.field("lat", latitude, maximumDecimals: 7)
        writer.field("lon", longitude, maximumDecimals: 7)
        writer.field("alt", altitudeMeters)
        writer.field("vel", speedKmh)
        writer.field("cog", courseDegrees)
        writer.field("acc", accuracyMeters)
        writer.field("vac", verticalAccuracyMeters)
        writer.field("sat", satellites)
        writer.endObject()
    }

    // MARK: Decoding

    /// Reads a message as the apps and this tool send it. Numbers given with a fraction where integers belong are
    /// rounded; unknown fields (`batt`, `conn`, `t`, …) are ignored.
    /// - Throws: ``OwnTracksError`` when it is not JSON, not a `location`, or lacks `lat`, `lon` or `tst`.
    public init(json bytes: some Collection<UInt8>) throws(OwnTracksError) {
        var type: String?
        var latitude: Double?
        var longitude: Double?
        var tst: Double?
        var integers = [Int?](repeating: nil, count: Self.integerKeys.count)
        var trackerID: String?
        let isObject: Bool
        do {
            isObject = try JSONValue.forEachMember(ofObject: bytes) { key, value in
                switch key {
                case "_type": type = value.string
                case "lat": latitude = value.number
                case "lon": longitude = value.number
                case "tst": tst = value.number
                case "tid": trackerID = value.string
                default:
                    if let slot = Self.integerKeys.firstIndex(of: key) {
                        integers[slot] = value.number.flatMap(Self.rounded)
                    }
                }
            }
        } catch {
            throw OwnTracksError.notJSON(error.description)
        }
        guard isObject else { throw OwnTracksError.notAnObject }
        guard let type else { throw OwnTracksError.missingField("_type") }
        guard type == "location" else { throw OwnTracksError.notALocation(type: type) }
        guard let latitude, abs(latitude) <= 90 else { throw OwnTracksError.missingField("lat") }
        guard let longitude, abs(longitude) <= 180 else { throw OwnTracksError.missingField("lon") }
        guard let tst, abs(tst) < 1e12 else { throw OwnTracksError.missingField("tst") }
        self.latitude = latitude
        self.longitude = longitude
        timestamp = Int64(tst.rounded(.down))
        altitudeMeters = integers[0]
        speedKmh = integers[1]
        courseDegrees = integers[2]
        accuracyMeters = integers[3]
        verticalAccuracyMeters = integers[4]
        satellites = integers[5]
        self.trackerID = trackerID
    }

    /// The integer fields, in the order ``init(json:)`` keeps them.
    private static let integerKeys = ["alt", "vel", "cog", "acc", "vac", "sat"]

    // MARK: As a fix

    /// A fix for the track writers: position, time, altitude (3D when known), speed, course, accuracy, satellites.
    public var fix: Fix {
        let moment = UTCDate.moment(secondsSinceEpoch: timestamp)
        var fix = Fix(
            date: moment.date, time: moment.time,
            latitude: latitude, longitude: longitude, altitudeMeters: altitudeMeters.map(Double.init),
            speed: speedKmh.map { Double($0) / 3.6 }, courseDegrees: courseDegrees.map(Double.init),
            quality: .gps, mode: altitudeMeters == nil ? .twoD : .threeD)
        fix.horizontalErrorMeters = accuracyMeters.map(Double.init)
        fix.verticalErrorMeters = verticalAccuracyMeters.map(Double.init)
        fix.satellitesUsed = satellites
        return fix
    }
}

/// An MQTT message that is not a usable OwnTracks location.
public enum OwnTracksError: Error, Sendable, Hashable, CustomStringConvertible {
    case notJSON(String)
    case notAnObject
    case missingField(String)
    /// Another OwnTracks type (`lwt`, `transition`, `card`, …).
    case notALocation(type: String)

    public var description: String {
        switch self {
        case .notJSON(let reason): "not JSON (\(reason))"
        case .notAnObject: "not a JSON object"
        case .missingField(let name): "no valid \"\(name)\""
        case .notALocation(let type): "a \"\(type)\" message, not a location"
        }
    }
}
