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
/// One file of each kind per day, however often the collector stops, is killed or restarts: a day's files that
/// exist are continued in place (``GPXWriter/init(continuing:options:)``), and a late message for an earlier day
/// reopens that day's files. Continuing works from whatever state a SIGKILL left, since each file is a complete
/// document after every flush; what a killed flush had not finished is not part of it, and the broker sends those
/// messages again. One case needs more: a GeoJSON flush cut by SIGKILL inside a write of several pages can leave
/// the file damaged (JSON has no inert space; see `DocumentFile`). The GPX, flushed first and never damaged, then
/// holds every position the GeoJSON had and every one acknowledged, so the GeoJSON is made again from it (written
/// beside it and renamed over it in one step). A file that cannot be continued otherwise (edited, or not ours) is
/// set aside as `2026-11-30.gpx.unreadable` (`-2`, … when taken) and the day starts a new one: nothing is lost.
///
/// What the files hold is remembered (``WrittenPoints``, read back from their ends when a day is opened; the trips'
/// start and end times, from all of `trips.jsonl`), so a message delivered again is written once.
final class VehicleFiles {
    /// Why the vehicle's files cannot be written.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// `true` when the cause is the machine's and may pass (a full disk, an I/O error, no descriptors left, a
        /// directory without permission): the messages must stay with the broker until they can be written.
        /// `false` when it is this vehicle's name (a topic level too long for a file name, a name whose path is
        /// another vehicle's file): writing again will not help.
        var isTemporary: Bool

        init(_ description: String, code: Int32?) {
            self.description = description
            isTemporary = code.map { !Self.permanentCodes.contains($0) } ?? true
        }

        init(_ error: TrackError) { self.init(error.description, code: error.code) }

        static let permanentCodes: Set<Int32> = [ENAMETOOLONG, ENOTDIR, EISDIR, ELOOP, EINVAL]
    }

    private struct TripKey: Hashable {
        var start: Int64
        var end: Int64
    }

    let vehicle: String
    let directory: String
    private let trackOptions: TrackOptions
    private let geojsonOptions: GeoJSONWriter.Options
    private(set) var day: Int?
    private var gpx: GPXWriter?
    private var geojson: GeoJSONWriter?
    /// What the open day's files hold.
    private var written = WrittenPoints()
    private var tripsFD: FileDescriptor?
    /// The start and end times (seconds since 1970) of every trip in `trips.jsonl`.
    private var tripKeys: Set<TripKey> = []
    private var tripsWritten = false
    /// `true` when something was written since the last ``flush()``.
    private(set) var isDirty = false

    /// Creates the vehicle's directory (when missing); the files are opened as messages come.
    init(vehicle: String, root: String, trackOptions: TrackOptions, pointsPerFeature: Int) throws(Failure) {
        self.vehicle = vehicle
        directory = root + "/" + vehicle
        var trackOptions = trackOptions
        // A day's files are read while the collector writes them: in place from their first flush, valid after each.
        trackOptions.publication = .atFirstPoint
        self.trackOptions = trackOptions
        geojsonOptions = GeoJSONWriter.Options(track: trackOptions, pointsPerFeature: pointsPerFeature)
        do {
            try Directory.create(directory)
        } catch {
            throw Failure(error.description, code: error.errno?.rawValue)
        }
    }

    deinit {
        try? tripsFD?.close()
    }

    // MARK: Tracks

    /// Writes `fix` (whose UTC day is `day`) to the day's files that do not hold it yet, opening that day's files
    /// when it is not the open one.
    /// - Returns: `false` when both files already held it (a message delivered again).
    func write(_ fix: Fix, day: Int) throws(Failure) -> Bool {
        if day != self.day {
            try finishTracks()
            try open(day: day)
        }
        let key = WrittenPoints.key(fix)
        let held = written.files(holding: key)
        guard held != .all else { return false }
        do {
            if !held.contains(.gpx) { try gpx?.write(fix) }
            if !held.contains(.geojson) { try geojson?.write(fix) }
        } catch {
            throw Failure(error)
        }
        written.add(key, in: .all)
        isDirty = true
        return true
    }

    /// Opens the files of `day`: continued when they exist, new otherwise; and reads back what they hold.
    private func open(day: Int) throws(Failure) {
        let base = directory + "/" + UTCDate(daysSinceEpoch: day).description
        let options = trackOptions
        var continuedGPX: GPXWriter?
        if try Self.exists(base + ".gpx") {
            continuedGPX = try Self.continued { () throws(TrackError) in
                try GPXWriter(continuing: base + ".gpx", options: options)
            }
            if continuedGPX == nil { try Self.setAside(base + ".gpx") }
        }
        let gpx: GPXWriter
        if let continuedGPX {
            gpx = continuedGPX
        } else {
            gpx = try Self.tracked { () throws(TrackError) in
                try GPXWriter(path: base + ".gpx", options: options, creator: "nmea collect")
            }
        }
        var geojson: GeoJSONWriter?
        do throws(Failure) {
            let geojsonOptions = self.geojsonOptions
            if try Self.exists(base + ".geojson") {
                geojson = try Self.continued { () throws(TrackError) in
                    try GeoJSONWriter(continuing: base + ".geojson", options: geojsonOptions)
                }
                // Made again from the GPX when that holds the day (below); set aside when it does not.
                if geojson == nil && continuedGPX == nil { try Self.setAside(base + ".geojson") }
            }
            if geojson == nil {
                geojson = try Self.tracked { () throws(TrackError) in
                    continuedGPX != nil
                        ? try self.remake(base + ".geojson", from: gpx)
                        : try GeoJSONWriter(path: base + ".geojson", options: geojsonOptions)
                }
            }
            let capacity = WrittenPoints.capacity
            let held = try Self.tracked { () throws(TrackError) in
                (
                    continuedGPX != nil ? try gpx.committedPoints(last: capacity) : [],
                    try geojson!.committedPoints(last: capacity)
                )
            }
            self.written = WrittenPoints(gpx: held.0.map(WrittenPoints.key), geojson: held.1.map(WrittenPoints.key))
        } catch {
            gpx.discard()
            geojson?.discard()
            throw error
        }
        self.gpx = gpx
        self.geojson = geojson
        self.day = day
    }

    /// What `open` made, or `nil` when the file is not a document that can be continued (`EINVAL`).
    private static func continued<Writer>(_ open: () throws(TrackError) -> Writer) throws(Failure) -> Writer? {
        do {
            return try open()
        } catch {
            if error.code == EINVAL { return nil }
            throw Failure(error)
        }
    }

    /// What `body` returns, its ``TrackError`` made a ``Failure``.
    private static func tracked<Value>(_ body: () throws(TrackError) -> Value) throws(Failure) -> Value {
        do {
            return try body()
        } catch {
            throw Failure(error)
        }
    }

    /// Makes the day's GeoJSON again from its GPX (every point it holds), written beside it and renamed over
    /// whatever `path` holds in one step, then continues it.
    private func remake(_ path: String, from gpx: GPXWriter) throws(TrackError) -> GeoJSONWriter {
        var options = geojsonOptions
        options.track.publication = .atFinish
        options.track.flush = .conversion
        let copy = try GeoJSONWriter(path: path, options: options)
        var failure: TrackError?
        do throws(TrackError) {
            try gpx.forEachCommittedPoint { fix in
                guard failure == nil else { return }
                do throws(TrackError) { try copy.write(fix) } catch { failure = error }
            }
            if let failure { throw failure }
            try copy.finish()
        } catch {
            copy.discard()
            throw error
        }
        return try GeoJSONWriter(continuing: path, options: geojsonOptions)
    }

    /// Brings the files on disk up to date: the GPX first, then the GeoJSON (so the GPX always holds at least what
    /// the GeoJSON does), then, with `sync`, the trips.
    func flush() throws(Failure) {
        guard isDirty else { return }
        do {
            try gpx?.flush()
            try geojson?.flush()
        } catch {
            throw Failure(error)
        }
        if trackOptions.sync && tripsWritten, let tripsFD {
            do { try tripsFD.synchronizeData() } catch {
                throw Failure("cannot sync '\(directory)/trips.jsonl': \(error)", code: error.rawValue)
            }
        }
        tripsWritten = false
        isDirty = false
    }

    /// Finishes the open day's tracks (complete documents without padding).
    func finishTracks() throws(Failure) {
        defer {
            gpx = nil
            geojson = nil
            day = nil
            written = WrittenPoints()
        }
        var failure: Failure?
        do { try gpx?.finish() } catch { failure = Failure(error) }
        do { try geojson?.finish() } catch { failure = failure ?? Failure(error) }
        if let failure { throw failure }
        isDirty = tripsWritten
    }

    /// Finishes everything.
    func finish() throws(Failure) {
        if let tripsFD {
            try? tripsFD.synchronize()
            try? tripsFD.close()
            self.tripsFD = nil
        }
        try finishTracks()
    }

    // MARK: Trips

    /// Appends `line` to `trips.jsonl` unless a trip with the same start and end times (seconds since 1970) is
    /// there; one `write(2)` at the end of the file.
    /// - Returns: `false` when the trip was there.
    func appendTrip(_ line: [UInt8], start: Int64, end: Int64) throws(Failure) -> Bool {
        let fd = try openTrips()
        guard tripKeys.insert(TripKey(start: start, end: end)).inserted else { return false }
        do {
            try fd.writeAll(line + [UInt8(ascii: "\n")])
        } catch {
            throw Failure("cannot write '\(directory)/trips.jsonl': \(error)", code: error.rawValue)
        }
        tripsWritten = true
        isDirty = true
        return true
    }

    /// Opens `trips.jsonl` for appending and reads the trips it holds. A last line without its line break is what a
    /// killed write left: that trip was not acknowledged, comes again, and the cut line is removed.
    private func openTrips() throws(Failure) -> FileDescriptor {
        if let tripsFD { return tripsFD }
        let path = directory + "/trips.jsonl"
        var opened: FileDescriptor?
        var bytes: [UInt8] = []
        do {
            let fd = try FileDescriptor.open(path, .readWrite, options: [.create, .append, .closeOnExec])
            opened = fd
            let size = try fd.status().size
            bytes = [UInt8](repeating: 0, count: size)
            let count = try bytes.withUnsafeMutableBytes { try fd.readAll(into: $0, fromAbsoluteOffset: 0) }
            bytes.removeLast(size - count)
            if let last = bytes.last, last != UInt8(ascii: "\n") {
                let end = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                try fd.resize(to: end)
                bytes.removeLast(bytes.count - end)
            }
        } catch {
            try? opened?.close()
            throw Failure("cannot open '\(path)': \(error)", code: (error as? Errno)?.rawValue)
        }
        guard let fd = opened else { throw Failure("cannot open '\(path)'", code: nil) }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            if let trip = try? TripSummary(json: line) {
                tripKeys.insert(TripKey(start: trip.start.timestamp, end: trip.end.timestamp))
            }
        }
        tripsFD = fd
        return fd
    }

    // MARK: Helpers

    /// `true` when `path` is a regular file, `false` when nothing is there.
    private static func exists(_ path: String) throws(Failure) -> Bool {
        do {
            let status = try FileStatus(path: path)
            guard status.kind == .regular else {
                throw Failure("cannot write '\(path)': it is not a regular file", code: EISDIR)
            }
            return true
        } catch let error as Failure {
            throw error
        } catch Errno.noSuchFileOrDirectory {
            return false
        } catch {
            throw Failure("cannot write '\(path)': \(error)", code: (error as? Errno)?.rawValue)
        }
    }

    /// Renames `path` to `path.unreadable` (or `.unreadable-2`, … when taken), keeping it whole.
    private static func setAside(_ path: String) throws(Failure) {
        var target = path + ".unreadable"
        var number = 2
        while access(target, F_OK) == 0 {
            target = path + ".unreadable-\(number)"
            number += 1
        }
        guard rename(path, target) == 0 else {
            throw Failure("cannot set aside '\(path)': \(Errno.current)", code: errno)
        }
    }

    /// The directory path for a vehicle from its topic levels: unsafe levels (`.`, `..`, empty, leading dots)
    /// made harmless.
    static func safePath(_ levels: some Sequence<Substring>) -> String {
        levels.map { level -> String in
            var text = TextEscaping.replacingControls(String(level), with: "_")
            if text.isEmpty { text = "_" }
            if text.hasPrefix(".") { text = "_" + text.dropFirst() }
            return text
        }.joined(separator: "/")
    }
}
