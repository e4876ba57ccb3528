import NMEA

/// A track file read as fixes: GPX or GeoJSON, told apart by its first byte, so a command that reads tracks takes
/// either (and NMEA, which starts with neither) without being told.
public struct TrackFileReader: Sendable {
    public enum Format: String, Sendable {
        case gpx = "GPX"
        case geojson = "GeoJSON"
    }

    public let format: Format
    private var gpx: GPXReader?
    private var geojson: GeoJSONReader?

    public init(format: Format) {
        self.format = format
        if format == .gpx { gpx = GPXReader() } else { geojson = GeoJSONReader() }
    }

    /// The format a file's first chunk shows: `<` (after a UTF-8 byte-order mark and white space) is XML, so GPX;
    /// `{` is JSON, so GeoJSON; anything else (NMEA's `$`, `!`, a TAG block's `\`) is neither.
    public static func format(of chunk: UnsafeRawBufferPointer) -> Format? {
        let chunk = withoutByteOrderMark(chunk)
        var index = 0
        while index < chunk.count, XMLTokenizer.isSpace(chunk[index]) { index += 1 }
        guard index < chunk.count else { return nil }
        switch chunk[index] {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "{"): return .geojson
        default: return nil
        }
    }

    public var statistics: TrackReadStatistics { gpx?.statistics ?? geojson?.statistics ?? TrackReadStatistics() }

    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        if gpx != nil { try gpx!.read(bytes, emit) } else { try geojson!.read(bytes, emit) }
    }

    public mutating func finish(_ emit: (Fix) -> Void) throws(TrackReadError) {
        if gpx != nil { try gpx!.finish(emit) } else { try geojson!.finish(emit) }
    }
}
