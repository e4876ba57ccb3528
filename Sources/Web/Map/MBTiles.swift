import CSQLite
import Threading

/// A raster MBTiles file (SQLite: the `tiles` table of PNG, JPEG or WebP images by zoom, column and TMS row, and
/// the `metadata` table of names and values), read-only, for `/tiles/{z}/{x}/{y}`.
///
///     let file = try MBTiles(path: "bavaria.mbtiles")   // checks the tables and the format
///     file.tile(zoom: 10, x: 545, y: 354)                // XYZ rows, as Leaflet asks; nil when there is none
///
/// One connection, used under a lock (the HTTP server answers on one thread; the lock keeps it safe anyway).
public final class MBTiles: Sendable {
    /// Why a file cannot be served.
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let path: String
    /// `image/png`, `image/jpeg` or `image/webp`.
    public let contentType: String
    /// The metadata's `name`, `attribution` (HTML), `minzoom` and `maxzoom`, when given.
    public let name: String?
    public let attribution: String?
    public let minimumZoom: Int?
    public let maximumZoom: Int?

    private let connection: Locked<Connection>

    /// Opens `path` read-only and reads its metadata.
    /// - Throws: ``OpenError`` when it is no SQLite file, has no `tiles` table, or holds vector tiles.
    public init(path: String) throws(OpenError) {
        self.path = path
        let connection = try Connection(path: path)
        let metadata = connection.metadata()
        name = metadata["name"]
        attribution = metadata["attribution"].flatMap { $0.isEmpty ? nil : $0 }
        minimumZoom = metadata["minzoom"].flatMap { Int($0) }
        maximumZoom = metadata["maxzoom"].flatMap { Int($0) }
        let format = metadata["format"]?.lowercased() ?? Self.format(of: connection.anyTile())
        switch format {
        case "png": contentType = "image/png"
        case "jpg", "jpeg": contentType = "image/jpeg"
        case "webp": contentType = "image/webp"
        case "pbf", "mvt":
            throw OpenError(description: "\(path): holds vector tiles (\(format)); the map draws raster tiles only")
        default:
            throw OpenError(
                description: "\(path): tile format \(format.isEmpty ? "unknown" : format) is not PNG, JPEG or WebP")
        }
        self.connection = Locked(connection)
    }

    /// The tile at zoom `zoom`, column `x` and row `y` counted from the north (XYZ, as Leaflet and tile servers
    /// count; the file counts from the south, TMS); `nil` when the file has none.
    public func tile(zoom: Int, x: Int, y: Int) -> [UInt8]? {
        guard (0...30).contains(zoom), x >= 0, y >= 0, x < 1 << zoom, y < 1 << zoom else { return nil }
        return connection.withLock { $0.tile(zoom: zoom, column: x, row: (1 << zoom) - 1 - y) }
    }

    /// The format a tile's first bytes say.
    static func format(of tile: [UInt8]?) -> String {
        guard let tile else { return "" }
        if tile.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if tile.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if tile.count > 12, tile[0..<4].elementsEqual("RIFF".utf8), tile[8..<12].elementsEqual("WEBP".utf8) {
            return "webp"
        }
        return ""
    }

    /// The SQLite handle and the tile query, prepared once.
    final class Connection: @unchecked Sendable {
        private var database: OpaquePointer?
        private var query: OpaquePointer?

        init(path: String) throws(OpenError) {
            let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            guard sqlite3_open_v2(path, &database, flags, nil) == SQLITE_OK else {
                let reason = database.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
                sqlite3_close(database)
                database = nil
                throw OpenError(description: "\(path): \(reason)")
            }
            let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"
            guard sqlite3_prepare_v2(database, sql, -1, &query, nil) == SQLITE_OK else {
                let reason = String(cString: sqlite3_errmsg(database))
                throw OpenError(description: "\(path): not an MBTiles file (\(reason))")
            }
        }

        deinit {
            sqlite3_finalize(query)
            sqlite3_close(database)
        }

        func tile(zoom: Int, column: Int, row: Int) -> [UInt8]? {
            sqlite3_reset(query)
            sqlite3_bind_int64(query, 1, Int64(zoom))
            sqlite3_bind_int64(query, 2, Int64(column))
            sqlite3_bind_int64(query, 3, Int64(row))
            guard sqlite3_step(query) == SQLITE_ROW else { return nil }
            return blob(query, column: 0)
        }

        /// One tile, to tell the format by when the metadata does not say.
        func anyTile() -> [UInt8]? {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, "SELECT tile_data FROM tiles LIMIT 1", -1, &statement, nil) == SQLITE_OK
            else { return nil }
            defer { sqlite3_finalize(statement) }
            return sqlite3_step(statement) == SQLITE_ROW ? blob(statement, column: 0) : nil
        }

        /// The `metadata` table (empty when there is none).
        func metadata() -> [String: String] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, "SELECT name, value FROM metadata", -1, &statement, nil) == SQLITE_OK
            else { return [:] }
            defer { sqlite3_finalize(statement) }
            var values: [String: String] = [:]
            while sqlite3_step(statement) == SQLITE_ROW {
                guard let name = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1)
                else { continue }
                values[String(cString: name)] = String(cString: value)
            }
            return values
        }

        private func blob(_ statement: OpaquePointer?, column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
    }
}
