import JSON
import NMEA

/// What the fleet database holds, as JSON: the documents `nmea fleet last --json` and `nmea fleet trips --json` print
/// and the fleet page's `/api/vehicles` and `/api/trips` serve, and the trips as GeoJSON.
public enum FleetJSON {
    /// `{"vehicles":[…]}`: each vehicle's last position, its age and its place (`place` names it, or `nil`).
    public static func vehicles(
        _ vehicles: [FleetQueries.LastPosition], place: (StoredPosition) -> String?
    ) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.key("vehicles")
        json.beginArray()
        for last in vehicles {
            let position = last.position
            json.beginObject()
            json.field("vehicle", position.vehicle)
            json.key("time")
            json.asciiString { ISO8601.write(nanosecondsSinceEpoch: position.timestamp * 1_000_000_000, to: $0) }
            json.field("age_s", last.ageSeconds, decimals: 0)
            json.field("lat", position.latitude)
            json.field("lon", position.longitude)
            json.field("alt", position.altitudeMeters)
            json.field("speed_kmh", position.speed.map { $0 * 3.6 }, decimals: 1)
            json.field("course", position.courseDegrees)
            json.field("accuracy_m", position.accuracyMeters)
            json.field("satellites", position.satellites)
            json.key("place")
            if let place = place(position) { json.string(place) } else { json.null() }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `{"days":[{"vehicle":"acme/van7","day":"2026-11-30","distance_m":2710,"trips":1},…]}`: the UTC days each
    /// vehicle's stored trips started on, with their distance and number, by vehicle and day (the fleet page's
    /// day picker).
    public static func days(_ trips: [FleetQueries.StoredTripRow]) -> [UInt8] {
        struct Key: Hashable, Comparable {
            var vehicle: String
            var day: UTCDate
            static func < (a: Key, b: Key) -> Bool { a.vehicle != b.vehicle ? a.vehicle < b.vehicle : a.day < b.day }
        }
        var days: [Key: (distance: Double, trips: Int)] = [:]
        for trip in trips {
            let key = Key(vehicle: trip.vehicle, day: UTCDate(containing: trip.summary.start.timestamp))
            days[key, default: (0, 0)].distance += trip.summary.distanceMeters
            days[key, default: (0, 0)].trips += 1
        }
        var json = JSONWriter(capacity: 64 + days.count * 96)
        json.beginObject()
        json.key("days")
        json.beginArray()
        for key in days.keys.sorted() {
            json.beginObject()
            json.field("vehicle", key.vehicle)
            json.key("day")
            json.asciiString { key.day.write(to: $0) }
            json.field("distance_m", days[key]!.distance, decimals: 0)
            json.field("trips", days[key]!.trips)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `{"trips":[…]}`: each stored trip with its vehicle.
    public static func trips(_ trips: [FleetQueries.StoredTripRow]) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.key("trips")
        json.beginArray()
        for trip in trips {
            json.beginObject()
            json.field("vehicle", trip.vehicle)
            trip.summary.writeMembers(into: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// A FeatureCollection of the trips, each a LineString along its stored path, the trip's fields as properties.
    public static func tripsGeoJSON(_ trips: [FleetQueries.StoredTripRow]) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 16)
        json.beginObject()
        json.field("type", "FeatureCollection" as StaticString)
        json.key("features")
        json.beginArray()
        for trip in trips {
            json.beginObject()
            json.field("type", "Feature" as StaticString)
            json.key("geometry")
            writeGeometry(trip, into: &json)
            json.key("properties")
            json.beginObject()
            json.field("vehicle", trip.vehicle)
            trip.summary.writeMembers(into: &json)
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes + [UInt8(ascii: "\n")]
    }

    /// A line needs two distinct positions (RFC 7946, GEOS): the stored path, else the trip's start and end, else
    /// (both at one place) a Point.
    private static func writeGeometry(_ trip: FleetQueries.StoredTripRow, into json: inout JSONWriter) {
        json.beginObject()
        let ends = [trip.summary.start, trip.summary.end].map {
            FleetQueries.PathPoint(latitude: $0.latitude, longitude: $0.longitude)
        }
        func distinct(_ points: [FleetQueries.PathPoint]) -> Bool {
            points.contains { $0.latitude != points[0].latitude || $0.longitude != points[0].longitude }
        }
        let line = distinct(trip.path) ? trip.path : distinct(ends) ? ends : nil
        func position(_ point: FleetQueries.PathPoint) {
            json.beginArray()
            json.number(point.longitude)
            json.number(point.latitude)
            json.endArray()
        }
        json.field("type", line == nil ? "Point" : "LineString" as StaticString)
        json.key("coordinates")
        if let line {
            json.beginArray()
            for point in line { position(point) }
            json.endArray()
        } else {
            position(ends[0])
        }
        json.endObject()
    }

    /// `{"events":[{"vehicle":…,"fence":…,"kind":"enter"|"exit","time":…,"lat":…,"lon":…}]}`.
    public static func events(_ events: [FenceEvent]) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + events.count * 128)
        json.beginObject()
        json.key("events")
        json.beginArray()
        for event in events { event.write(to: &json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// A FeatureCollection of the fences: each its outline, with `name`, `shape`, `margin_m` and (circles)
    /// `radius_m`.
    public static func fences(_ fences: [GeofenceStore.Row]) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.field("type", "FeatureCollection" as StaticString)
        json.key("features")
        json.beginArray()
        for fence in fences {
            json.beginObject()
            json.field("type", "Feature" as StaticString)
            json.key("geometry")
            json.raw(Array(fence.geoJSON.utf8))
            json.key("properties")
            json.beginObject()
            json.field("name", fence.name)
            json.field("shape", fence.kind)
            json.field("margin_m", fence.marginMeters)
            json.field("radius_m", fence.radiusMeters)
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
