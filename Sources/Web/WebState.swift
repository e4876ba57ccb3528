import JSON
import NMEA
import Pipeline
import System
import Threading
import Tracks
import Trips

/// What the page shows, kept current from a pipeline's records by ``WebConsumer`` and read by the server's routes:
/// the latest position, the receiver's status, today's track and the trips so far, each as the JSON the API serves.
///
/// The documents are encoded once, on the consumer's thread, when what they say changes; a request copies one out
/// under the lock. Memory is bounded: the track keeps at most ``trackLimit`` points (about two days at 1 Hz; beyond
/// that the oldest half goes), and it starts again when the fixes reach a new UTC day.
final class WebState: Sendable {
    /// The most track points kept.
    static let trackLimit = 200_000

    struct Snapshot {
        /// `/api/position` without its `"age_s"` (added per request): the fix's members, then `"place"` and `"dm"`.
        var positionMembers: [UInt8]?
        /// When the position's bytes were read (for its age).
        var positionReadAt: MonotonicTime?
        /// The latest position, for the page's first response.
        var position: Fix?
        var place: String?
        var degreesMinutes: String?
        /// The latest satellites in view (complete epochs only), as a JSON array.
        var satellites: [UInt8] = Array("[]".utf8)
        /// `/api/status`.
        var status: [UInt8] = Array("{}".utf8)
        /// `/api/trips`.
        var trips: [UInt8] = Array(#"{"trips":[],"stops":[]}"#.utf8)
        /// The AIS stations heard (`{"vessels":[…]}`), as `nmea ais --json` lists them, with their age.
        var vessels: [UInt8] = Array(#"{"vessels":[]}"#.utf8)
        var track = TrackPoints()
    }

    let snapshot = Locked(Snapshot())
}

/// Today's track, compactly: a point per complete fix with a position.
struct TrackPoints: Sendable {
    struct Point: Sendable {
        var latitude: Double
        var longitude: Double
        /// Nanoseconds since 1970.
        var timestamp: Int64
        /// Metres per second; NaN when unknown.
        var speed: Float
        /// The first point of a segment (after a gap or a lost fix).
        var startsSegment: Bool
    }

    private(set) var points: [Point] = []
    /// The UTC day of the points (days since 1970).
    private(set) var day: Int64?

    mutating func append(_ point: Point, limit: Int) {
        let pointDay = Int64(UTCDate(containing: point.timestamp).daysSinceEpoch)
        if day != pointDay {
            points.removeAll(keepingCapacity: true)
            day = pointDay
        }
        if points.count >= limit {
            points.removeFirst(points.count / 2)
            points[0].startsSegment = true
        }
        var point = point
        if points.isEmpty { point.startsSegment = true }
        points.append(point)
    }

    /// The segments with points at or after `since` (nanoseconds), as a GeoJSON `FeatureCollection`: one
    /// `LineString` feature per segment (a `Point` for a segment of one point), its properties the points' times
    /// (`"times"`, ISO 8601) and speeds (`"speeds"`, m/s, `null` when unknown) in order, and its `"segment"` index.
    func geoJSON(since: Int64?) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + points.count * 64)
        json.beginObject()
        json.field("type", "FeatureCollection")
        json.key("features")
        json.beginArray()
        let first = since.map { start in points.firstIndex { $0.timestamp >= start } ?? points.count } ?? 0
        var segmentStart = first
        var segment = 0
        while segmentStart < points.count {
            var end = segmentStart + 1
            while end < points.count, !points[end].startsSegment { end += 1 }
            writeFeature(points[segmentStart..<end], index: segment, into: &json)
            segment += 1
            segmentStart = end
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    private func writeFeature(_ segment: ArraySlice<Point>, index: Int, into json: inout JSONWriter) {
        let continues = !segment.first!.startsSegment
        json.beginObject()
        json.field("type", "Feature")
        json.key("geometry")
        json.beginObject()
        json.field("type", segment.count == 1 ? "Point" : "LineString")
        json.key("coordinates")
        if segment.count > 1 { json.beginArray() }
        for point in segment {
            json.beginArray()
            json.number(point.longitude, decimals: 6)
            json.number(point.latitude, decimals: 6)
            json.endArray()
        }
        if segment.count > 1 { json.endArray() }
        json.endObject()
        json.key("properties")
        json.beginObject()
        json.field("segment", index)
        // A `since` that falls inside a segment: its first feature continues the line the client already has.
        if continues { json.field("continues", true) }
        json.key("times")
        json.beginArray()
        for point in segment { json.asciiString { ISO8601.write(nanosecondsSinceEpoch: point.timestamp, to: $0) } }
        json.endArray()
        json.key("speeds")
        json.beginArray()
        for point in segment {
            if point.speed.isNaN { json.null() } else { json.number(Double(point.speed), maximumDecimals: 2) }
        }
        json.endArray()
        json.endObject()
        json.endObject()
    }
}
