import Foundation
import NMEA
import Simulation
import System
import TestSupport
import Testing

/// A child process writing a track is killed with SIGKILL at random moments; every file it leaves must be a valid
/// document holding every fix it had reported flushed, and nothing but a prefix of the track.
///
/// GPX always (the inert-region protocol of `DocumentFile`). GeoJSON has no inert space, so a flush that rewrites
/// several pages can be cut by SIGKILL at a page boundary (`DocumentFile`'s documented window): a GeoJSON file that is
/// not JSON is accepted only when the child's shared state page says it died inside a write, and such rounds are
/// counted and printed. Anywhere else — between writes, or in a GPX file at all — damage fails the test.
@Suite(.serialized) struct CrashTests {
    static let fixCount = 3000
    static let child = BuiltExecutables.path(of: "TrackWriterChild")
    static let fixes = Scenario.crashTest().fixes().prefix(fixCount).map(Fix.init)
    /// The time of every point, in order.
    static let pointTimes = fixes.filter(\.hasPosition).map { $0.iso8601! }
    /// How many points the first `n` fixes give.
    static func points(inFirst n: Int) -> Int { fixes.prefix(n).filter(\.hasPosition).count }

    struct Configuration: CustomStringConvertible {
        var format: String
        var flush: String
        var pauseMicroseconds: Int
        var maximumDelayMilliseconds: Int
        var description: String { "\(format), flush \(flush)" }
    }

    static let configurations = [
        // Live logging: a flush per fix.
        Configuration(format: "gpx", flush: "everyfix", pauseMicroseconds: 100, maximumDelayMilliseconds: 450),
        // Conversion: flushes of 16 KiB, so writes span several pages.
        Configuration(format: "gpx", flush: "16384", pauseMicroseconds: 20, maximumDelayMilliseconds: 160),
        Configuration(format: "geojson", flush: "everyfix", pauseMicroseconds: 100, maximumDelayMilliseconds: 450),
        // KML commits through the same inert space as GPX.
        Configuration(format: "kml", flush: "everyfix", pauseMicroseconds: 100, maximumDelayMilliseconds: 450),
    ]

    /// The extra rounds' child: live logging with no pause between fixes, so that it is nearly always inside a write.
    static let withoutPauses = Configuration(
        format: "gpx", flush: "everyfix", pauseMicroseconds: 0, maximumDelayMilliseconds: 80)

    @Test(.enabled(if: child != nil, "TrackWriterChild not built"))
    func killedWritersLeaveValidFilesWithEveryFlushedFix() throws {
        var random = SplitMix64(seed: 20_261_130)
        let directory = TemporaryDirectory()
        let child = try #require(Self.child)
        var killedMidway = 0
        var tornInsideAWrite = 0
        var killedInsideAWrite = 0
        let rounds = 88
        var round = 0
        // On a busy machine the kills can all miss the writes' few microseconds, the children spending most of their
        // time in their pauses: then up to as many rounds again, of a child that writes without pausing, until one
        // lands inside (the positive control below). They check the files as the others do.
        while round < rounds || (killedInsideAWrite == 0 && round < 2 * rounds) {
            defer { round += 1 }
            let configuration =
                round < rounds ? Self.configurations[round % Self.configurations.count] : Self.withoutPauses
            let path = directory.file("round\(round).\(configuration.format)")
            var arguments = [
                configuration.format, path, String(Self.fixCount), configuration.flush,
                String(configuration.pauseMicroseconds),
            ]
            if configuration.format == "geojson" { arguments.append("points") }
            let process = try ChildProcess([child] + arguments)
            let delay = 1 + Int(random.next() % UInt64(configuration.maximumDelayMilliseconds))
            sleep(for: .milliseconds(delay))  // pacing under test: the crash comes at a random moment
            process.signal(SIGKILL)
            let status = process.wait()
            let flushed = process.outputLines.compactMap { Int($0) }.last ?? 0
            let wasKilled = status == 128 + SIGKILL
            if wasKilled && flushed > 0 { killedMidway += 1 }
            if wasKilled && Self.diedInsideAWrite(path) { killedInsideAWrite += 1 }
            if !wasKilled { #expect(!Self.diedInsideAWrite(path), "a finished child's state page says it is writing") }
            let context = "round \(round) (\(configuration)), killed after \(delay) ms, \(flushed) fixes flushed"
            guard FileManager.default.fileExists(atPath: path) else {
                // Killed before the first document was complete: the file never appeared (it is renamed into place).
                #expect(flushed == 0, "\(context): no file")
                continue
            }
            if configuration.format == "geojson" && !Self.isJSON(path) {
                // The documented window: only inside a write, where a multi-page pwrite can be cut.
                #expect(Self.diedInsideAWrite(path), "\(context): not JSON, and killed between writes")
                tornInsideAWrite += 1
                continue
            }
            let times =
                switch configuration.format {
                case "gpx": try checkGPX(path, context)
                case "kml": try checkKML(path, context)
                default: try checkGeoJSON(path, context)
                }
            #expect(times.count >= Self.points(inFirst: flushed), "\(context): \(times.count) points on disk")
            #expect(times == Array(Self.pointTimes.prefix(times.count)), "\(context): not a prefix of the track")
            if !wasKilled {
                #expect(times.count == Self.pointTimes.count, "\(context): finished but incomplete")
            }
        }
        // Most kills must land while the child is writing, or the test proves little.
        #expect(killedMidway >= round / 2, "only \(killedMidway) of \(round) kills landed mid-track")
        // The state page works: some kills land inside a write (with pauses of 20–100 µs between fixes, many do).
        #expect(killedInsideAWrite > 0, "no kill landed inside a write: is the state page written?")
        print(
            "crash test: \(killedMidway) of \(round) kills mid-track, \(killedInsideAWrite) inside a write; "
                + "GeoJSON files torn inside a write: \(tornInsideAWrite)")
    }

    static func isJSON(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return (try? JSONSerialization.jsonObject(with: data)) != nil
    }

    /// The first byte of the child's shared state page: 1 while it was inside a write.
    static func diedInsideAWrite(_ path: String) -> Bool {
        FileManager.default.contents(atPath: path + ".state")?.first == 1
    }

    /// Validates a GPX file and returns its point times.
    func checkGPX(_ path: String, _ context: String) throws -> [String] {
        if Support.canValidateGPX {
            let outcome = try ChildProcess.run([Support.xmllint!, "--noout", "--schema", Support.schemaPath!, path])
            #expect(outcome.status == 0, "\(context): \(outcome.error)")
        }
        return Support.gpxTimes(try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Checks a KML file is well-formed XML (`xmllint --noout`) and returns its track's times (`<when>` in
    /// `gx:Track`s).
    func checkKML(_ path: String, _ context: String) throws -> [String] {
        if let xmllint = Support.xmllint {
            let outcome = try ChildProcess.run([xmllint, "--noout", path])
            #expect(outcome.status == 0, "\(context): \(outcome.error)")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("</kml>"), "\(context): no end")
        return text.components(separatedBy: "<when>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// Parses a GeoJSON file and returns the point times of its line features (each continued feature's repeated
    /// first point counted once); checks that the Point features carry the same times.
    func checkGeoJSON(_ path: String, _ context: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let parsed = try? JSONSerialization.jsonObject(with: data)
        let document = try #require(parsed as? [String: Any], "\(context): not JSON")
        let features = try #require(document["features"] as? [[String: Any]], "\(context): no features")
        var lineTimes: [String] = []
        var pointTimes: [String] = []
        for feature in features {
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let properties = try #require(feature["properties"] as? [String: Any])
            switch geometry["type"] as? String {
            case "Point" where properties["time"] != nil:
                pointTimes.append(try #require(properties["time"] as? String))
            case "Point", "MultiPoint":
                // A segment without two distinct positions yet (the open one's first fix): its times, like a line's.
                let times = try #require(properties["coordTimes"] as? [String])
                lineTimes += properties["continued"] as? Bool == true ? Array(times.dropFirst()) : times
            case "LineString":
                let times = try #require(properties["coordTimes"] as? [String])
                #expect((geometry["coordinates"] as? [Any])?.count == times.count, "\(context)")
                lineTimes += properties["continued"] as? Bool == true ? Array(times.dropFirst()) : times
            case "MultiLineString":
                let lines = try #require(properties["coordTimes"] as? [[String]])
                let times = lines.flatMap { $0 }
                lineTimes += properties["continued"] as? Bool == true ? Array(times.dropFirst()) : times
            default:
                Issue.record("\(context): unexpected geometry \(geometry)")
            }
        }
        // Points are written with their fix; lines may lag by the open piece, never lead.
        #expect(pointTimes.count >= lineTimes.count, "\(context)")
        #expect(Array(pointTimes.prefix(lineTimes.count)) == lineTimes, "\(context)")
        return lineTimes
    }
}
