import NMEA

/// A track file read as fixes, waypoints and routes: GPX, KML, GeoJSON or CSV, told apart by the file's first bytes,
/// so a command that reads tracks takes every format `nmea convert` writes (and NMEA, which looks like none of them)
/// without being told.
public struct TrackFileReader: Sendable {
    public enum Format: String, Sendable {
        case gpx = "GPX"
        case kml = "KML"
        case geojson = "GeoJSON"
        case csv = "CSV"
    }

    public let format: Format
    private var gpx: GPXReader?
    private var kml: KMLReader?
    private var geojson: GeoJSONReader?
    private var csv: CSVTrackReader?

    public init(format: Format) {
        self.format = format
        switch format {
        case .gpx: gpx = GPXReader()
        case .kml: kml = KMLReader()
        case .geojson: geojson = GeoJSONReader()
        case .csv: csv = CSVTrackReader()
        }
    }

    /// The format a file's first chunk shows (after a UTF-8 byte-order mark and white space): XML whose root
    /// element is `<kml>` is KML, any other XML is read as GPX (which says so when it is not); `{` is GeoJSON; a first
    /// line naming a latitude and a longitude column is CSV; anything else (NMEA's `$`, `!`, a TAG block's `\`) is
    /// none of them.
    public static func format(of chunk: UnsafeRawBufferPointer) -> Format? {
        let chunk = withoutByteOrderMark(chunk)
        var index = 0
        while index < chunk.count, XMLTokenizer.isSpace(chunk[index]) { index += 1 }
        guard index < chunk.count else { return nil }
        switch chunk[index] {
        case UInt8(ascii: "<"): return rootElement(chunk[index...]) == "kml" ? .kml : .gpx
        case UInt8(ascii: "{"): return .geojson
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "\\"): return nil
        default:
            let line = chunk[index...].prefix { $0 != UInt8(ascii: "\n") }
            return CSVTrackReader.isHeader(line) ? .csv : nil
        }
    }

    /// The local name of the first element in `bytes` (after the XML declaration, comments, processing instructions
    /// and a DOCTYPE), when the chunk reaches it.
    static func rootElement(_ bytes: Slice<UnsafeRawBufferPointer>) -> String? {
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = open + 1
            guard next < bytes.endIndex else { return nil }
            if bytes[next] == UInt8(ascii: "?") || bytes[next] == UInt8(ascii: "!") {
                guard let close = bytes[next...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                // A comment may hold '>': skip to its '-->'.
                if bytes[next...].starts(with: "!--".utf8) {
                    var end = next + 3
                    while end + 2 < bytes.endIndex
                        && !(bytes[end] == UInt8(ascii: "-") && bytes[end + 1] == UInt8(ascii: "-")
                            && bytes[end + 2] == UInt8(ascii: ">"))
                    {
                        end += 1
                    }
                    index = end + 3
                } else {
                    index = close + 1
                }
                continue
            }
            let name = bytes[next...].prefix { !XMLTokenizer.isSpace($0) && $0 != UInt8(ascii: ">") && $0 != 0x2F }
            return XMLTokenizer.localName(ArraySlice(name))
        }
        return nil
    }

    public var statistics: TrackReadStatistics {
        gpx?.statistics ?? kml?.statistics ?? geojson?.statistics ?? csv?.statistics ?? TrackReadStatistics()
    }

    /// The waypoints and routes read so far (GPX, KML and GeoJSON; CSV holds none).
    public var navigation: Navigation {
        gpx?.navigation ?? kml?.navigation ?? geojson?.navigation ?? Navigation()
    }

    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        switch format {
        case .gpx: try gpx!.read(bytes, emit)
        case .kml: try kml!.read(bytes, emit)
        case .geojson: try geojson!.read(bytes, emit)
        case .csv: try csv!.read(bytes, emit)
        }
    }

    public mutating func finish(_ emit: (Fix) -> Void) throws(TrackReadError) {
        switch format {
        case .gpx: try gpx!.finish(emit)
        case .kml: try kml!.finish(emit)
        case .geojson: try geojson!.finish(emit)
        case .csv: try csv!.finish(emit)
        }
    }
}
