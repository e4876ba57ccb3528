import Glibc
import NMEA
import System
import Tracks

/// The files the collector writes for one vehicle: the current day's GPX and GeoJSON tracks, and the trips file.
///
/// Layout under the output directory, for a vehicle publishing to `owntracks/acme/van7`:
///
///     acme/van7/2026-11-30.gpx        the day's track (UTC days, by the fix time tst)
///     acme/van7/2026-11-30.geojson
///     acme/van7/trips.jsonl           one line per trip message
///
/// The track writers cannot append to a file a previous run finished, so a day whose files already exist (the
/// collector was restarted, or a late message for an earlier day arrives) continues in `2026-11-30.2.gpx`, `.3`, …
final class VehicleFiles {
    let vehicle: String
    let directory: String
    private let trackOptions: TrackOptions
    private let pointsPerFeature: Int
    private(set) var day: Int?
    private var gpx: GPXWriter?
    private var geojson: GeoJSONWriter?
    private var tripsFD: FileDescriptor?
    private(set) var isDirty = false
    /// Files begun, for statistics.
    private(set) var filesOpened = 0

    init(vehicle: String, root: String, trackOptions: TrackOptions, pointsPerFeature: Int) throws(FleetError) {
        self.vehicle = vehicle
        directory = root + "/" + vehicle
        var trackOptions = trackOptions
        // A day's files are read while the collector writes them: in place from their first flush, valid after each.
        trackOptions.publication = .atFirstPoint
        self.trackOptions = trackOptions
        self.pointsPerFeature = pointsPerFeature
        do {
            try Directory.create(directory)
        } catch {
            throw FleetError(error.description)
        }
    }

    deinit {
        try? tripsFD?.close()
    }

    /// Writes `fix` (whose UTC day is `day`) to the day's tracks, starting new files when the day changes.
    func write(_ fix: Fix, day: Int) throws(FleetError) {
        if day != self.day {
            try finishTracks()
            try open(day: day)
        }
        do {
            try gpx?.write(fix)
            try geojson?.write(fix)
        } catch {
            throw FleetError(error.description)
        }
        isDirty = true
    }

    private func open(day: Int) throws(FleetError) {
        let name = UTCDate(daysSinceEpoch: day).description
        var base = directory + "/" + name
        var part = 2
        while access(base + ".gpx", F_OK) == 0 || access(base + ".geojson", F_OK) == 0 {
            base = directory + "/" + name + "." + String(part)
            part += 1
        }
        do {
            gpx = try GPXWriter(path: base + ".gpx", options: trackOptions, creator: "nmea collect")
            geojson = try GeoJSONWriter(
                path: base + ".geojson",
                options: GeoJSONWriter.Options(
                    track: trackOptions, pointsPerFeature: pointsPerFeature))
        } catch {
            try? gpx?.finish()
            gpx = nil
            throw FleetError(error.description)
        }
        self.day = day
        filesOpened += 2
    }

    /// Appends one line to `trips.jsonl`.
    func appendTrip(_ line: [UInt8]) throws(FleetError) {
        let fd: FileDescriptor
        if let tripsFD {
            fd = tripsFD
        } else {
            do {
                fd = try FileDescriptor.open(
                    directory + "/trips.jsonl", .writeOnly, options: [.create, .append, .closeOnExec])
            } catch {
                throw FleetError("cannot open '\(directory)/trips.jsonl': \(error)")
            }
            tripsFD = fd
        }
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        do {
            try fd.writeAll(bytes)
        } catch {
            throw FleetError("cannot write '\(directory)/trips.jsonl': \(error)")
        }
    }

    /// Brings the track files on disk up to date.
    func flush() throws(FleetError) {
        guard isDirty else { return }
        isDirty = false
        do {
            try gpx?.flush()
            try geojson?.flush()
        } catch {
            throw FleetError(error.description)
        }
    }

    /// Finishes the day's tracks (complete documents without padding).
    func finishTracks() throws(FleetError) {
        defer {
            gpx = nil
            geojson = nil
            day = nil
            isDirty = false
        }
        var failure: FleetError?
        do { try gpx?.finish() } catch { failure = FleetError(error.description) }
        do { try geojson?.finish() } catch { failure = failure ?? FleetError(error.description) }
        if let failure { throw failure }
    }

    /// Finishes everything.
    func finish() throws(FleetError) {
        if let tripsFD {
            try? tripsFD.synchronize()
            try? tripsFD.close()
            self.tripsFD = nil
        }
        try finishTracks()
    }

    /// The directory path for a vehicle from its topic levels: unsafe levels (`.`, `..`, empty, leading dots)
    /// made harmless.
    static func safePath(_ levels: some Sequence<Substring>) -> String {
        levels.map { level -> String in
            var text = String(level.map { $0.isASCII && ($0.asciiValue! < 0x20 || $0 == "\u{7F}") ? "_" : $0 })
            if text.isEmpty { text = "_" }
            if text.hasPrefix(".") { text = "_" + text.dropFirst() }
            return text
        }.joined(separator: "/")
    }
}
