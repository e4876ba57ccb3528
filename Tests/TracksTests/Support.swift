import Foundation
import NMEA
import Synchronization
import Testing

/// Helpers shared by the track tests: temporary directories, external tools, the GPX schema.
enum Support {
    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The GPX 1.1 schema: `$NMEA_SCHEMAS/gpx-1.1.xsd`, or `../shared/schemas/gpx-1.1.xsd` beside the package.
    static let schemaPath: String? = {
        var candidates: [String] = []
        if let directory = ProcessInfo.processInfo.environment["NMEA_SCHEMAS"] {
            candidates.append(directory + "/gpx-1.1.xsd")
        }
        candidates.append(packageRoot.deletingLastPathComponent().path + "/shared/schemas/gpx-1.1.xsd")
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }()

    /// The full path of `tool` on `PATH`, or `nil`.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let xmllint = which("xmllint")
    static let ogrinfo = which("ogrinfo")
    static let gpsbabel = which("gpsbabel")
    static let canValidateGPX = xmllint != nil && schemaPath != nil

    /// The directory the test binaries were built into (where `nmea` and `TrackWriterChild` are).
    static let buildDirectory: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the test runner is `…/debug/swift-nmeaPackageTests.xctest`; go up from a bundle layout too.
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.path + "/TrackWriterChild") {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// A new empty directory under the system's temporary directory, removed when the test process exits.
    static func temporaryDirectory(_ name: String = #function) -> URL {
        let clean = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tracks-\(clean)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        temporaryDirectories.withLock { directories in
            if directories.isEmpty { atexit { Support.removeTemporaryDirectories() } }
            directories.append(url.path)
        }
        return url
    }

    private static let temporaryDirectories = Mutex<[String]>([])

    private static func removeTemporaryDirectories() {
        for path in temporaryDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// What a finished process said and how it ended.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `executable` with `arguments` to completion.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Standard error goes to a file, so a chatty child never blocks on a full pipe while we read the other.
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        try errorHandle.close()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       error: String(decoding: errorData, as: UTF8.self))
    }

    /// Validates a GPX file against the GPX 1.1 schema with `xmllint`; records an issue when it does not validate.
    /// Without xmllint or the schema, does nothing (``GPXSchemaTests`` reports that as a skipped test).
    static func expectValidGPX(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let xmllint, let schemaPath else { return }
        let outcome = try run(xmllint, ["--noout", "--schema", schemaPath, path])
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
func makeFix(_ time: String, lat: Double? = nil, lon: Double? = nil, alt: Double? = nil, speed: Double? = nil,
             course: Double? = nil, quality: FixQuality = .gps, mode: FixMode = .threeD, sat: Int? = nil,
             hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil) -> Fix {
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
    var fix = Fix(date: UTCDate(year: Int16(day[0]), month: UInt8(day[1]), day: UInt8(day[2])),
                  time: UTCTime(hour: UInt8(clock[0])!, minute: UInt8(clock[1])!, second: UInt8(seconds[0])!,
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
    makeFix("2026-11-30T08:00:00.25", lat: 48.1173, lon: 11.5166, alt: 545.4, speed: 11.5, course: 84.4, sat: 8,
            hdop: 0.9, vdop: 1.2, pdop: 1.5),
    makeFix("2026-11-30T08:00:01.25", lat: 48.1174, lon: 11.5168, alt: 545.6, speed: 11.6, course: 359.99,
            quality: .differential, sat: 9, hdop: 0.8),
    makeFix("2026-11-30T08:00:02.25"),
    makeFix("2026-11-30T08:00:03.25", lat: -33.5, lon: -70.25, course: 360, mode: .twoD),
    makeFix("2026-11-30T08:05:03", lat: 0.00001, lon: 180, alt: -12.5, speed: 0),
]
