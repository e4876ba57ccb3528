/// Writes batches of positions and trips into the fleet schema, each batch in one transaction, so that a batch is
/// stored whole or not at all, and writing the same batch again stores nothing twice.
///
/// Positions go by `COPY` into a temporary staging table, then one statement moves them into `nmea.positions`
/// (`ON CONFLICT DO NOTHING` on vehicle and time, in key order so concurrent collectors lock rows in the same
/// order) and brings `nmea.vehicles` up to date from the rows it actually inserted. Trips are inserted one
/// statement each (`ON CONFLICT DO NOTHING` on vehicle and start time) with their path made from the positions
/// stored between their start and end; positions that arrive after their trip (a second collector was faster with
/// the trip) remake that trip's path.
public final class PositionStore {
    public let database: PostgresConnection

    /// What one ``write(positions:trips:)`` stored.
    public struct Outcome: Sendable, Hashable {
        /// Positions inserted; the others of the batch were stored before.
        public var positions = 0
        public var trips = 0

        public init(positions: Int = 0, trips: Int = 0) {
            self.positions = positions
            self.trips = trips
        }
    }

    /// Prepares the staging table on `database` (whose schema ``FleetSchema/migrate(_:)`` made).
    public init(_ database: PostgresConnection) throws(DatabaseError) {
        self.database = database
        try database.execute("""
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_positions (
                vehicle text, tst bigint, lat double precision, lon double precision, altitude real, speed real,
                course real, accuracy real, satellites smallint
            ) ON COMMIT DELETE ROWS
            """)
    }

    /// Stores `positions` and `trips` in one transaction; deadlocks and serialization failures are tried again
    /// (up to 5 times).
    /// - Throws: ``DatabaseError``; nothing of the batch is stored then.
    @discardableResult
    public func write(positions: [StoredPosition], trips: [StoredTrip]) throws(DatabaseError) -> Outcome {
        guard !positions.isEmpty || !trips.isEmpty else { return Outcome() }
        var attempt = 0
        while true {
            do {
                return try database.transaction { () throws(DatabaseError) -> Outcome in
                    var outcome = Outcome()
                    if !positions.isEmpty { outcome.positions = try insert(positions) }
                    for trip in trips { outcome.trips += try insert(trip) }
                    return outcome
                }
            } catch where error.isRetryable && attempt < 4 {
                attempt += 1
            }
        }
    }

    private func insert(_ positions: [StoredPosition]) throws(DatabaseError) -> Int {
        try database.copy("""
            COPY staged_positions (vehicle, tst, lat, lon, altitude, speed, course, accuracy, satellites) FROM STDIN
            """, data: Self.copyText(positions))
        let result = try database.execute("""
            WITH inserted AS (
                INSERT INTO nmea.positions (vehicle, time, position, altitude, speed, course, accuracy, satellites)
                SELECT vehicle, to_timestamp(tst), ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, altitude,
                       speed, course, accuracy, satellites
                FROM staged_positions ORDER BY vehicle, tst
                ON CONFLICT DO NOTHING
                RETURNING vehicle, time, position
            ), latest AS (
                SELECT DISTINCT ON (vehicle) vehicle, time, position FROM inserted ORDER BY vehicle, time DESC
            ), earliest AS (
                SELECT vehicle, min(time) AS first_seen FROM inserted GROUP BY vehicle
            ), seen AS (
                INSERT INTO nmea.vehicles AS v (vehicle, first_seen, last_seen, last_position)
                SELECT l.vehicle, e.first_seen, l.time, l.position
                FROM latest l JOIN earliest e USING (vehicle) ORDER BY l.vehicle
                ON CONFLICT (vehicle) DO UPDATE SET
                    first_seen = least(v.first_seen, excluded.first_seen),
                    last_seen = greatest(v.last_seen, excluded.last_seen),
                    last_position = CASE WHEN excluded.last_seen >= v.last_seen
                                         THEN excluded.last_position ELSE v.last_position END
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM inserted), (SELECT count(*) FROM seen)
            """)
        // Late positions: trips already stored whose time span covers them get their path made again.
        try database.execute("""
            UPDATE nmea.trips t SET path = (\(Self.pathQuery("t.vehicle", "t.start_time", "t.end_time")))
            FROM (SELECT vehicle, to_timestamp(min(tst)) AS first, to_timestamp(max(tst)) AS last
                  FROM staged_positions GROUP BY vehicle) s
            WHERE t.vehicle = s.vehicle AND t.end_time >= s.first AND t.start_time <= s.last
            """)
        return Int(result[0, 0] ?? "0") ?? 0
    }

    private func insert(_ trip: StoredTrip) throws(DatabaseError) -> Int {
        let summary = trip.summary
        let result = try database.execute("""
            INSERT INTO nmea.trips (vehicle, start_time, end_time, start_position, end_position, start_place,
                                    end_place, distance_m, max_speed, path)
            VALUES ($1, $2::timestamptz, $3::timestamptz,
                    ST_SetSRID(ST_MakePoint($5::float8, $4::float8), 4326)::geography,
                    ST_SetSRID(ST_MakePoint($7::float8, $6::float8), 4326)::geography, $8, $9, $10::float8,
                    $11::real, (\(Self.pathQuery("$1", "$2::timestamptz", "$3::timestamptz"))))
            ON CONFLICT DO NOTHING
            """, [
                trip.vehicle, ISOTime.string(summary.start.timestamp), ISOTime.string(summary.end.timestamp),
                "\(summary.start.latitude)", "\(summary.start.longitude)", "\(summary.end.latitude)",
                "\(summary.end.longitude)", summary.start.place.map(Self.withoutNUL),
                summary.end.place.map(Self.withoutNUL), "\(summary.distanceMeters)",
                "\(summary.maximumSpeedKmh / 3.6)",
            ])
        return result.affectedRows
    }

    /// The line through a vehicle's stored positions from `start` to `end` (SQL expressions), or NULL with fewer
    /// than two.
    private static func pathQuery(_ vehicle: String, _ start: String, _ end: String) -> String {
        """
        SELECT CASE WHEN count(*) >= 2 THEN ST_MakeLine(p.position::geometry ORDER BY p.time)::geography END
        FROM nmea.positions p WHERE p.vehicle = \(vehicle) AND p.time BETWEEN \(start) AND \(end)
        """
    }

    /// PostgreSQL's text cannot hold U+0000.
    private static func withoutNUL(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value != 0 }))
    }

    /// The rows in COPY's text format: tab-separated, `\N` for NULL, backslash escapes in the vehicle name.
    static func copyText(_ positions: [StoredPosition]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(positions.count * 96)
        func field(_ value: (some CustomStringConvertible)?) {
            out.append(UInt8(ascii: "\t"))
            if let value { out += value.description.utf8 } else { out += [UInt8(ascii: "\\"), UInt8(ascii: "N")] }
        }
        for position in positions {
            for byte in position.vehicle.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                default: out.append(byte)
                }
            }
            field(position.timestamp)
            field(position.latitude)
            field(position.longitude)
            field(position.altitudeMeters)
            field(position.speed)
            field(position.courseDegrees)
            field(position.accuracyMeters)
            field(position.satellites)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}
