import JSON
import NMEA

/// Trips and stops as JSON objects: the format of `nmea trips --json`, and of the lines a live recorder appends.
///
///     {"start":{"time":"2026-11-30T09:00:04Z","lat":55.900100,"lon":37.428480,"place":"Khimki, Moscow Oblast, RU"},
///      "end":{…},"distance_m":21834,"duration_s":1796,"avg_speed_kmh":43.8,"max_speed_kmh":90.0}
///     {"start":"2026-11-30T09:30:00Z","end":"2026-11-30T17:30:02Z","duration_s":28802,"lat":…,"lon":…,"place":…}
///
/// Times are ISO 8601 UTC (with the fraction of a second when there is one, to the millisecond); positions have six
/// decimals (0.1 m); `"place"` is `null` when no place name is known.
public enum TripJSON {
    /// Writes one trip object.
    public static func write(_ trip: Trip, startPlace: PlaceName?, endPlace: PlaceName?, into json: inout JSONWriter) {
        write(
            start: trip.start, startPlace: startPlace?.label, end: trip.end, endPlace: endPlace?.label,
            distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds,
            averageSpeedKmh: trip.averageSpeedKmh, maximumSpeedKmh: trip.maximumSpeedKmh, into: &json)
    }

    /// Writes one trip object from its figures, for messages that carry a trip without its fixes (the fleet's
    /// trip messages); `type` first as `"_type"` when given.
    public static func write(
        start: TripPoint, startPlace: String?, end: TripPoint, endPlace: String?,
        distanceMeters: Double, durationSeconds: Double, averageSpeedKmh: Double,
        maximumSpeedKmh: Double, type: StaticString? = nil, into json: inout JSONWriter
    ) {
        json.beginObject()
        if let type { json.field("_type", type) }
        writeMembers(
            start: start, startPlace: startPlace, end: end, endPlace: endPlace, distanceMeters: distanceMeters,
            durationSeconds: durationSeconds, averageSpeedKmh: averageSpeedKmh, maximumSpeedKmh: maximumSpeedKmh,
            into: &json)
        json.endObject()
    }

    /// Writes a trip's members (`"start":…` to `"max_speed_kmh":…`) into an object the caller opened, for objects
    /// that carry more than the trip (`nmea fleet trips` adds the vehicle first).
    public static func writeMembers(
        start: TripPoint, startPlace: String?, end: TripPoint, endPlace: String?,
        distanceMeters: Double, durationSeconds: Double, averageSpeedKmh: Double,
        maximumSpeedKmh: Double, into json: inout JSONWriter
    ) {
        json.key("start")
        write(start, place: startPlace, into: &json)
        json.key("end")
        write(end, place: endPlace, into: &json)
        json.field("distance_m", distanceMeters, decimals: 0)
        json.field("duration_s", durationSeconds)
        json.field("avg_speed_kmh", averageSpeedKmh, decimals: 1)
        json.field("max_speed_kmh", maximumSpeedKmh, decimals: 1)
    }

    /// The document `nmea trips --json` prints (and the page's `/api/trips` serves): `{"trips":[…],"stops":[…]}`,
    /// in time order, each start, end and stop named through `place`.
    public static func writeDocument(
        trips: [Trip], stops: [Stop], place: (_ latitude: Double, _ longitude: Double) -> PlaceName?,
        into json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("trips")
        json.beginArray()
        for trip in trips {
            write(
                trip, startPlace: place(trip.start.latitude, trip.start.longitude),
                endPlace: place(trip.end.latitude, trip.end.longitude), into: &json)
        }
        json.endArray()
        json.key("stops")
        json.beginArray()
        for stop in stops { write(stop, place: place(stop.latitude, stop.longitude), into: &json) }
        json.endArray()
        json.endObject()
    }

    /// Writes one trip object, its start and end named through `places` (`"place":null` without).
    /// What a live recorder appends to its trip log, one line a trip.
    public static func write(_ trip: Trip, places: CachedGeocoder?, into json: inout JSONWriter) {
        write(
            trip, startPlace: places?.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude),
            endPlace: places?.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude), into: &json)
    }

    /// Writes one stop object, named through `places`.
    public static func write(_ stop: Stop, places: CachedGeocoder?, into json: inout JSONWriter) {
        write(stop, place: places?.placeName(latitude: stop.latitude, longitude: stop.longitude), into: &json)
    }

    /// Writes one stop object (`"open_start"`/`"open_end"`: true when the data began or ended during the stop).
    public static func write(_ stop: Stop, place: PlaceName?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("start")
        writeTime(stop.start.timestamp, into: &json)
        json.key("end")
        writeTime(stop.endTimestamp, into: &json)
        json.field("duration_s", stop.durationSeconds)
        json.field("lat", stop.latitude, decimals: 6)
        json.field("lon", stop.longitude, decimals: 6)
        json.key("place")
        if let place { json.string(place.label) } else { json.null() }
        if stop.openStart { json.field("open_start", true) }
        if stop.openEnd { json.field("open_end", true) }
        json.endObject()
    }

    /// `{"time":…,"lat":…,"lon":…,"place":…}`.
    public static func write(_ point: TripPoint, place: PlaceName?, into json: inout JSONWriter) {
        write(point, place: place?.label, into: &json)
    }

    /// `{"time":…,"lat":…,"lon":…,"place":…}` with a place name as text (`null` without).
    public static func write(_ point: TripPoint, place: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.key("time")
        writeTime(point.timestamp, into: &json)
        json.field("lat", point.latitude, decimals: 6)
        json.field("lon", point.longitude, decimals: 6)
        json.key("place")
        if let place { json.string(place) } else { json.null() }
        json.endObject()
    }

    /// Writes a time as an ISO 8601 string (to the nearest millisecond, ``ISO8601/Fraction/nearestMillisecond``).
    public static func writeTime(_ timestamp: Int64, into json: inout JSONWriter) {
        json.asciiString { output in ISO8601.write(nanosecondsSinceEpoch: timestamp, to: output) }
    }
}
