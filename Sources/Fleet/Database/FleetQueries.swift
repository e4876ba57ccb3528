import NMEA
import Trips

/// The questions people ask the fleet store (`nmea fleet last|trips|track`), each one statement with its values as
/// parameters, answered with the store's own types.
public struct FleetQueries {
    public let database: PostgresConnection

    public init(_ database: PostgresConnection) { self.database = database }

    /// A vehicle's newest position and how old it is.
    public struct LastPosition: Sendable, Hashable {
        public var position: StoredPosition
        /// Seconds between the fix and the database's clock now.
        public var ageSeconds: Double
    }

    /// A stored trip.
    public struct StoredTripRow: Sendable, Hashable {
        public var vehicle: String
        public var summary: TripSummary
        /// The points of its path in order, as stored (empty when none was made).
        public var path: [PathPoint]
    }

    /// A point of a stored trip's path, degrees.
    public struct PathPoint: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The columns ``position(_:_:)`` reads, of the table called `p`.
    private static let positionColumns = """
        p.vehicle, extract(epoch FROM p.time)::bigint, ST_Y(p.position::geometry), ST_X(p.position::geometry), \
        p.altitude, p.speed, p.course, p.accuracy, p.satellites
        """

    /// What ``lastPositions()`` runs: `nmea.vehicles` alone, whose `last_*` columns are each vehicle's newest stored
    /// fix (see ``PositionStore``), in the order of ``position(_:_:)``, then the age.
    public static let lastPositionsQuery = """
        SELECT vehicle, extract(epoch FROM last_seen)::bigint, ST_Y(last_position::geometry),
               ST_X(last_position::geometry), last_altitude, last_speed, last_course, last_accuracy, last_satellites,
               extract(epoch FROM now() - last_seen)::float8
        FROM nmea.vehicles ORDER BY vehicle
        """

    /// The newest position of every vehicle, by name: one row each of `nmea.vehicles`, however many positions.
    public func lastPositions() throws(DatabaseError) -> [LastPosition] {
        let result = try database.execute(Self.lastPositionsQuery)
        return (0..<result.rowCount).map { row in
            LastPosition(position: Self.position(result, row), ageSeconds: result.double(row, 9) ?? 0)
        }
    }

    /// One vehicle's positions from `start` (inclusive) to `end` (exclusive), seconds since 1970, in time order.
    public func track(vehicle: String, from start: Int64, to end: Int64) throws(DatabaseError) -> [StoredPosition] {
        let result = try database.execute(
            """
            SELECT \(Self.positionColumns) FROM nmea.positions p
            WHERE vehicle = $1 AND time >= to_timestamp($2::bigint) AND time < to_timestamp($3::bigint)
            ORDER BY time
            """, [vehicle, String(start), String(end)])
        return (0..<result.rowCount).map { Self.position(result, $0) }
    }

    /// The trips of `vehicle` (every vehicle when `nil`) that end at or after `since` and start before `until`
    /// (nanoseconds since 1970; `nil` for no limit), by vehicle and start time.
    public func trips(vehicle: String?, since: Int64?, until: Int64?) throws(DatabaseError) -> [StoredTripRow] {
        let result = try database.execute(
            """
            SELECT vehicle, extract(epoch FROM start_time)::float8, extract(epoch FROM end_time)::float8,
                   ST_Y(start_position::geometry), ST_X(start_position::geometry), ST_Y(end_position::geometry),
                   ST_X(end_position::geometry), start_place, end_place, distance_m, max_speed,
                   (SELECT string_agg(ST_X(d.geom)::text || ' ' || ST_Y(d.geom)::text, ',' ORDER BY d.path)
                    FROM ST_DumpPoints(path::geometry) d)
            FROM nmea.trips
            WHERE ($1::text IS NULL OR vehicle = $1) AND ($2::timestamptz IS NULL OR end_time >= $2::timestamptz)
              AND ($3::timestamptz IS NULL OR start_time < $3::timestamptz)
            ORDER BY vehicle, start_time
            """, [vehicle, since.map { ISO8601.string($0) }, until.map { ISO8601.string($0) }])
        return (0..<result.rowCount).map { row in
            func nanoseconds(_ column: Int) -> Int64 {
                Int64(((result.double(row, column) ?? 0) * 1000).rounded()) * 1_000_000
            }
            let start = nanoseconds(1)
            let end = nanoseconds(2)
            let distance = result.double(row, 9) ?? 0
            let duration = Double(end - start) / 1e9
            let summary = TripSummary(
                start: .init(
                    timestamp: start, latitude: result.double(row, 3) ?? 0,
                    longitude: result.double(row, 4) ?? 0, place: result[row, 7]),
                end: .init(
                    timestamp: end, latitude: result.double(row, 5) ?? 0, longitude: result.double(row, 6) ?? 0,
                    place: result[row, 8]),
                distanceMeters: distance, durationSeconds: duration,
                averageSpeedKmh: Trip.averageSpeed(distanceMeters: distance, durationSeconds: duration) * 3.6,
                maximumSpeedKmh: (result.double(row, 10) ?? 0) * 3.6)
            return StoredTripRow(vehicle: result[row, 0] ?? "", summary: summary, path: Self.path(result[row, 11]))
        }
    }

    /// `lon lat,lon lat,…` (PostgreSQL's float8 text, the shortest that reads back exactly) as points.
    private static func path(_ text: String?) -> [PathPoint] {
        guard let text else { return [] }
        return text.split(separator: ",").compactMap { pair in
            let numbers = pair.split(separator: " ")
            guard numbers.count == 2, let longitude = Double(numbers[0]), let latitude = Double(numbers[1]) else {
                return nil
            }
            return PathPoint(latitude: latitude, longitude: longitude)
        }
    }

    private static func position(_ result: PostgresResult, _ row: Int) -> StoredPosition {
        StoredPosition(
            vehicle: result[row, 0] ?? "", timestamp: Int64(result[row, 1] ?? "") ?? 0,
            latitude: result.double(row, 2) ?? 0, longitude: result.double(row, 3) ?? 0,
            altitudeMeters: result.double(row, 4), speed: result.double(row, 5), courseDegrees: result.double(row, 6),
            accuracyMeters: result.double(row, 7), satellites: result[row, 8].flatMap { Int($0) })
    }
}
