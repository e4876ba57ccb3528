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
        json.beginObject()
        json.key("start")
        write(trip.start, place: startPlace, into: &json)
        json.key("end")
        write(trip.end, place: endPlace, into: &json)
        json.field("distance_m", trip.distanceMeters, decimals: 0)
        json.field("duration_s", trip.durationSeconds)
        json.field("avg_speed_kmh", trip.averageSpeedKmh, decimals: 1)
        json.field("max_speed_kmh", trip.maximumSpeedKmh, decimals: 1)
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
        json.beginObject()
        json.key("time")
        writeTime(point.timestamp, into: &json)
        json.field("lat", point.latitude, decimals: 6)
        json.field("lon", point.longitude, decimals: 6)
        json.key("place")
        if let place { json.string(place.label) } else { json.null() }
        json.endObject()
    }

    /// Writes a time as an ISO 8601 string.
    public static func writeTime(_ timestamp: Int64, into json: inout JSONWriter) {
        json.asciiString { output in ISO8601.write(timestamp, to: output) }
    }
}

/// ISO 8601 UTC times from nanoseconds since 1970.
public enum ISO8601 {
    /// `2026-11-30T08:00:00Z`, or `2026-11-30T08:00:00.25Z` with the fraction (to the millisecond, trailing zeros
    /// left out).
    public static func write(_ timestamp: Int64, to output: (UInt8) -> Void) {
        let milliseconds = floorDivide(timestamp + 500_000, 1_000_000)
        let seconds = floorDivide(milliseconds, 1000)
        var fraction = Int(milliseconds - seconds * 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        UTCDate(daysSinceEpoch: Int(days)).write(to: output)
        output(UInt8(ascii: "T"))
        DecimalFormatter.write(secondOfDay / 3600, minimumDigits: 2, to: output)
        output(UInt8(ascii: ":"))
        DecimalFormatter.write(secondOfDay / 60 % 60, minimumDigits: 2, to: output)
        output(UInt8(ascii: ":"))
        DecimalFormatter.write(secondOfDay % 60, minimumDigits: 2, to: output)
        if fraction > 0 {
            output(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            DecimalFormatter.write(fraction, minimumDigits: digits, to: output)
        }
        output(UInt8(ascii: "Z"))
    }

    /// The time as a string.
    public static func string(_ timestamp: Int64) -> String {
        var bytes: [UInt8] = []
        write(timestamp) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }
}
