import Glibc
import JSON
import NMEA
import System

/// gpsd's JSON objects (`gpsd_json(5)`, protocol 3.14 as gpsd 3.22 speaks it), written with gpsd's field names,
/// units and number formats: what `gpspipe`, `cgps`, libgps and the Python `gps` module expect.
///
/// Each report is one line ending in CR LF. Absent values are left out, never written as 0 or null.
enum GPSDReports {
    /// The protocol version announced (gpsd 3.22's).
    static let protocolMajor = 3
    static let protocolMinor = 14

    // MARK: Fixes

    /// A TPV (time-position-velocity) report for `fix`:
    ///
    ///     {"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-11-30T08:00:00.000Z","lat":48.137400000,
    ///      "lon":11.575500000,"altHAE":567.3000,"altMSL":520.0000,"alt":520.0000,"track":45.0000,
    ///      "speed":12.500,"geoidSep":47.300}
    ///
    /// `mode` is 1 (no fix), 2 or 3; `status` (2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, 7 manual,
    /// 8 simulated, 9 P(Y)) only when the fix is not a plain one. Degrees to 9 decimals (0.1 mm), metres to 4,
    /// speeds to 3, as gpsd writes them. The receiver's own error estimates as gpsd names them: `ept` (time, s),
    /// `epx`/`epy` (longitude and latitude, m: GST), `epv` (vertical), `eps` (speed, m/s), `eph` (horizontal: GST,
    /// u-blox hAcc, Garmin PGRME).
    static func writeTPV(_ fix: Fix, device: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "TPV" as StaticString)
        if !device.isEmpty { json.field("device", device) }
        json.field("mode", Int(fix.hasPosition ? fix.mode.rawValue : 1))
        if fix.hasPosition, let status = status(fix.quality) { json.field("status", status) }
        if let time = fix.time, let date = fix.date {
            json.key("time")
            json.asciiString { output in writeISO8601(date: date, time: time, to: output) }
        }
        json.field("ept", fix.timeErrorSeconds, decimals: 9)
        if fix.hasPosition {
            json.field("lat", fix.latitude, decimals: 9)
            json.field("lon", fix.longitude, decimals: 9)
            if fix.mode == .threeD, let altitude = fix.altitudeMeters {
                json.field("altHAE", fix.ellipsoidalHeightMeters, decimals: 4)
                json.field("altMSL", altitude, decimals: 4)
                json.field("alt", altitude, decimals: 4)
            }
            json.field("epx", fix.longitudeErrorMeters, decimals: 3)
            json.field("epy", fix.latitudeErrorMeters, decimals: 3)
            if fix.mode == .threeD { json.field("epv", fix.verticalErrorMeters, decimals: 3) }
            json.field("track", fix.courseDegrees, decimals: 4)
            json.field("magvar", fix.magneticVariationDegrees, decimals: 1)
            json.field("speed", fix.speed, decimals: 3)
            if fix.mode == .threeD { json.field("climb", fix.climb, decimals: 3) }
            json.field("eps", fix.speedErrorMetersPerSecond, decimals: 2)
            json.field("geoidSep", fix.geoidSeparationMeters, decimals: 3)
            json.field("eph", fix.horizontalErrorMeters, decimals: 3)
            json.field("dgpsAge", fix.differentialAgeSeconds, decimals: 1)
            json.field("dgpsSta", fix.differentialStationID)
        }
        json.field("depth", fix.depthMeters, decimals: 3)
        json.endObject()
    }

    /// `true` when the fix has a heading, rate of turn, pitch or roll for an ATT report.
    static func hasAttitude(_ fix: Fix) -> Bool {
        fix.headingDegrees != nil || fix.magneticHeadingDegrees != nil || fix.rateOfTurnDegreesPerMinute != nil
            || fix.pitchDegrees != nil || fix.rollDegrees != nil
    }

    /// An ATT report, as gpsd's NMEA driver makes from HDT/THS (`heading`, true) and HDG/HDM (`mheading`, magnetic),
    /// attitude sentences (`pitch` and `roll`, degrees; gpsd's ATT has no heave) and ROT (`rot`, degrees per minute),
    /// in gpsd's order:
    ///
    ///     {"class":"ATT","device":"/dev/ttyUSB0","time":"2026-11-30T08:00:00.000Z","heading":274.0700,
    ///      "mheading":262.4000,"pitch":0.310,"roll":-0.300,"rot":0.013}
    static func writeATT(_ fix: Fix, device: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "ATT" as StaticString)
        if !device.isEmpty { json.field("device", device) }
        if let time = fix.time, let date = fix.date {
            json.key("time")
            json.asciiString { output in writeISO8601(date: date, time: time, to: output) }
        }
        json.field("heading", fix.headingDegrees, decimals: 4)
        json.field("mheading", fix.magneticHeadingDegrees, decimals: 4)
        json.field("pitch", fix.pitchDegrees, decimals: 3)
        json.field("roll", fix.rollDegrees, decimals: 3)
        json.field("rot", fix.rateOfTurnDegreesPerMinute, decimals: 3)
        json.endObject()
    }

    /// A TPV with mode 0 ("no mode value yet seen"), for a POLL before any fix.
    static func writeEmptyTPV(device: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "TPV" as StaticString)
        if !device.isEmpty { json.field("device", device) }
        json.field("mode", 0)
        json.endObject()
    }

    /// gpsd's TPV `status` for a fix quality, `nil` for a plain fix (gpsd leaves it out then).
    static func status(_ quality: FixQuality) -> Int? {
        switch quality {
        case .none, .gps: nil
        case .differential: 2
        case .rtkFixed: 3
        case .rtkFloat: 4
        case .deadReckoning: 5
        case .manual: 7
        case .simulator: 8
        case .precise: 9
        }
    }

    /// `true` when `fix` has something a SKY report carries: satellites or dilutions of precision.
    static func hasSky(_ fix: Fix) -> Bool {
        !fix.satellites.isEmpty || fix.hdop != nil || fix.vdop != nil || fix.pdop != nil
    }

    /// A SKY report: the DOPs, then the satellites in view with gpsd's numbering (`PRN`: GPS 1–32, SBAS 120–158,
    /// GLONASS 65–96, Galileo 301–336, BeiDou 401–463, QZSS 193–202) and u-blox `gnssid`/`svid`:
    ///
    ///     {"class":"SKY","device":"/dev/ttyACM0","hdop":0.80,"pdop":1.28,"vdop":1.04,"nSat":12,"uSat":10,
    ///      "satellites":[{"PRN":2,"el":77.0,"az":226.0,"ss":40.0,"used":true,"gnssid":0,"svid":2},…]}
    ///
    /// `ss` keeps the decimals the receiver sent (`24.5`), with at least one as gpsd writes it (`40.0`). gpsd itself
    /// would say 24.0, because its NMEA driver reads the SNR with `atoi`; that is its parser's loss, not its
    /// protocol's: `gpsd_json(5)` gives `ss` as a number in dB-Hz, which every client reads as a double, so 24.5 reads
    /// as 40.0 does. A whole SNR comes out exactly as gpsd writes it.
    static func writeSKY(_ fix: Fix, device: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "SKY" as StaticString)
        if !device.isEmpty { json.field("device", device) }
        json.field("vdop", fix.vdop, decimals: 2)
        json.field("hdop", fix.hdop, decimals: 2)
        json.field("pdop", fix.pdop, decimals: 2)
        if !fix.satellites.isEmpty {
            json.field("nSat", fix.satellites.count)
            json.field("uSat", fix.satellitesUsedInView)
            json.key("satellites")
            json.beginArray()
            for satellite in fix.satellites {
                let number = SatelliteNumber(satellite)
                json.beginObject()
                json.field("PRN", number.prn)
                json.field("el", satellite.elevationDegrees.map(Double.init), decimals: 1)
                json.field("az", satellite.azimuthDegrees.map(Double.init), decimals: 1)
                json.field("ss", satellite.snr.map { $0.value.rescaled(to: max($0.value.scale, 1)) })
                json.field("used", satellite.isUsed)
                json.field("gnssid", number.gnssID)
                json.field("svid", number.svID)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }

    // MARK: Session

    /// `{"class":"VERSION","release":"…","rev":"…","proto_major":3,"proto_minor":14}`, sent on connect.
    static func writeVersion(release: String, revision: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "VERSION" as StaticString)
        json.field("release", release)
        json.field("rev", revision)
        json.field("proto_major", protocolMajor)
        json.field("proto_minor", protocolMinor)
        json.endObject()
    }

    /// One DEVICE object: path, driver, when it was activated; line settings for a serial device; the cycle.
    static func writeDevice(_ device: GPSDDevice, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "DEVICE" as StaticString)
        json.field("path", device.path)
        json.field("driver", "NMEA0183" as StaticString)
        json.key("activated")
        json.asciiString { output in writeISO8601(nanosecondsSinceEpoch: device.activatedNanoseconds, to: output) }
        json.field("native", 0)
        if device.baudRate > 0 {
            json.field("bps", device.baudRate)
            json.field("parity", "N" as StaticString)
            json.field("stopbits", 1)
        }
        json.field("cycle", device.cycleSeconds, decimals: 2)
        json.endObject()
    }

    /// `{"class":"DEVICE","path":"…","activated":0}`: the device went away.
    static func writeDeactivated(path: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "DEVICE" as StaticString)
        json.field("path", path)
        json.field("activated", 0)
        json.endObject()
    }

    /// `{"class":"DEVICES","devices":[…]}`: the active device, or none.
    static func writeDevices(_ device: GPSDDevice?, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "DEVICES" as StaticString)
        json.key("devices")
        json.beginArray()
        if let device { writeDevice(device, into: &json) }
        json.endArray()
        json.endObject()
    }

    /// The WATCH object: the client's policy, every flag spelt out as gpsd does.
    static func writeWatch(_ policy: WatchPolicy, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "WATCH" as StaticString)
        json.field("enable", policy.enable)
        json.field("json", policy.json)
        json.field("nmea", policy.nmea)
        json.field("raw", policy.raw)
        json.field("scaled", policy.scaled)
        json.field("timing", policy.timing)
        json.field("split24", policy.split24)
        json.field("pps", policy.pps)
        if let device = policy.device { json.field("device", device) }
        json.endObject()
    }

    /// `{"class":"POLL","time":"…","active":1,"tpv":[…],"sky":[…]}`: the latest reports, already encoded.
    static func writePoll(active: Int, tpv: [UInt8]?, sky: [UInt8]?, device: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "POLL" as StaticString)
        json.key("time")
        json.asciiString { output in writeISO8601(nanosecondsSinceEpoch: WallClock.nanosecondsSinceEpoch(), to: output)
        }
        json.field("active", active)
        json.key("tpv")
        json.beginArray()
        if let tpv {
            json.raw(tpv)
        } else if active > 0 {
            writeEmptyTPV(device: device, into: &json)
        }
        json.endArray()
        json.key("sky")
        json.beginArray()
        if let sky { json.raw(sky) }
        json.endArray()
        json.endObject()
    }

    /// `{"class":"ERROR","message":"…"}`.
    static func writeError(_ message: String, into json: inout JSONWriter) {
        json.beginObject()
        json.field("class", "ERROR" as StaticString)
        json.field("message", message)
        json.endObject()
    }

    // MARK: Time

    /// `2026-11-30T08:00:00.250Z`: milliseconds, as gpsd writes times.
    static func writeISO8601(date: UTCDate, time: UTCTime, to output: (UInt8) -> Void) {
        ISO8601.write(date, time, fraction: .milliseconds, to: output)
    }

    /// A moment given in nanoseconds since 1970 as ISO 8601 with milliseconds.
    static func writeISO8601(nanosecondsSinceEpoch: Int64, to output: (UInt8) -> Void) {
        ISO8601.write(nanosecondsSinceEpoch: nanosecondsSinceEpoch, fraction: .milliseconds, to: output)
    }

}

/// A satellite's number in gpsd's scheme, and its u-blox system and number.
struct SatelliteNumber: Hashable {
    /// gpsd's `PRN`: GPS 1–32, SBAS 120–158, GLONASS 65–96, QZSS 193–202, Galileo 301–336, BeiDou 401–463.
    var prn: Int
    /// u-blox `gnssId`: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS; `nil` when not known.
    var gnssID: Int?
    /// The number within its system.
    var svID: Int?

    init(_ satellite: SatelliteInView) {
        let number = Int(satellite.prn)
        switch satellite.system {
        case .gps?:
            switch number {
            case 33...64: self.init(prn: number + 87, gnssID: 1, svID: number + 87)  // NMEA's SBAS numbers
            case 120...158: self.init(prn: number, gnssID: 1, svID: number)
            default: self.init(prn: number, gnssID: 0, svID: number)
            }
        case .glonass?:
            switch number {
            case 1...32: self.init(prn: number + 64, gnssID: 6, svID: number)
            default: self.init(prn: number, gnssID: 6, svID: number >= 65 ? number - 64 : number)
            }
        case .galileo?:
            switch number {
            case 301...336: self.init(prn: number, gnssID: 2, svID: number - 300)
            default: self.init(prn: number + 300, gnssID: 2, svID: number)
            }
        case .beidou?:
            switch number {
            case 201...263: self.init(prn: number + 200, gnssID: 3, svID: number - 200)
            case 401...463: self.init(prn: number, gnssID: 3, svID: number - 400)
            default: self.init(prn: number + 400, gnssID: 3, svID: number)
            }
        case .qzss?:
            switch number {
            case 193...202: self.init(prn: number, gnssID: 5, svID: number - 192)
            default: self.init(prn: number + 192, gnssID: 5, svID: number)
            }
        case .navic?, nil:
            self.init(prn: number, gnssID: nil, svID: nil)
        }
    }

    init(prn: Int, gnssID: Int?, svID: Int?) {
        self.prn = prn
        self.gnssID = gnssID
        self.svID = svID
    }
}

/// The device a server reports in DEVICES and DEVICE objects.
struct GPSDDevice: Sendable, Hashable {
    var path: String
    /// 0 for a file or stream.
    var baudRate: Int
    /// When it was activated (connected), nanoseconds since 1970.
    var activatedNanoseconds: Int64
    /// The receiver's cycle: the time between fixes, as measured (1 s until known).
    var cycleSeconds: Double
}

/// What one client asked to be sent (`?WATCH={…}`).
struct WatchPolicy: Sendable, Hashable {
    var enable = false
    var json = false
    var nmea = false
    var raw = 0
    var scaled = false
    var timing = false
    var split24 = false
    var pps = false
    var device: String?

    /// Receives TPV, SKY and DEVICE reports.
    var wantsReports: Bool { enable && json }
    /// Receives the sentences.
    var wantsSentences: Bool { enable && (nmea || raw > 0) }

    /// Receives what is encoded for `audience`.
    func wants(_ audience: GPSDServer.Outgoing.Audience) -> Bool {
        switch audience {
        case .reports: wantsReports
        case .sentences: wantsSentences
        case .aisRaw: wantsReports && !scaled
        case .aisScaled: wantsReports && scaled
        }
    }

    /// A raw NMEA client's: the sentences and nothing else, from the start.
    static let everySentence = WatchPolicy(enable: true, nmea: true)
}
