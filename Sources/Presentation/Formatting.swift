import Geodesy
import NMEA

/// Numbers, angles and times as the screen and the plain lines show them. No Foundation: exact, locale-free text.
public enum Formatting {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero (`-0.0` is `0.0`):
    /// ``DecimalFormatter/string(_:decimals:)``, the one number writer.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        DecimalFormatter.string(value, decimals: decimals)
    }

    /// Decimal degrees without sign and the hemisphere: `48.137400° N`.
    public static func decimalDegrees(_ value: Double, positive: String, negative: String, glyphs: Glyphs) -> String {
        fixed(abs(value), 6) + glyphs.degree + " " + (value < 0 ? negative : positive)
    }

    /// Degrees and decimal minutes: `48°08.2440' N` (in ASCII `48 08.2440' N`).
    public static func degreesMinutes(_ value: Double, positive: String, negative: String, glyphs: Glyphs) -> String {
        let magnitude = abs(value)
        var degrees = magnitude.rounded(.down)
        // Minutes to 4 decimals (0.2 m); 59.99999' rounds up into the next degree.
        var tenThousandths = ((magnitude - degrees) * 600_000).rounded(.toNearestOrAwayFromZero)
        if tenThousandths >= 600_000 {
            degrees += 1
            tenThousandths = 0
        }
        let minutes = DecimalFormatter.string(
            FixedPoint(significand: Int64(tenThousandths), scale: 4), minimumDigits: 6)
        let mark = glyphs.degree.isEmpty ? " " : glyphs.degree
        return String(Int(degrees)) + mark + minutes + "' " + (value < 0 ? negative : positive)
    }

    /// The 16-point compass direction of a bearing: `N`, `NNE`, … `NNW` (``Geodesy/compassPoint(_:points:)``).
    public static func compassPoint(_ degrees: Double) -> String { Geodesy.compassPoint(degrees, points: .sixteen) }

    /// How long ago: `0.4 s`, `12 s`, `3 min`, `2 h`.
    public static func age(_ seconds: Double) -> String {
        let seconds = max(seconds, 0)
        if seconds < 10 { return fixed((seconds * 10).rounded(.down) / 10, 1) + " s" }
        if seconds < 120 { return String(Int(seconds)) + " s" }
        if seconds < 7200 { return String(Int(seconds / 60)) + " min" }
        return String(Int(seconds / 3600)) + " h"
    }

    /// A rate in hertz: `1 Hz`, `10 Hz`, `0.5 Hz`, `0.2 Hz`.
    public static func rate(_ hertz: Double) -> String {
        let rounded = (hertz * 10).rounded(.toNearestOrAwayFromZero) / 10
        if rounded >= 10 || rounded == rounded.rounded(.down) { return String(Int(rounded.rounded())) + " Hz" }
        return fixed(rounded, 1) + " Hz"
    }

    /// A replay speed: `1×`, `10×`, `0.5×`, `max`.
    public static func speedFactor(_ factor: Double?, glyphs: Glyphs) -> String {
        guard let factor else { return "max" }
        return DecimalFormatter.string(factor, maximumDecimals: 2) + glyphs.times
    }

    /// The fix's date and time: `2026-11-30 08:00:05 UTC`, the time alone when there is no date, `nil` without time.
    public static func dateTime(_ fix: Fix) -> String? {
        guard let time = fix.time else { return nil }
        if let date = fix.date { return "\(date) \(time) UTC" }
        return "\(time) UTC"
    }

    /// The kind of fix: `3D fix (GPS)`, `2D fix (DGPS)`, `no fix`.
    public static func fixKind(_ fix: Fix) -> String {
        guard fix.hasPosition else { return "no fix" }
        let mode = fix.mode == .threeD ? "3D" : "2D"
        return "\(mode) fix (\(qualityName(fix.quality)))"
    }

    /// A fix quality in words.
    public static func qualityName(_ quality: FixQuality) -> String {
        switch quality {
        case .none: "no fix"
        case .gps: "GPS"
        case .differential: "DGPS"
        case .precise: "PPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "dead reckoning"
        case .manual: "manual"
        case .simulator: "simulated"
        }
    }

    /// The letter a system's satellites are known by (as in RINEX): G, R, E, C, J, I; `?` when unknown.
    public static func systemLetter(_ system: GNSSSystem?) -> String {
        switch system {
        case .gps: "G"
        case .glonass: "R"
        case .galileo: "E"
        case .beidou: "C"
        case .qzss: "J"
        case .navic: "I"
        case nil: "?"
        }
    }

    /// A satellite's name as RINEX writes it: the system's letter and the number within the system, two digits at
    /// least: `G05`; NMEA's extended numbers brought back (GLONASS 65–96 → `R01`–`R32`, QZSS 193–202 → `J01`,
    /// BeiDou 201–263 or 401–437 → `C01`, Galileo 301–336 → `E01`); SBAS (NMEA 33–64, PRN 120–158) is `S20`–`S58`.
    /// A satellite reported by gpsd (numbered within its system) gets the same name as from NMEA.
    public static func satelliteName(_ satellite: SatelliteInView) -> String {
        let (letter, number) = rinexNumber(satellite)
        return letter + DecimalFormatter.string(number, minimumDigits: 2)
    }

    /// The satellite's letter for the sky plot (`S` for SBAS).
    public static func satelliteLetter(_ satellite: SatelliteInView) -> String { rinexNumber(satellite).letter }

    static func rinexNumber(_ satellite: SatelliteInView) -> (letter: String, number: Int) {
        let prn = Int(satellite.prn)
        switch satellite.system {
        case .gps:
            if (33...64).contains(prn) { return ("S", prn + 87 - 100) }
            if (120...158).contains(prn) { return ("S", prn - 100) }
            return ("G", prn)
        case .glonass: return ("R", (65...96).contains(prn) ? prn - 64 : prn)
        case .galileo: return ("E", (301...336).contains(prn) ? prn - 300 : prn)
        case .beidou:
            if (201...263).contains(prn) { return ("C", prn - 200) }
            if (401...437).contains(prn) { return ("C", prn - 400) }
            return ("C", prn)
        case .qzss: return ("J", (193...202).contains(prn) ? prn - 192 : prn)
        case .navic: return ("I", prn)
        case nil: return ("?", prn)
        }
    }
}
