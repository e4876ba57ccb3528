import Glibc

/// Place names remembered by geohash-7 cell (about 150 m), in a file that survives the program: home and office are
/// looked up once, ever.
///
/// The file is text, one cell a line after a header that names the geocoder:
///
///     nmea-geocode-cache 1 geonames-1a2b3c4d
///     u33dc0c<TAB>55.9001<TAB>37.42848<TAB>3 km NE of Khimki, Moscow Oblast, RU
///     kzfp8hb<TAB>-
///
/// (latitude and longitude of the named place, then the label with tab, newline, carriage return and backslash
/// escaped; `-` for a cell with no place name.) The cells say where the vehicle stops, so the file is private (0600,
/// in a directory created 0700). It is replaced whole on ``save()`` — a temporary file renamed over
/// it — so a reader never sees half of one. A file that cannot be read or parsed is reported through `warning` and
/// started afresh; it never stops the program. When more than ``capacity`` cells are known, the oldest are
/// forgotten.
public struct GeocodeCache {
    /// A cell's answer.
    public enum Entry: Sendable, Hashable {
        case place(PlaceName)
        /// The geocoder said there is no place name here.
        case nothing
    }

    /// The file, or `nil` for a cache that lives in memory only.
    public let path: String?
    /// The geocoder whose answers these are.
    public let identifier: String
    public let capacity: Int
    private var entries: [UInt64: Entry] = [:]
    /// Cells in the order they were learned (the file's order), for forgetting the oldest.
    private var order: [UInt64] = []
    private var isDirty = false

    static let header = "nmea-geocode-cache 1 "

    /// Opens the cache file at `path` (missing, unreadable or damaged files give an empty cache and a warning).
    public init(path: String?, identifier: String, capacity: Int = 100_000, warning: (String) -> Void) {
        self.path = path
        self.identifier = identifier
        self.capacity = max(1, capacity)
        guard let path else { return }
        guard access(path, F_OK) == 0 else {
            warning("no place cache at \(path) yet; creating it")
            isDirty = true
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: 64 << 20)
        } catch {
            warning("cannot read the place cache \(error.description); starting a new one")
            isDirty = true
            return
        }
        if let problem = load(bytes) {
            warning("the place cache \(path) is damaged (\(problem)); rebuilding it")
            entries = [:]
            order = []
            isDirty = true
        }
    }

    /// The default file for a geocoder: `$XDG_CACHE_HOME/nmea/places-<identifier>.tsv`, with `~/.cache` when
    /// `XDG_CACHE_HOME` is unset (or not absolute, as the XDG specification asks); `nil` without a home directory.
    public static func defaultPath(identifier: String) -> String? {
        defaultPath(
            identifier: identifier, cacheHome: FileSystem.environment("XDG_CACHE_HOME"),
            home: FileSystem.environment("HOME"))
    }

    static func defaultPath(identifier: String, cacheHome: String?, home: String?) -> String? {
        let name =
            "places-" + String(identifier.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
            + ".tsv"
        if let cacheHome, cacheHome.hasPrefix("/") { return cacheHome + "/nmea/" + name }
        if let home { return home + "/.cache/nmea/" + name }
        return nil
    }

    /// Cells known.
    public var count: Int { entries.count }

    /// The answer remembered for a cell.
    public func entry(for cell: Geohash) -> Entry? { entries[cell.bits] }

    /// Remembers the answer for a cell.
    public mutating func insert(_ entry: Entry, for cell: Geohash) {
        if entries.updateValue(entry, forKey: cell.bits) == nil { order.append(cell.bits) }
        isDirty = true
        if order.count > capacity {
            let excess = order.count - capacity
            for bits in order[..<excess] { entries[bits] = nil }
            order.removeFirst(excess)
        }
    }

    /// Writes the file when anything changed since it was read or last saved (creating its directory).
    /// - Throws: ``FileError`` when it cannot be written; the cache in memory stays as it is.
    public mutating func save() throws(FileError) {
        guard isDirty, let path else { return }
        // Which cells were looked up tells where the vehicle stops: private, as the XDG specification asks.
        try FileSystem.makeDirectories(FileSystem.directory(of: path), mode: 0o700)
        var text = GeocodeCache.header + identifier + "\n"
        for bits in order {
            guard let entry = entries[bits] else { continue }
            text += Geohash(bits: bits, length: 7).description
            switch entry {
            case .nothing:
                text += "\t-\n"
            case .place(let place):
                text += "\t\(place.latitude)\t\(place.longitude)\t\(GeocodeCache.escape(place.label))\n"
            }
        }
        try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
        isDirty = false
    }

    /// Reads the file's lines; returns what is wrong with it, or `nil`.
    private mutating func load(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return "empty file" }
        guard bytes.last == UInt8(ascii: "\n") else { return "the last line is cut short" }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, String(validating: first, as: UTF8.self) == GeocodeCache.header + identifier
        else { return "line 1 is not the header for \(identifier)" }
        for (number, line) in lines.enumerated().dropFirst() {
            guard let text = String(validating: line, as: UTF8.self), let entry = GeocodeCache.parse(text) else {
                return "line \(number + 1) cannot be read"
            }
            if entries.updateValue(entry.1, forKey: entry.0.bits) == nil { order.append(entry.0.bits) }
        }
        if order.count > capacity {
            let excess = order.count - capacity
            for bits in order[..<excess] { entries[bits] = nil }
            order.removeFirst(excess)
        }
        return nil
    }

    private static func parse(_ line: String) -> (Geohash, Entry)? {
        let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count >= 2, fields[0].count == 7, let cell = Geohash(fields[0]) else { return nil }
        if fields.count == 2 { return fields[1] == "-" ? (cell, .nothing) : nil }
        guard fields.count == 4, let latitude = Double(fields[1]), let longitude = Double(fields[2]),
            abs(latitude) <= 90, abs(longitude) <= 180, let label = unescape(fields[3]), !label.isEmpty
        else { return nil }
        return (cell, .place(PlaceName(label: label, latitude: latitude, longitude: longitude)))
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func unescape(_ text: Substring) -> String? {
        var out = ""
        var escaped = false
        for character in text.unicodeScalars {
            if escaped {
                switch character {
                case "\\": out += "\\"
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: return nil
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(character)
            }
        }
        return escaped ? nil : out
    }
}

/// A geocoder behind a cache: each position is rounded to its geohash-7 cell, whose centre is looked up once; later
/// positions in the same cell are answered from the cache (and so from the file, in later runs).
///
/// Answers are about the cell's centre, so every position in a cell gets the same label whatever order they come
/// in. Failures of the geocoder give `nil`, a warning the first time, and are not remembered.
public final class CachedGeocoder {
    public private(set) var geocoder: any Geocoder
    public private(set) var cache: GeocodeCache
    /// Positions answered from the cache.
    public private(set) var hits = 0
    /// Positions the geocoder was asked about.
    public private(set) var misses = 0
    /// Lookups that failed.
    public private(set) var failures = 0
    private let warning: (String) -> Void

    public init(_ geocoder: any Geocoder, cache: GeocodeCache, warning: @escaping (String) -> Void) {
        self.geocoder = geocoder
        self.cache = cache
        self.warning = warning
    }

    /// `geocoder` behind the cache file at `cachePath` (by default ``GeocodeCache/defaultPath(identifier:)``).
    public convenience init(
        _ geocoder: any Geocoder, cachePath: String? = nil,
        warning: @escaping (String) -> Void
    ) {
        let path = cachePath ?? GeocodeCache.defaultPath(identifier: geocoder.identifier)
        self.init(
            geocoder, cache: GeocodeCache(path: path, identifier: geocoder.identifier, warning: warning),
            warning: warning)
    }

    /// The place name for a position (of its cell's centre), from the cache when known.
    public func placeName(latitude: Double, longitude: Double) -> PlaceName? {
        let cell = Geohash(latitude: latitude, longitude: longitude, length: 7)
        if let entry = cache.entry(for: cell) {
            hits += 1
            if case .place(let name) = entry { return name }
            return nil
        }
        misses += 1
        let center = cell.center
        do {
            let name = try geocoder.placeName(latitude: center.latitude, longitude: center.longitude)
            cache.insert(name.map { .place($0) } ?? .nothing, for: cell)
            return name
        } catch {
            failures += 1
            if failures == 1 { warning("place names unavailable: \(error)") }
            return nil
        }
    }

    /// Writes the cache file when it changed; a failure is a warning.
    public func save() {
        do {
            try cache.save()
        } catch {
            warning("cannot save the place cache: \(error.description)")
        }
    }
}
