import Foundation
import NMEA
import System
import TestSupport
import Testing
import Tracks

@testable import Fleet

/// The collector's files for one vehicle, without a broker. A `VehicleFiles` dropped without ``finish()`` is what a
/// SIGKILL leaves (its descriptors closed, what was not flushed lost); a new one on the same directory is the
/// restarted collector, to which the broker sends again what was not acknowledged.
@Suite struct VehicleFilesTests {
    static let day = Int(Support.start / 86_400)

    static func files(_ root: String) throws -> VehicleFiles {
        try VehicleFiles(
            vehicle: "acme/van7", root: root,
            trackOptions: TrackOptions(splitGapSeconds: 600, flush: .batch(bytes: 256 * 1024)),
            pointsPerFeature: 100)
    }

    /// The fix `nmea collect` makes of the OwnTracks message for `Support.drive(n)`.
    static func message(_ n: Int) throws -> Fix {
        try OwnTracksLocation(json: OwnTracksLocation(Support.drive(n), trackerID: "n7")!.json).fix
    }

    static func path(_ root: String, _ suffix: String) -> String { root + "/acme/van7/2026-11-30" + suffix }

    @Test func aReopenedDayHoldsWhatWasFlushedAndTakesRepeatsOnce() throws {
        let root = TemporaryDirectory().path
        var files = try Self.files(root)
        for n in 0..<300 { #expect(try files.write(Self.message(n), day: Self.day)) }
        try files.flush()
        // Written but never flushed: lost with the process (and never acknowledged).
        for n in 300..<310 { #expect(try files.write(Self.message(n), day: Self.day)) }
        files = try Self.files(root)
        // The broker sends the last read again, then what follows.
        for n in 250..<300 { #expect(try !files.write(Self.message(n), day: Self.day), "\(n)") }
        for n in 300..<400 { #expect(try files.write(Self.message(n), day: Self.day), "\(n)") }
        try files.finish()
        #expect(Support.gpxTimes(Self.path(root, ".gpx")) == (0..<400).map(Support.driveTime))
        #expect(try geojsonTimes(Self.path(root, ".geojson")) == (0..<400).map(Support.driveTime))
        #expect(Directory.entries(root + "/acme/van7").sorted() == ["2026-11-30.geojson", "2026-11-30.gpx"])
    }

    /// One big read: the GPX writes itself out every 256 KiB of points, the GeoJSON every 256 KiB of finished
    /// features, so a kill before the read's flush leaves the GPX thousands of points ahead. Each file takes what it
    /// lacks from the messages sent again, and the newest positions of the one ahead are still known.
    @Test func filesLeftAtDifferentPointsEachTakeWhatTheyLack() throws {
        let root = TemporaryDirectory().path
        var files = try Self.files(root)
        for n in 0..<9000 { _ = try files.write(Self.message(n), day: Self.day) }
        files = try Self.files(root)
        let gpxHeld = Support.gpxTimes(Self.path(root, ".gpx")).count
        let geojsonHeld = try geojsonTimes(Self.path(root, ".geojson")).count
        #expect(gpxHeld > geojsonHeld + 2000, "\(gpxHeld) \(geojsonHeld)")
        #expect(gpxHeld < 9000 && geojsonHeld > 0)
        var written = 0
        for n in 0..<9100 where try files.write(Self.message(n), day: Self.day) { written += 1 }
        #expect(written == 9100 - geojsonHeld)
        try files.finish()
        #expect(Support.gpxTimes(Self.path(root, ".gpx")) == (0..<9100).map(Support.driveTime))
        #expect(try geojsonTimes(Self.path(root, ".geojson")) == (0..<9100).map(Support.driveTime))
    }

    /// A GeoJSON flush cut by SIGKILL at a page boundary: the new bytes up to it, the old after. The GPX, flushed
    /// first, holds every point, so the GeoJSON is made again from it.
    @Test func aGeoJSONCutInsideAFlushIsMadeAgainFromTheGPX() throws {
        let root = TemporaryDirectory().path
        func files() throws -> VehicleFiles {
            try VehicleFiles(
                vehicle: "acme/van7", root: root, trackOptions: TrackOptions(flush: .batch(bytes: 256 * 1024)),
                pointsPerFeature: 300)
        }
        var vehicle = try files()
        for n in 0..<150 { _ = try vehicle.write(Self.message(n), day: Self.day) }
        try vehicle.flush()
        let before = readFile(Self.path(root, ".geojson"))!
        for n in 150..<200 { _ = try vehicle.write(Self.message(n), day: Self.day) }
        try vehicle.flush()
        let after = readFile(Self.path(root, ".geojson"))!
        // The open feature (150, then 200 points) is rewritten over pages 0 and 1; the cut falls between them.
        #expect(before.count > 4096 && after.count > before.count)
        let torn = Array(after.prefix(4096) + before.dropFirst(4096))
        #expect(throws: TrackError.self) {
            try Data(torn).write(to: URL(fileURLWithPath: Self.path(root, ".geojson")))
            _ = try GeoJSONWriter(continuing: Self.path(root, ".geojson"))
        }
        vehicle = try files()
        for n in 190..<220 { _ = try vehicle.write(Self.message(n), day: Self.day) }
        try vehicle.finish()
        #expect(Support.gpxTimes(Self.path(root, ".gpx")) == (0..<220).map(Support.driveTime))
        #expect(try geojsonTimes(Self.path(root, ".geojson")) == (0..<220).map(Support.driveTime))
        #expect(Directory.entries(root + "/acme/van7").sorted() == ["2026-11-30.geojson", "2026-11-30.gpx"])
    }

    @Test func aLateMessageContinuesItsDayAndAFileNotOursIsSetAside() throws {
        let root = TemporaryDirectory().path
        let files = try Self.files(root)
        for n in 0..<5 { _ = try files.write(Self.message(n), day: Self.day) }
        var nextDay = Support.drive(0)
        nextDay.date = UTCDate(daysSinceEpoch: Self.day + 1)
        #expect(try files.write(nextDay, day: Self.day + 1))
        #expect(try files.write(Self.message(5), day: Self.day))
        try files.finish()
        #expect(Support.gpxTimes(Self.path(root, ".gpx")) == (0..<6).map(Support.driveTime))
        #expect(try geojsonTimes(Self.path(root, ".geojson")) == (0..<6).map(Support.driveTime))
        // A day's GPX that some other program wrote.
        let other = root + "/acme/van7/2026-12-01.gpx"
        let foreign = #"<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><trkseg/></trk></gpx>"#
        try foreign.write(toFile: other, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/acme/van7/2026-12-01.geojson")
        let again = try Self.files(root)
        #expect(try again.write(nextDay, day: Self.day + 1))
        try again.finish()
        #expect(try String(contentsOfFile: other + ".unreadable", encoding: .utf8) == foreign)
        #expect(Support.gpxTimes(other) == [ISO8601.string(nextDay.timestamp!)])
    }

    @Test func tripsAreWrittenOnceAndALineAKillCutIsRemoved() throws {
        let root = TemporaryDirectory().path
        var files = try Self.files(root)
        let trip = TripSummaryTests.trip
        #expect(try files.appendTrip(trip.json, start: trip.start.timestamp, end: trip.end.timestamp))
        #expect(try !files.appendTrip(trip.json, start: trip.start.timestamp, end: trip.end.timestamp))
        try files.flush()
        files = try Self.files(root)
        #expect(try !files.appendTrip(trip.json, start: trip.start.timestamp, end: trip.end.timestamp))
        // Half a line: a write cut by SIGKILL (its trip was never acknowledged).
        let path = root + "/acme/van7/trips.jsonl"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"_type":"trip","start":{"time":"2026-"#.utf8))
        handle.closeFile()
        files = try Self.files(root)
        var later = trip
        later.start.timestamp += 86_400 * 1_000_000_000
        later.end.timestamp += 86_400 * 1_000_000_000
        #expect(try files.appendTrip(later.json, start: later.start.timestamp, end: later.end.timestamp))
        try files.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8)
        #expect(lines == String(decoding: trip.json + [0x0A] + later.json + [0x0A], as: UTF8.self))
    }
}

/// The times of a GeoJSON track's points as `GeoJSONReader` reads them (a continued feature's repeated point once).
func geojsonTimes(_ path: String) throws -> [String] {
    let bytes = readFile(path) ?? []
    var reader = TrackFileReader(format: .geojson)
    var times: [String] = []
    let keep: (Fix) -> Void = { fix in
        if fix.latitude != nil, let timestamp = fix.timestamp { times.append(ISO8601.string(timestamp)) }
    }
    try bytes.withUnsafeBytes { try reader.read($0, keep) }
    try reader.finish(keep)
    return times
}
