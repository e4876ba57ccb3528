import JSON
import NMEA

/// Whose track the points that follow are, in a file of several tracks (`nmea convert --ais`: one per vessel): its
/// identifier under `key` (a GeoJSON property and a CSV column, `mmsi`), and its name when known.
public struct TrackLabel: Sendable, Hashable {
    /// What the identifier is: `mmsi`.
    public var key: String
    /// The track's owner: a vessel's MMSI.
    public var identifier: Int
    /// Its name (a vessel's), when known.
    public var name: String?

    public init(key: String, identifier: Int, name: String? = nil) {
        self.key = key
        self.identifier = identifier
        self.name = name
    }

    /// The name to show: the name, else the key and identifier (`mmsi 211000001`).
    public var title: String { name ?? "\(key) \(identifier)" }

    /// `,"key":identifier,"name":"…"` (no name when none): the properties a GeoJSON feature of the track ends with.
    var geoJSONProperties: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(key)
        writer.number(identifier)
        if let name {
            writer.key("name")
            writer.string(name)
        }
        writer.endObject()
        // `{…}` less its braces, after a comma.
        return [UInt8(ascii: ",")] + writer.bytes.dropFirst().dropLast()
    }
}
