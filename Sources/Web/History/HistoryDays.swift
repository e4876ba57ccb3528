import JSON
import NMEA
import System
import Threading
import Tracks
import Trips

/// The days gone by (`--history DIR`): a directory of track files (the daily GPX files `nmea record --rotate daily`
/// writes, or any GPX, GeoJSON, KML or CSV of ours), one day each, the day being the UTC date of a file's first fix.
/// Each file is read as `nmea convert` reads it and its trips found by the one rule (``Trips/TripLog``), so a day's
/// distance and trips are what `nmea trips` prints for its file.
///
/// The directory is read on a thread of its own (``start()``), at once and then every ``rescanInterval``, never on
/// the socket thread: requests are answered from the last reading. A file is read again only when its size or
/// inode changed (today's file grows). Two files of the same day: the one whose name sorts first.
final class HistoryDays: Sendable {
    /// A day read from its file.
    struct Day: Sendable {
        var day: String
        var distanceMeters: Double
        var trips: Int
        /// `/api/track?day=`: the day's track as the page's track document.
        var track: [UInt8]
        /// `/api/trips?day=`: its trips and stops, as `nmea trips --json` prints them.
        var tripsDocument: [UInt8]
    }

    private struct Read: Sendable {
        var size: Int
        var inode: UInt
        var day: Day?
    }

    let directory: String
    private let places: MapPlaces
    private let files = Locked<[String: Read]>([:])
    /// The days of the last reading, oldest first.
    private let read = Locked<[Day]>([])
    private let stopping = WakeUp()
    private let reader = Locked<NativeThread?>(nil)
    /// How often the directory is read again.
    static let rescanInterval = Duration.seconds(5)

    init(directory: String, places: MapPlaces) {
        self.directory = directory
        self.places = places
    }

    /// Reads the directory now and every ``rescanInterval`` on a thread of its own, until ``stop()``.
    func start() {
        reader.withLock { reader in
            guard reader == nil else { return }
            reader = NativeThread(name: "history") { [self] in
                repeat { scan() } while !stopping.wait(timeout: Self.rescanInterval)
            }
        }
    }

    func stop() {
        stopping.signal()
        reader.withLock { $0 }?.join()
    }

    /// The days with a track, oldest first, as last read.
    func days() -> [Day] { read.withLock { $0 } }

    /// Reads the directory: the files that are new or changed.
    private func scan() {
        let days = readDirectory()
        read.withLock { $0 = days }
    }

    private func readDirectory() -> [Day] {
        let names = Directory.entries(directory).filter { !$0.hasPrefix(".") }.sorted()
        var byDay: [String: Day] = [:]
        files.withLock { files in
            files = files.filter { names.contains($0.key) }
            for name in names {
                let path = directory + "/" + name
                guard let status = try? FileStatus(path: path), status.kind == .regular else { continue }
                if let known = files[name], known.size == status.size, known.inode == status.inode {
                    if let day = known.day, byDay[day.day] == nil { byDay[day.day] = day }
                    continue
                }
                let day = read(path)
                files[name] = Read(size: status.size, inode: status.inode, day: day)
                if let day, byDay[day.day] == nil { byDay[day.day] = day }
            }
        }
        return byDay.values.sorted { $0.day < $1.day }
    }

    /// The day `day` (`YYYY-MM-DD`), when a file holds it.
    func day(_ day: String) -> Day? { days().first { $0.day == day } }

    /// `{"days":[{"day":"2026-11-30","distance_m":68335,"trips":2},…]}`.
    func document() -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("days")
        json.beginArray()
        for day in days() {
            json.beginObject()
            json.key("day")
            json.string(day.day)
            json.field("distance_m", day.distanceMeters, decimals: 0)
            json.field("trips", day.trips)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// A file's day, or `nil` when it is no track file or has no fix with a time and a position.
    private func read(_ path: String) -> Day? {
        guard let bytes = Self.contents(path) else { return nil }
        let format = bytes.withUnsafeBytes {
            TrackFileReader.format(of: UnsafeRawBufferPointer(rebasing: $0.prefix(4096)))
        }
        guard let format else { return nil }
        var reader = TrackFileReader(format: format)
        var segmenter = TrackSegmenter()
        var track = TrackPoints()
        var log = TripLog()
        var first: Int64?
        func take(_ fix: Fix) {
            _ = log.add(fix)
            let placement = segmenter.place(fix)
            guard placement != .skip, let time = fix.timestamp, let latitude = fix.latitude,
                let longitude = fix.longitude
            else { return }
            if first == nil { first = time }
            track.append(
                TrackPoints.Point(
                    latitude: latitude, longitude: longitude, timestamp: time,
                    speed: fix.speed.map(Float.init) ?? .nan, startsSegment: placement == .newSegment),
                limit: Int.max)
        }
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            do {
                try reader.read(buffer, take)
                try reader.finish(take)
                return true
            } catch {
                return false
            }
        }
        guard complete else { return nil }
        log.finish()
        guard let first else { return nil }
        let geocoder = places.geocoder()
        var json = JSONWriter(capacity: 4096)
        TripJSON.writeDocument(
            trips: log.trips, stops: log.stops,
            place: { latitude, longitude in try? geocoder?.placeName(latitude: latitude, longitude: longitude) },
            into: &json)
        var day = ""
        UTCDate(containing: first).write { day.unicodeScalars.append(Unicode.Scalar($0)) }
        return Day(
            day: day, distanceMeters: log.distanceMeters, trips: log.trips.count,
            track: track.geoJSON(since: nil), tripsDocument: json.bytes)
    }

    /// The whole file, or `nil` when it cannot be read.
    private static func contents(_ path: String) -> [UInt8]? {
        guard let status = try? FileStatus(path: path), let fd = try? FileDescriptor.open(path, .readOnly) else {
            return nil
        }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: status.size)
        let count = bytes.withUnsafeMutableBytes { buffer in Result { () throws(Errno) in try fd.readAll(into: buffer) }
        }
        guard case .success(let read) = count else { return nil }
        return Array(bytes.prefix(read))
    }
}
