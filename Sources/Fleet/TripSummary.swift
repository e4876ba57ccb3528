import JSON
import NMEA
import Trips

/// A finished trip as published to `<topic>/trip`: the fields of one trip in `nmea trips --json`.
///
///     {"_type":"trip","start":{"time":"2026-11-30T09:00:04Z","lat":55.9001,"lon":37.42848,"place":"Khimki, RU"},
///      "end":{…},"distance_m":21834,"duration_s":1796,"avg_speed_kmh":43.8,"max_speed_kmh":90.0}
///
/// A trip as a message carries it: made from a detected ``Trip`` (``init(trip:startPlace:endPlace:)``) when
/// publishing, read back from JSON by the collector, which has the figures but not the fixes. Written by
/// ``TripJSON``, as `nmea trips --json` writes a trip: times ISO 8601 UTC (to the millisecond when there is a
/// fraction), positions six decimals, the distance whole metres, speeds one decimal, `place` `null` when unknown.
/// `"_type":"trip"` is added so that consumers of `owntracks/#` that dispatch on `_type` can tell it from the
/// OwnTracks types.
public struct TripSummary: Sendable, Hashable {
    /// Where and when a trip started or ended.
    public struct Endpoint: Sendable, Hashable {
        /// Nanoseconds since 1970-01-01 UTC.
        public var timestamp: Int64
        public var latitude: Double
        public var longitude: Double
        /// A readable place (`"3 km NE of Khimki, Moscow Oblast, RU"`), when known.
        public var place: String?

        public init(timestamp: Int64, latitude: Double, longitude: Double, place: String? = nil) {
            self.timestamp = timestamp
            self.latitude = latitude
            self.longitude = longitude
            self.place = place
        }

        var point: TripPoint { TripPoint(timestamp: timestamp, latitude: latitude, longitude: longitude) }
    }

    public var start: Endpoint
    public var end: Endpoint
    /// Along the track, metres.
    public var distanceMeters: Double
    public var durationSeconds: Double
    public var averageSpeedKmh: Double
    public var maximumSpeedKmh: Double

    public init(
        start: Endpoint, end: Endpoint, distanceMeters: Double, durationSeconds: Double,
        averageSpeedKmh: Double, maximumSpeedKmh: Double
    ) {
        self.start = start
        self.end = end
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.averageSpeedKmh = averageSpeedKmh
        self.maximumSpeedKmh = maximumSpeedKmh
    }

    /// The message for a detected trip, with its start and end named (`nil`: unknown).
    public init(trip: Trip, startPlace: String?, endPlace: String?) {
        self.init(
            start: Endpoint(
                timestamp: trip.start.timestamp, latitude: trip.start.latitude,
                longitude: trip.start.longitude, place: startPlace),
            end: Endpoint(
                timestamp: trip.end.timestamp, latitude: trip.end.latitude, longitude: trip.end.longitude,
                place: endPlace),
            distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds,
            averageSpeedKmh: trip.averageSpeedKmh, maximumSpeedKmh: trip.maximumSpeedKmh)
    }

    /// The JSON text (one line).
    public var json: [UInt8] {
        var writer = JSONWriter(capacity: 320)
        TripJSON.write(
            start: start.point, startPlace: start.place, end: end.point, endPlace: end.place,
            distanceMeters: distanceMeters, durationSeconds: durationSeconds, averageSpeedKmh: averageSpeedKmh,
            maximumSpeedKmh: maximumSpeedKmh, type: "trip", into: &writer)
        return writer.bytes
    }

    /// Writes the trip's members (as ``json`` has them, without `_type`) into an object the caller opened, through
    /// ``TripJSON``.
    public func writeMembers(into json: inout JSONWriter) {
        TripJSON.writeMembers(
            start: start.point, startPlace: start.place, end: end.point, endPlace: end.place,
            distanceMeters: distanceMeters, durationSeconds: durationSeconds, averageSpeedKmh: averageSpeedKmh,
            maximumSpeedKmh: maximumSpeedKmh, into: &json)
    }

    /// Reads a trip message (with or without `_type`).
    /// - Throws: ``TripSummaryError`` naming what is missing.
    public init(json bytes: some Collection<UInt8>) throws(TripSummaryError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw TripSummaryError(reason: error.description)
        }
        guard value.object != nil else { throw TripSummaryError(reason: "not a JSON object") }
        if let type = value["_type"]?.string, type != "trip" {
            throw TripSummaryError(reason: "a \"\(type)\" message, not a trip")
        }
        func endpoint(_ key: String) throws(TripSummaryError) -> Endpoint {
            guard let object = value[key], object.object != nil else {
                throw TripSummaryError(reason: "no \"\(key)\" object")
            }
            guard let text = object["time"]?.string, let timestamp = ISO8601.parse(text) else {
                throw TripSummaryError(reason: "no valid \"\(key)\".\"time\"")
            }
            guard let latitude = object["lat"]?.number, let longitude = object["lon"]?.number else {
                throw TripSummaryError(reason: "no \"\(key)\".\"lat\" and \"lon\"")
            }
            return Endpoint(
                timestamp: timestamp, latitude: latitude, longitude: longitude,
                place: object["place"]?.string)
        }
        start = try endpoint("start")
        end = try endpoint("end")
        func number(_ key: String) throws(TripSummaryError) -> Double {
            guard let value = value[key]?.number else { throw TripSummaryError(reason: "no \"\(key)\"") }
            return value
        }
        distanceMeters = try number("distance_m")
        durationSeconds = try number("duration_s")
        averageSpeedKmh = try number("avg_speed_kmh")
        maximumSpeedKmh = try number("max_speed_kmh")
    }
}

/// A message on a `…/trip` topic that is not a trip.
public struct TripSummaryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
