import NMEA

/// Writes batches of positions and trips into the fleet schema, each batch in one transaction, so that a batch is
/// stored whole or not at all, and writing the same batch again stores nothing twice.
///
/// Positions go by binary `COPY` into a temporary staging table, then one statement moves them into
/// `nmea.positions` (`ON CONFLICT DO NOTHING` on vehicle and time, in key order so concurrent collectors lock rows
/// in the same order); `nmea.vehicles` is brought up to date from each vehicle's first and last fix in the batch:
/// the earliest first time, and the last fix whole from the batch only when it is newer than the one stored (so a
/// batch stored twice changes nothing, and a late, older batch leaves the last fix alone). Trips are inserted one
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
        /// Geofence events the new positions made (see ``GeofenceStore/evaluate()``).
        public var events: [FenceEvent] = []

        public init(positions: Int = 0, trips: Int = 0, events: [FenceEvent] = []) {
            self.positions = positions
            self.trips = trips
            self.events = events
        }
    }

    /// Prepares the staging tables on `database` (whose schema ``FleetSchema/migrate(_:)`` made).
    public init(_ database: PostgresConnection) throws(DatabaseError) {
        self.database = database
        // Short statements on small batches: JIT compilation (PostgreSQL 11+, on by default where LLVM is
        // installed) only adds its hundreds of milliseconds when the planner's estimate for the geofence query is
        // high (its staging tables have no statistics).
        try database.execute("SET jit = off")
        try database.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_positions (
                vehicle text, tst bigint, lat double precision, lon double precision, altitude real, speed real,
                course real, accuracy real, satellites smallint
            ) ON COMMIT DELETE ROWS
            """)
        try database.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_vehicles (
                first_tst bigint, vehicle text, last_tst bigint, lat double precision, lon double precision,
                altitude real, speed real, course real, accuracy real, satellites smallint
            ) ON COMMIT DELETE ROWS
            """)
        try database.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_touched (
                vehicle text, first_time timestamptz, inserted bigint
            ) ON COMMIT DELETE ROWS
            """)
    }

    /// Stores `positions` and `trips` in one transaction; deadlocks and serialization failures are tried again
    /// (up to 5 times).
    /// - Throws: ``DatabaseError``; nothing of the batch is stored then.
    @discardableResult
    public func write(positions: [StoredPosition], trips: [StoredTrip]) throws(DatabaseError) -> Outcome {
        guard !positions.isEmpty || !trips.isEmpty else { return Outcome() }
        let rows = positions.isEmpty ? [] : Self.copyRows(positions)
        let vehicles = positions.isEmpty ? [] : Self.copyRows(VehicleSpan.spans(of: positions))
        var attempt = 0
        while true {
            do {
                return try database.transaction { () throws(DatabaseError) -> Outcome in
                    var outcome = Outcome()
                    if !positions.isEmpty {
                        outcome.positions = try insertPositions(rows, vehicles)
                        let fences = GeofenceStore(database)
                        if outcome.positions > 0, try fences.hasFences() { outcome.events = try fences.evaluate() }
                    }
                    for trip in trips { outcome.trips += try insert(trip) }
                    return outcome
                }
            } catch  where error.isRetryable && attempt < 4 {
                attempt += 1
            }
        }
    }

    /// Moves the staged positions in (in key order, so that concurrent collectors lock rows in the same order),
    /// brings `vehicles` up to date from each vehicle's span in the batch (a batch stored again changes nothing
    /// there either), and remakes the path of stored trips that the new positions fall into.
    private func insertPositions(_ rows: [UInt8], _ vehicles: [UInt8]) throws(DatabaseError) -> Int {
        try database.copy(
            """
            COPY staged_positions (vehicle, tst, lat, lon, altitude, speed, course, accuracy, satellites)
            FROM STDIN (FORMAT binary)
            """, data: rows)
        try database.copy(
            """
            COPY staged_vehicles (first_tst, vehicle, last_tst, lat, lon, altitude, speed, course, accuracy,
                                  satellites) FROM STDIN (FORMAT binary)
            """, data: vehicles)
        // Each vehicle's earliest new position (and how many), for the geofences.
        let inserted =
            try database.execute(
                """
                WITH inserted AS (
                    INSERT INTO nmea.positions (vehicle, time, position, altitude, speed, course, accuracy, satellites)
                    SELECT vehicle, to_timestamp(tst), ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, altitude,
                           speed, course, accuracy, satellites
                    FROM staged_positions ORDER BY vehicle, tst
                    ON CONFLICT DO NOTHING
                    RETURNING vehicle, time
                ), touched AS (
                    INSERT INTO staged_touched SELECT vehicle, min(time), count(*) FROM inserted GROUP BY vehicle
                    RETURNING inserted
                )
                SELECT coalesce(sum(inserted), 0)::bigint FROM touched
                """
            )[0, 0].flatMap { Int($0) } ?? 0
        try database.execute(Self.upsertVehicles)
        // Late positions: trips already stored whose time span covers them get their path made again.
        try database.execute(
            """
            UPDATE nmea.trips t SET path = (\(Self.pathQuery("t.vehicle", "t.start_time", "t.end_time")))
            FROM staged_vehicles s
            WHERE t.vehicle = s.vehicle AND t.end_time >= to_timestamp(s.first_tst)
              AND t.start_time <= to_timestamp(s.last_tst)
            """)
        return inserted
    }

    /// Each staged vehicle into `nmea.vehicles`, in key order: the earliest first time, and the last fix's columns
    /// together from the batch when its last fix is newer than the stored one (at the same time the stored one
    /// stays, as the stored row of `positions` does). `last_received` is the commit's time, as in `positions`.
    private static let upsertVehicles: String = {
        let lastFix = [
            "last_seen", "last_position", "last_altitude", "last_speed", "last_course", "last_accuracy",
            "last_satellites", "last_received",
        ]
        let newer = lastFix.map { column in
            "\(column) = CASE WHEN excluded.last_seen > v.last_seen THEN excluded.\(column) ELSE v.\(column) END"
        }
        return """
            INSERT INTO nmea.vehicles AS v (vehicle, first_seen, \(lastFix.joined(separator: ", ")))
            SELECT vehicle, to_timestamp(first_tst), to_timestamp(last_tst),
                   ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, altitude, speed, course, accuracy,
                   satellites, now()
            FROM staged_vehicles ORDER BY vehicle
            ON CONFLICT (vehicle) DO UPDATE SET first_seen = least(v.first_seen, excluded.first_seen),
                \(newer.joined(separator: ",\n    "))
            """
    }()

    private func insert(_ trip: StoredTrip) throws(DatabaseError) -> Int {
        let summary = trip.summary
        let result = try database.execute(
            """
            INSERT INTO nmea.trips (vehicle, start_time, end_time, start_position, end_position, start_place,
                                    end_place, distance_m, max_speed, path)
            VALUES ($1, $2::timestamptz, $3::timestamptz,
                    ST_SetSRID(ST_MakePoint($5::float8, $4::float8), 4326)::geography,
                    ST_SetSRID(ST_MakePoint($7::float8, $6::float8), 4326)::geography, $8, $9, $10::float8,
                    $11::real, (\(Self.pathQuery("$1", "$2::timestamptz", "$3::timestamptz"))))
            ON CONFLICT DO NOTHING
            """,
            [
                trip.vehicle, ISO8601.string(summary.start.timestamp), ISO8601.string(summary.end.timestamp),
                DecimalFormatter.string(summary.start.latitude), DecimalFormatter.string(summary.start.longitude),
                DecimalFormatter.string(summary.end.latitude), DecimalFormatter.string(summary.end.longitude),
                summary.start.place.map(Self.withoutNUL), summary.end.place.map(Self.withoutNUL),
                DecimalFormatter.string(summary.distanceMeters), DecimalFormatter.string(summary.maximumSpeedKmh / 3.6),
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

    /// The rows in COPY's binary format (PostgreSQL's "Binary Format" of COPY: a signature, then per row the field
    /// count and each field's length and big-endian value, -1 for NULL; -1 at the end): exact values, no text to
    /// parse on either side.
    static func copyRows<Row: BinaryCopyRow>(_ rows: [Row]) -> [UInt8] {
        var out = BinaryCopy(capacity: 19 + rows.count * 80)
        for row in rows { row.append(to: &out) }
        return out.finished()
    }
}

/// A row ``PositionStore`` sends with `COPY … (FORMAT binary)`.
protocol BinaryCopyRow {
    func append(to copy: inout BinaryCopy)
}

extension StoredPosition: BinaryCopyRow {
    func append(to copy: inout BinaryCopy) {
        copy.beginRow(fields: 9)
        appendFields(to: &copy)
    }

    /// Its 9 fields: vehicle, time, latitude, longitude, altitude, speed, course, accuracy, satellites.
    func appendFields(to copy: inout BinaryCopy) {
        copy.text(vehicle)
        copy.int64(timestamp)
        copy.float64(latitude)
        copy.float64(longitude)
        copy.float32(altitudeMeters)
        copy.float32(speed)
        copy.float32(courseDegrees)
        copy.float32(accuracyMeters)
        copy.int16(satellites.map { Int16(clamping: $0) })
    }
}

/// One vehicle's first fix time in a batch and its last fix whole.
struct VehicleSpan: BinaryCopyRow {
    var first: Int64
    var last: StoredPosition

    /// One span per vehicle of `positions`, by name; of fixes at the same time, the later in `positions` is last.
    static func spans(of positions: [StoredPosition]) -> [VehicleSpan] {
        var spans: [String: VehicleSpan] = [:]
        for position in positions {
            spans[position.vehicle, default: VehicleSpan(first: position.timestamp, last: position)].include(position)
        }
        return spans.values.sorted { $0.last.vehicle < $1.last.vehicle }
    }

    mutating func include(_ position: StoredPosition) {
        first = min(first, position.timestamp)
        if position.timestamp >= last.timestamp { last = position }
    }

    /// The first time, then the last fix's 9 fields.
    func append(to copy: inout BinaryCopy) {
        copy.beginRow(fields: 10)
        copy.int64(first)
        last.appendFields(to: &copy)
    }
}

/// Builds the data of a binary COPY.
struct BinaryCopy {
    private var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes += Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        appendBigEndian(Int32(0))  // flags
        appendBigEndian(Int32(0))  // header extension length
    }

    mutating func beginRow(fields: Int16) { appendBigEndian(fields) }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            appendBigEndian(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func int64(_ value: Int64) {
        appendBigEndian(Int32(8))
        appendBigEndian(value)
    }

    mutating func int16(_ value: Int16?) {
        guard let value else { return appendBigEndian(Int32(-1)) }
        appendBigEndian(Int32(2))
        appendBigEndian(value)
    }

    mutating func float64(_ value: Double) {
        appendBigEndian(Int32(8))
        appendBigEndian(value.bitPattern)
    }

    mutating func float32(_ value: Double?) {
        guard let value else { return appendBigEndian(Int32(-1)) }
        appendBigEndian(Int32(4))
        appendBigEndian(Float(value).bitPattern)
    }

    /// The data with its trailer.
    mutating func finished() -> [UInt8] {
        appendBigEndian(Int16(-1))
        return bytes
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
