import JSON
import NMEA

/// A gpsd client's view of the reports a gpsd (or `nmea serve`) sends after
/// `?WATCH={"enable":true,"json":true}`: each line one JSON object with a `class`.
///
/// | class | what is taken |
/// | --- | --- |
/// | `TPV` | `mode` (0/1 none, 2, 3), `time`, `lat`, `lon`, `altMSL` (or `alt`), `geoidSep`, `speed` (m/s), `track`, `climb`, `magvar`, `eph`/`epv`, `status` (2 DGPS, 3 RTK fixed, 4 RTK float, 5/6 dead reckoning, 8 simulated), `device` |
/// | `SKY` | `hdop`, `vdop`, `pdop` when present; `satellites` (`PRN`, `el`, `az`, `ss`, `used`, `gnssid`, `svid`) when present; `uSat` |
/// | `DEVICE`, `DEVICES` | `path`, `bps` (`activated` 0 means the device went away) |
/// | `VERSION` | `release` |
/// | `ERROR` | `message` |
///
/// Every TPV makes a new ``Fix``; satellites and DOPs come from the latest SKY (gpsd sends them apart, and
/// newer versions send the DOPs and the satellites in separate SKY reports). Satellites are numbered per system
/// (`svid`) when gpsd says which system (`gnssid`), so Galileo 3 is `E03` as from NMEA, not gpsd's PRN 303.
public struct GpsdSession: Sendable {
    /// The fix as of the latest TPV, with the latest SKY's satellites and DOPs.
    public private(set) var fix = Fix()
    public private(set) var device: String?
    public private(set) var baudRate: Int?
    /// gpsd's release, from its VERSION banner.
    public private(set) var release: String?

    /// What one report changed.
    public enum Report: Sendable, Hashable {
        /// A TPV: a new fix.
        case fix
        /// A SKY: satellites or DOPs of the current fix.
        case sky
        /// A DEVICE or DEVICES report.
        case device
        /// The VERSION banner.
        case version
        /// gpsd reported an error.
        case error(String)
        /// Something else (WATCH, PPS, TOFF, AIS…), or a report of another class this view ignores.
        case other
        /// The line was not a JSON object.
        case malformed
    }

    public init() {}

    /// Takes one line (without its line ending).
    public mutating func handle(line: some Collection<UInt8>) -> Report {
        guard let object = try? JSONValue(parsing: line), case .object = object, let kind = object["class"]?.string
        else { return .malformed }
        switch kind {
        case "TPV":
            takeTPV(object)
            return .fix
        case "SKY":
            takeSKY(object)
            return .sky
        case "DEVICE":
            takeDevice(object)
            return .device
        case "DEVICES":
            if let first = object["devices"]?.array?.first { takeDevice(first) }
            return .device
        case "VERSION":
            release = object["release"]?.string
            return .version
        case "ERROR":
            return .error(object["message"]?.string ?? "unknown error")
        default:
            return .other
        }
    }

    private mutating func takeTPV(_ report: JSONValue) {
        var next = Fix(satellites: fix.satellites)
        next.hdop = fix.hdop
        next.vdop = fix.vdop
        next.pdop = fix.pdop
        next.satellitesUsed = fix.satellitesUsed
        let mode = report["mode"]?.integer ?? 0
        next.mode = mode >= 3 ? .threeD : mode == 2 ? .twoD : .none
        if let text = report["time"]?.string, let (date, time) = GpsdSession.parseTime(text) {
            next.date = date
            next.time = time
        }
        if next.mode != .none {
            next.latitude = report["lat"]?.number
            next.longitude = report["lon"]?.number
            next.altitudeMeters = next.mode == .threeD ? (report["altMSL"] ?? report["alt"])?.number : nil
            next.geoidSeparationMeters = report["geoidSep"]?.number
            next.quality =
                switch report["status"]?.integer ?? 1 {
                case 2: .differential
                case 3: .rtkFixed
                case 4: .rtkFloat
                case 5, 6: .deadReckoning
                case 8: .simulator
                default: .gps
                }
        }
        next.speed = report["speed"]?.number
        next.courseDegrees = report["track"]?.number
        next.climb = report["climb"]?.number
        next.magneticVariationDegrees = report["magvar"]?.number
        next.horizontalErrorMeters = report["eph"]?.number
        next.verticalErrorMeters = report["epv"]?.number
        if let path = report["device"]?.string { device = path }
        fix = next
    }

    private mutating func takeSKY(_ report: JSONValue) {
        if let hdop = report["hdop"]?.number { fix.hdop = hdop }
        if let vdop = report["vdop"]?.number { fix.vdop = vdop }
        if let pdop = report["pdop"]?.number { fix.pdop = pdop }
        if let list = report["satellites"]?.array {
            var satellites = FixedList<64, SatelliteInView>()
            for entry in list {
                guard let prn = entry["PRN"]?.number, prn >= 0, prn < 65_536 else { continue }
                var system: GNSSSystem?
                var number = Int(prn)
                if let gnss = entry["gnssid"]?.integer {
                    system =
                        switch gnss {
                        case 0, 1: .gps
                        case 2: .galileo
                        case 3: .beidou
                        case 5: .qzss
                        case 6: .glonass
                        case 7: .navic
                        default: nil
                        }
                    if let svid = entry["svid"]?.integer, svid >= 0, svid < 65_536, gnss != 1 { number = svid }
                } else {
                    system = GNSSSystem(prn: number)
                }
                let elevation = entry["el"]?.number.map { Int8(clamping: Int($0.rounded())) }
                let azimuth = entry["az"]?.number.flatMap { $0 >= 0 ? UInt16(clamping: Int($0.rounded())) : nil }
                let snr = entry["ss"]?.number.flatMap { $0 > 0 ? SignalToNoise($0) : nil }
                let satellite = SatelliteInView(
                    system: system, prn: UInt16(number), elevationDegrees: elevation,
                    azimuthDegrees: azimuth, snr: snr,
                    isUsed: entry["used"]?.bool ?? false)
                if !satellites.append(satellite) { break }
            }
            fix.satellites = satellites
            fix.satellitesUsed = report["uSat"]?.integer ?? fix.satellitesUsedInView
        } else if let used = report["uSat"]?.integer {
            fix.satellitesUsed = used
        }
        if let path = report["device"]?.string { device = path }
    }

    private mutating func takeDevice(_ report: JSONValue) {
        if let activated = report["activated"], activated.number == 0 {
            // gpsd closed the device.
            return
        }
        if let path = report["path"]?.string { device = path }
        if let bps = report["bps"]?.integer { baudRate = bps }
    }

    /// `2026-11-30T08:00:05.250Z` as a date and a time (the fraction's digits kept): ``ISO8601/parseDateTime(_:)``.
    public static func parseTime(_ text: String) -> (UTCDate, UTCTime)? {
        ISO8601.parseDateTime(text).map { ($0.date, $0.time) }
    }
}
