import JSON
import NMEA
import Trips

/// One vehicle's day (`nmea fleet report`): its stored positions from 00:00 to 24:00 UTC run through the one trip
/// rule (``TripLog``, as `nmea trips` runs a track), so that the figures are those `nmea trips` prints for the
/// day's track (`nmea fleet track --day`): a trip across midnight counts in each day for its part of it.
public struct FleetDayReport: Sendable, Hashable {
    public var vehicle: String
    /// The UTC day, days since 1970.
    public var day: Int64
    /// What the trip rule found.
    public var summary: TripLog.Summary
    /// The fastest speed of the day's trips, m/s (0 without trips).
    public var maximumSpeed: Double
    public var first: StoredPosition
    public var last: StoredPosition
    /// Positions of the day.
    public var positions: Int
    /// Geofence events of the day.
    public var events: Int

    /// The day of `positions` (in time order, all of one vehicle and day; at least one).
    public init(
        vehicle: String, day: Int64, positions: [StoredPosition], events: Int, rule: TripDetector.Options
    ) {
        var log = TripLog(options: rule)
        for position in positions { log.add(position.fix) }
        log.finish()
        self.vehicle = vehicle
        self.day = day
        summary = log.summary
        maximumSpeed = log.trips.map(\.maximumSpeed).max() ?? 0
        first = positions[0]
        last = positions[positions.count - 1]
        self.positions = positions.count
        self.events = events
    }

    /// The reports of every vehicle with positions in the UTC days from `firstDay` to `lastDay` (days since 1970),
    /// by vehicle (all of them when `vehicle` is `nil`), then day.
    public static func load(
        _ queries: FleetQueries, vehicle: String?, firstDay: Int64, lastDay: Int64, rule: TripDetector.Options
    ) throws(DatabaseError) -> [FleetDayReport] {
        let start = firstDay * 86_400
        let end = (lastDay + 1) * 86_400
        let vehicles: [String]
        if let vehicle {
            vehicles = [vehicle]
        } else {
            let result = try queries.database.execute(
                """
                SELECT vehicle FROM nmea.vehicles
                WHERE last_seen >= to_timestamp($1::bigint) AND first_seen < to_timestamp($2::bigint)
                ORDER BY vehicle
                """, [String(start), String(end)])
            vehicles = (0..<result.rowCount).compactMap { result[$0, 0] }
        }
        let fences = GeofenceStore(queries.database)
        let hasEvents =
            try queries.database.execute("SELECT to_regclass('nmea.geofence_events') IS NOT NULL")[0, 0] == "t"
        var reports: [FleetDayReport] = []
        for name in vehicles {
            let positions = try queries.track(vehicle: name, from: start, to: end)
            let events = hasEvents ? try fences.events(vehicle: name, since: start, until: end) : []
            var index = 0
            while index < positions.count {
                let day = positions[index].timestamp.flooredDivision(by: 86_400).quotient
                var next = index
                while next < positions.count && positions[next].timestamp.flooredDivision(by: 86_400).quotient == day {
                    next += 1
                }
                let count = events.count { $0.timestamp.flooredDivision(by: 86_400).quotient == day }
                reports.append(
                    FleetDayReport(
                        vehicle: name, day: day, positions: Array(positions[index..<next]), events: count,
                        rule: rule))
                index = next
            }
        }
        return reports
    }

    /// `{"days":[{"vehicle":…,"day":"2026-11-30","distance_m":…,"driving_s":…,"trips":…,"stops":…,
    /// "max_speed_kmh":…,"first":{"time":…,"lat":…,"lon":…,"place":…},"last":{…},"positions":…,"events":…}]}`.
    public static func json(_ reports: [FleetDayReport], place: (StoredPosition) -> String?) -> [UInt8] {
        var json = JSONWriter(capacity: 1 << 14)
        json.beginObject()
        json.key("days")
        json.beginArray()
        for report in reports {
            json.beginObject()
            json.field("vehicle", report.vehicle)
            json.field("day", report.dayText)
            json.field("distance_m", report.summary.distanceMeters, decimals: 1)
            json.field("driving_s", report.summary.durationSeconds, decimals: 0)
            json.field("trips", report.summary.trips)
            json.field("stops", report.summary.stops)
            json.field("max_speed_kmh", report.maximumSpeed * 3.6, decimals: 1)
            for (name, position) in [("first", report.first), ("last", report.last)] {
                json.key(name)
                json.beginObject()
                json.key("time")
                json.asciiString { ISO8601.write(nanosecondsSinceEpoch: position.timestamp * 1_000_000_000, to: $0) }
                json.field("lat", position.latitude)
                json.field("lon", position.longitude)
                json.key("place")
                if let place = place(position) { json.string(place) } else { json.null() }
                json.endObject()
            }
            json.field("positions", report.positions)
            json.field("events", report.events)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// `2026-11-30`.
    public var dayText: String {
        UTCDate(daysSinceEpoch: Int(day)).description
    }
}
