import Fleet
import Foundation
import NMEA
import System
import TestSupport
import Testing
import Tracks

/// `nmea collect -o` between a real Mosquitto and `nmea publish` (issue 25): what the broker was told is stored is in
/// every file, once, whatever happens to the collector.
@Suite(
    .serialized, .enabled(if: MosquittoBroker.isInstalled, "needs mosquitto, mosquitto_sub and mosquitto_passwd"),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct CollectorFilesTests {
    /// A day of positions (`nmea simulate --route commute`: 37,800 fixes and two trips) published as fast as the
    /// broker takes them, while the collector is killed with SIGKILL twice, each time once its GPX file has grown
    /// past a random size, and started again. Afterwards the day's GPX and GeoJSON each hold every published
    /// position exactly once, in the order published, `trips.jsonl` every trip once, and nothing else is there (no
    /// `.2` copies). Before the fix the collector acknowledged on receipt and started `2026-11-30.2.gpx` on
    /// restart: positions went missing from both files and others were doubled.
    @Test func killedTwiceTheCollectorLeavesEveryPositionOnceInEachFile() throws {
        let broker = try Broker()
        try broker.start()
        let day = TemporaryDirectory("day").file("day.nmea")
        let simulate = try ChildProcess.run(
            [BuiltExecutables.nmea, "simulate", "--route", "commute", "--profile", "rmc-gga", "-o", day],
            timeout: .seconds(60))
        #expect(simulate.status == 0, "\(simulate.error)")
        // What the broker hands out, as a subscriber of its own sees it: the expected positions and trips.
        let witness = try subscriber(broker, topic: "owntracks/f2/#")
        let output = TemporaryDirectory("collected").path
        func startCollector() throws -> ChildProcess {
            try ChildProcess([
                BuiltExecutables.nmea, "collect", broker.url, "-o", output, "--topic", "owntracks/f2/#",
                "--client-id", "files-collector",
            ])
        }
        var collector = try startCollector()
        #expect(broker.waitForSubscription(of: "files-collector", to: "owntracks/f2/#"), "\(broker.log)")
        let publisher = try ChildProcess([
            BuiltExecutables.nmea, "publish", day, "--mqtt", broker.url, "--mqtt-topic", "owntracks/f2/van7",
            "--mqtt-interval", "0", "--mqtt-min-move", "0", "--speed", "max", "--mqtt-queue",
            TemporaryDirectory("queue").path,
        ])
        let gpx = output + "/f2/van7/2026-11-30.gpx"
        let geojson = output + "/f2/van7/2026-11-30.geojson"
        // The whole day is about 10 MB of GPX; each kill comes once it has grown by a random 0.3 to 4 MB.
        func gpxBytes() -> Int { (try? FileStatus(path: gpx).size) ?? 0 }
        var threshold = 0
        for round in 1...2 {
            threshold += Int.random(in: 300_000...4_000_000)
            #expect(
                waitUntil(timeout: .seconds(60), pollingEvery: .milliseconds(2)) { gpxBytes() >= threshold },
                "round \(round): the GPX never reached \(threshold) bytes: \(collector.error)")
            collector.signal(SIGKILL)
            #expect(collector.wait(timeout: .seconds(10)) == 128 + SIGKILL, "round \(round)")
            collector = try startCollector()
        }
        #expect(publisher.wait(timeout: .seconds(120)) == 0, "\(publisher.error)")
        #expect(
            publisher.error.contains("nmea publish: 37800 fixes and 2 trips, 37802 queued, 37802 acknowledged"),
            "\(publisher.error)")

        var expectedPositions: [String] = []
        var expectedTrips: [String] = []
        #expect(
            waitUntil(timeout: .seconds(30), pollingEvery: .milliseconds(200)) {
                witness.outputLines.count == 37_802
            }, "\(witness.outputLines.count)")
        for line in witness.outputLines {
            let space = line.firstIndex(of: " ")!
            let payload = Array(line[line.index(after: space)...].utf8)
            if line[..<space].hasSuffix("/trip") {
                let trip = try TripSummary(json: payload)
                expectedTrips.append("\(trip.start.timestamp) \(trip.end.timestamp)")
            } else {
                let location = try OwnTracksLocation(json: payload)
                expectedPositions.append(position(location.fix))
            }
        }
        #expect(expectedPositions.count == 37_800 && expectedTrips.count == 2)
        // Done when the last position's time is in the GPX (what the broker sends again comes before it).
        let lastTime = "<time>" + (expectedPositions.last?.prefix { $0 != " " } ?? "") + "</time>"
        #expect(
            waitUntil(timeout: .seconds(120), pollingEvery: .milliseconds(100)) {
                readTextFile(gpx).contains(lastTime)
            }, "\(collector.error)")
        #expect(collector.stop(SIGTERM) == 0, "\(collector.error)")

        let gpxPositions = try trackPositions(gpx, .gpx)
        let geojsonPositions = try trackPositions(geojson, .geojson)
        #expect(gpxPositions.count == expectedPositions.count, "kills at growth past \(threshold) bytes")
        #expect(gpxPositions == expectedPositions)
        #expect(geojsonPositions.count == expectedPositions.count)
        #expect(geojsonPositions == expectedPositions)
        let trips = try String(contentsOfFile: output + "/f2/van7/trips.jsonl", encoding: .utf8)
            .split(separator: "\n").map { line in
                let trip = try TripSummary(json: Array(line.utf8))
                return "\(trip.start.timestamp) \(trip.end.timestamp)"
            }
        #expect(trips == expectedTrips)
        #expect(
            Directory.entries(output + "/f2/van7").sorted() == ["2026-11-30.geojson", "2026-11-30.gpx", "trips.jsonl"])
        #expect(!collector.error.contains("cannot"), "\(collector.error)")
    }
}

/// `time latitude longitude` of a fix: what identifies a published position.
private func position(_ fix: Fix) -> String {
    "\(ISO8601.string(fix.timestamp ?? 0)) \(fix.latitude ?? .nan) \(fix.longitude ?? .nan)"
}

/// The positions of a track file, in order, as `nmea convert` reads it (a GeoJSON's continued feature's repeated
/// first point once).
private func trackPositions(_ path: String, _ format: TrackFileReader.Format) throws -> [String] {
    var reader = TrackFileReader(format: format)
    var positions: [String] = []
    let keep: (Fix) -> Void = { fix in if fix.latitude != nil { positions.append(position(fix)) } }
    try (readFile(path) ?? []).withUnsafeBytes { try reader.read($0, keep) }
    try reader.finish(keep)
    return positions
}
