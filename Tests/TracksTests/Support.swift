import Foundation
import NMEA
import System
import TestSupport
import Testing

/// Helpers shared by the track tests: the outside tools that check our files, the GPX schema.
enum Support {
    /// The GPX 1.1 schema: `gpx-1.1.xsd` in the shared schemas (`$NMEA_SCHEMAS` or `../shared/schemas`).
    static let schemaPath: String? = Locations.schemas.map { $0 + "/gpx-1.1.xsd" }.flatMap {
        (try? FileStatus(path: $0))?.kind == .regular ? $0 : nil
    }

    static let xmllint = Tools.which("xmllint")
    static let ogrinfo = Tools.which("ogrinfo")
    static let gpsbabel = Tools.which("gpsbabel")
    static let canValidateGPX = xmllint != nil && schemaPath != nil

    /// Validates a GPX file against the GPX 1.1 schema with `xmllint`; records an issue when it does not validate.
    /// Without xmllint or the schema, does nothing (``GPXSchemaTests`` reports that as a skipped test).
    static func expectValidGPX(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let xmllint, let schemaPath else { return }
        let outcome = try ChildProcess.run([xmllint, "--noout", "--schema", schemaPath, path])
        #expect(outcome.status == 0, "xmllint: \(outcome.error)", sourceLocation: sourceLocation)
    }

    /// The values of every `<time>` element, in order (a small scan; the files are our own).
    static func gpxTimes(_ text: String) -> [String] {
        text.components(separatedBy: "<time>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// How many `<trkpt` and `<trkseg>` a GPX text has.
    static func gpxCounts(_ text: String) -> (points: Int, segments: Int) {
        (text.components(separatedBy: "<trkpt ").count - 1, text.components(separatedBy: "<trkseg>").count - 1)
    }
}

/// A fix with the given values, for fixed sequences.
func makeFix(
    _ time: String, lat: Double? = nil, lon: Double? = nil, alt: Double? = nil, speed: Double? = nil,
    course: Double? = nil, quality: FixQuality = .gps, mode: FixMode = .threeD, sat: Int? = nil,
    hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil
) -> Fix {
    // time: "YYYY-MM-DDThh:mm:ss[.ff]"
    let parts = time.split(separator: "T")
    let day = parts[0].split(separator: "-").map { Int($0)! }
    let clock = parts[1].split(separator: ":")
    let seconds = clock[2].split(separator: ".")
    let fraction = seconds.count > 1 ? String(seconds[1]) : ""
    var nanoseconds = UInt32(0)
    if !fraction.isEmpty {
        nanoseconds = UInt32(fraction.padding(toLength: 9, withPad: "0", startingAt: 0))!
    }
    var fix = Fix(
        date: UTCDate(year: Int16(day[0]), month: UInt8(day[1]), day: UInt8(day[2])),
        time: UTCTime(
            hour: UInt8(clock[0])!, minute: UInt8(clock[1])!, second: UInt8(seconds[0])!,
            nanoseconds: nanoseconds, fractionDigits: UInt8(fraction.count)))
    guard let lat, let lon else { return fix }
    fix.latitude = lat
    fix.longitude = lon
    fix.altitudeMeters = alt
    fix.speed = speed
    fix.courseDegrees = course
    fix.quality = quality
    fix.mode = mode
    fix.satellitesUsed = sat
    fix.hdop = hdop
    fix.vdop = vdop
    fix.pdop = pdop
    return fix
}

/// The small fixed sequence of the byte-exact tests: a point, a DGPS point, a lost fix, a 2D point after it, and a
/// point five minutes later on the antimeridian with a tiny latitude.
let fixedSequence: [Fix] = [
    makeFix(
        "2026-11-30T08:00:00.25", lat: 48.1173, lon: 11.5166, alt: 545.4, speed: 11.5, course: 84.4, sat: 8,
        hdop: 0.9, vdop: 1.2, pdop: 1.5),
    makeFix(
        "2026-11-30T08:00:01.25", lat: 48.1174, lon: 11.5168, alt: 545.6, speed: 11.6, course: 359.99,
        quality: .differential, sat: 9, hdop: 0.8),
    makeFix("2026-11-30T08:00:02.25"),
    makeFix("2026-11-30T08:00:03.25", lat: -33.5, lon: -70.25, course: 360, mode: .twoD),
    makeFix("2026-11-30T08:05:03", lat: 0.00001, lon: 180, alt: -12.5, speed: 0),
]

/// Feeds `text` to a track reader in chunks of `chunk` bytes, then finishes it; returns the fixes it gave.
func readInChunks(
    _ text: String, chunk: Int, read: (UnsafeRawBufferPointer, (Fix) -> Void) throws -> Void,
    finish: ((Fix) -> Void) throws -> Void
) throws -> [Fix] {
    var fixes: [Fix] = []
    let bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count {
        let end = min(start + chunk, bytes.count)
        try bytes[start..<end].withUnsafeBytes { chunk in try read(chunk) { fixes.append($0) } }
        start = end
    }
    try finish { fixes.append($0) }
    return fixes
}
