import NMEA

/// What a vehicle's open day files already hold, so that a position delivered again is written once: the last
/// distinct positions written to the day's GPX or GeoJSON file (``windowSize``), each with the files that have it.
///
/// A position is its fix time (OwnTracks `tst`, whole seconds), latitude and longitude. The time alone is not
/// enough: whole seconds give several fixes of a receiver faster than 1 Hz the same `tst`, and they are different
/// points; the position alone is not either (a parked vehicle sends the same one for hours). Each file is counted
/// apart because a collector killed between writing its GPX and its GeoJSON leaves the GPX holding positions the
/// GeoJSON does not: the broker sends them again, and only the GeoJSON takes them.
///
/// Why a window, and why this one: the messages a broker sends again are the ones it has not seen acknowledged, and
/// the collector acknowledges each read from the broker (at most 5,000 messages) once it is in the files, so what
/// comes back after a restart was written, if at all, among the last reads' positions. The window is filled from
/// the files when a day is reopened (``VehicleFiles``), so a restart sees what a running collector would have
/// remembered. A repeat older than the window (a publisher that sends a day again much later) is written again;
/// a new position that repeats one in the window is not (it would add nothing to the track).
///
/// The window holds twice ``capacity`` positions, so that the two files' last ``capacity`` points each, read back
/// when a day is reopened, fit whole: were the window only as large as one file's, the positions the file behind
/// holds and the one ahead does not (the oldest in the window) would be forgotten first, and the broker's messages
/// sent again, oldest first, would each be new and forget the very next one — every message written again.
///
/// Each position is kept as a 64-bit hash (`Hasher`, seeded anew in each process; nothing is stored), so the memory
/// is about 800 KB per vehicle; two different positions share a hash with a chance of about 2⁻⁵¹ per message.
struct WrittenPoints {
    /// The day files, as bits.
    struct Files: OptionSet, Hashable {
        let rawValue: UInt8
        static let gpx = Files(rawValue: 1)
        static let geojson = Files(rawValue: 2)
        static let all: Files = [.gpx, .geojson]
    }

    /// The positions read back from each file when a day is reopened.
    static let capacity = 16_384
    /// The positions remembered: both files' read back, whole.
    static let windowSize = 2 * capacity

    private var holders: [UInt64: Files] = [:]
    /// The positions in the order they were first written, as a ring once full.
    private var order: [UInt64] = []
    private var oldest = 0

    init() {
        holders.reserveCapacity(Self.windowSize)
        order.reserveCapacity(Self.windowSize)
    }

    /// What two files hold, each given as the positions of its last points, oldest first: one file of a day is
    /// behind the other after a kill (its last position is in the other's list, before its end), and goes in first,
    /// so that the window forgets the oldest positions of the two and not the newest of one.
    init(gpx: [UInt64], geojson: [UInt64]) {
        self.init()
        var lists = [(gpx, Files.gpx), (geojson, Files.geojson)]
        if let last = geojson.last, gpx.last != last, gpx.contains(last) { lists.reverse() }
        for (keys, files) in lists {
            for key in keys { add(key, in: files) }
        }
    }

    /// The position of `fix`: its time, latitude and longitude as the files hold them (GPX writes longitude 180 as
    /// −180; zero has no sign).
    static func key(_ fix: Fix) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(fix.timestamp ?? Int64.min)
        for var value in [fix.latitude ?? .nan, fix.longitude ?? .nan] {
            if value == 180 { value = -180 }
            if value == 0 { value = 0 }
            hasher.combine(value.bitPattern)
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The files that hold the position `key`.
    func files(holding key: UInt64) -> Files { holders[key] ?? [] }

    /// Remembers that `files` hold the position `key`, forgetting the oldest position when the window is full.
    mutating func add(_ key: UInt64, in files: Files) {
        if let held = holders[key] {
            holders[key] = held.union(files)
            return
        }
        holders[key] = files
        if order.count < Self.windowSize {
            order.append(key)
        } else {
            holders[order[oldest]] = nil
            order[oldest] = key
            oldest = (oldest + 1) % order.count
        }
    }
}
