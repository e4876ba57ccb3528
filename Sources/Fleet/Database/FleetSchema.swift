/// The fleet store's tables in schema `nmea`, created or brought up to date by ``migrate(_:)`` when a collector
/// starts.
///
///     nmea.schema_version (version, applied)            one row per migration applied
///     nmea.positions (vehicle, time, position geography(Point,4326), altitude, speed, course, accuracy,
///                     satellites, received)             PRIMARY KEY (vehicle, time)
///     nmea.trips (vehicle, start_time, end_time, start_position, end_position, start_place, end_place,
///                 distance_m, max_speed, path geography(LineString,4326))   PRIMARY KEY (vehicle, start_time)
///     nmea.vehicles (vehicle, first_seen, last_seen, last_position, last_altitude, last_speed, last_course,
///                    last_accuracy, last_satellites, last_received)      PRIMARY KEY (vehicle)
///     nmea.geofences (name, area geography(Polygon,4326), edge, center, radius_m, margin_m, bounds, created)
///                                                       PRIMARY KEY (name), GiST (area), GiST (bounds)
///     nmea.geofence_events (vehicle, fence, time, kind 'enter'|'exit', position, recorded)
///                                                       PRIMARY KEY (vehicle, fence, time), (time)
///
/// Units are SI: altitude metres above mean sea level, speed and max_speed m/s, course degrees true, accuracy the
/// horizontal error in metres. `received` is when the collector's transaction stored the row.
///
/// The primary key of `positions` is the index for "vehicle V between T1 and T2" (a range scan of it). "The last
/// position of every vehicle" reads `nmea.vehicles` alone: its `last_*` columns are the vehicle's newest stored
/// fix whole (`last_seen` its time), kept by ``PositionStore`` in the transaction that stores the positions. With
/// the TimescaleDB extension installed (or available to install) `positions` becomes a hypertable in one-day
/// chunks; otherwise it is a plain table.
///
/// Migrations are numbered and run in one transaction under an advisory lock, so two collectors starting at once
/// apply each exactly once; running them on an up-to-date schema changes nothing. Version 2 added the last fix's
/// values to `vehicles` and filled them from each vehicle's newest row of `positions`; version 3 the geofences and
/// their events (see ``GeofenceStore``).
public enum FleetSchema {
    /// The version this build creates.
    public static var currentVersion: Int { migrations.last!.version }

    /// What ``migrate(_:)`` did.
    public struct Outcome: Sendable, Hashable {
        /// The version found (0 for a database without the schema).
        public var previousVersion: Int
        public var version: Int
        /// `positions` is a TimescaleDB hypertable.
        public var isHypertable: Bool

        public init(previousVersion: Int, version: Int, isHypertable: Bool) {
            self.previousVersion = previousVersion
            self.version = version
            self.isHypertable = isHypertable
        }
    }

    /// Key of the advisory lock the migrations hold (any constant; "nmea" in ASCII).
    static let lockKey = "1852663137"

    static let migrations: [(version: Int, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE nmea.positions (
                    vehicle text NOT NULL,
                    time timestamptz NOT NULL,
                    position geography(Point, 4326) NOT NULL,
                    altitude real,
                    speed real,
                    course real,
                    accuracy real,
                    satellites smallint,
                    received timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (vehicle, time)
                )
                """,
                """
                CREATE TABLE nmea.trips (
                    vehicle text NOT NULL,
                    start_time timestamptz NOT NULL,
                    end_time timestamptz NOT NULL,
                    start_position geography(Point, 4326) NOT NULL,
                    end_position geography(Point, 4326) NOT NULL,
                    start_place text,
                    end_place text,
                    distance_m double precision NOT NULL,
                    max_speed real NOT NULL,
                    path geography(LineString, 4326),
                    PRIMARY KEY (vehicle, start_time)
                )
                """,
                // Finds the trips a late position falls into (see PositionStore).
                "CREATE INDEX trips_vehicle_end_time ON nmea.trips (vehicle, end_time)",
                """
                CREATE TABLE nmea.vehicles (
                    vehicle text PRIMARY KEY,
                    first_seen timestamptz NOT NULL,
                    last_seen timestamptz NOT NULL,
                    last_position geography(Point, 4326) NOT NULL
                )
                """,
            ]
        ),
        (
            2,
            [
                """
                ALTER TABLE nmea.vehicles ADD COLUMN last_altitude real, ADD COLUMN last_speed real,
                    ADD COLUMN last_course real, ADD COLUMN last_accuracy real, ADD COLUMN last_satellites smallint,
                    ADD COLUMN last_received timestamptz
                """,
                // Each vehicle's newest stored position, one backward probe of the primary key per vehicle; a
                // vehicle without positions left keeps what it had.
                """
                UPDATE nmea.vehicles v
                SET last_seen = p.time, last_position = p.position, last_altitude = p.altitude, last_speed = p.speed,
                    last_course = p.course, last_accuracy = p.accuracy, last_satellites = p.satellites,
                    last_received = p.received
                FROM nmea.vehicles w CROSS JOIN LATERAL (
                    SELECT * FROM nmea.positions p WHERE p.vehicle = w.vehicle ORDER BY p.time DESC LIMIT 1) p
                WHERE v.vehicle = w.vehicle
                """,
            ]
        ),
        (
            3,
            [
                // A circle keeps its centre and radius (exact) and, in `area`, a 64-point outline for the index.
                """
                CREATE TABLE nmea.geofences (
                    name text PRIMARY KEY,
                    area geography(Polygon, 4326) NOT NULL,
                    edge geography NOT NULL,
                    center geography(Point, 4326),
                    radius_m double precision,
                    margin_m double precision NOT NULL DEFAULT 10,
                    bounds geometry(Polygon, 4326) NOT NULL,
                    created timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX geofences_area ON nmea.geofences USING gist (area)",
                // The box a position must fall in to be near the fence: what the evaluation finds candidates by.
                "CREATE INDEX geofences_bounds ON nmea.geofences USING gist (bounds)",
                """
                CREATE TABLE nmea.geofence_events (
                    vehicle text NOT NULL,
                    fence text NOT NULL,
                    time timestamptz NOT NULL,
                    kind text NOT NULL CHECK (kind IN ('enter', 'exit')),
                    position geography(Point, 4326) NOT NULL,
                    recorded timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (vehicle, fence, time)
                )
                """,
                "CREATE INDEX geofence_events_time ON nmea.geofence_events (time)",
            ]
        ),
    ]

    /// Creates the schema or applies the migrations it lacks up to `target` (the current version unless told;
    /// never down), then says whether `positions` is a hypertable.
    /// - Throws: ``DatabaseError``; nothing is changed then (one transaction).
    @discardableResult
    public static func migrate(
        _ database: PostgresConnection, upTo target: Int = currentVersion
    ) throws(DatabaseError) -> Outcome {
        try database.transaction { () throws(DatabaseError) -> Outcome in
            try database.execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
            try database.execute("CREATE SCHEMA IF NOT EXISTS nmea")
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS nmea.schema_version (
                    version integer PRIMARY KEY,
                    applied timestamptz NOT NULL DEFAULT now()
                )
                """)
            let found = try database.execute("SELECT coalesce(max(version), 0) FROM nmea.schema_version")
            let previous = Int(found[0, 0] ?? "0") ?? 0
            if previous < target { try requirePostGIS(database) }
            for migration in migrations where migration.version > previous && migration.version <= target {
                for statement in migration.statements { try database.execute(statement) }
                if migration.version == 1 { try makeHypertableIfPossible(database) }
                try database.execute(
                    "INSERT INTO nmea.schema_version (version) VALUES ($1)",
                    [String(migration.version)])
            }
            return Outcome(
                previousVersion: previous, version: max(previous, min(target, currentVersion)),
                isHypertable: try isHypertable(database))
        }
    }

    /// PostGIS installed in the database, or installed now when this role may (a superuser, or the database's
    /// owner where PostGIS is trusted).
    private static func requirePostGIS(_ database: PostgresConnection) throws(DatabaseError) {
        let installed = try database.execute("SELECT 1 FROM pg_extension WHERE extname = 'postgis'")
        guard installed.rowCount == 0 else { return }
        do {
            try database.execute("SAVEPOINT postgis")
            try database.execute("CREATE EXTENSION postgis")
            try database.execute("RELEASE SAVEPOINT postgis")
        } catch {
            guard !error.isConnectionProblem else { throw error }
            throw DatabaseError(
                message: "PostGIS is not installed in this database and this user may not install it (\(error)): "
                    + "run 'CREATE EXTENSION postgis;' in it as a superuser (Debian: apt install "
                    + "postgresql-15-postgis-3)",
                sqlState: error.sqlState, isConnectionProblem: false)
        }
    }

    /// Turns the new, empty `positions` into a hypertable when TimescaleDB is installed or can be; otherwise
    /// leaves the plain table. (Not covered by the tests here: Debian 12 does not package TimescaleDB.)
    private static func makeHypertableIfPossible(_ database: PostgresConnection) throws(DatabaseError) {
        let available = try database.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb'")
        guard available.rowCount > 0 else { return }
        try database.execute("SAVEPOINT timescaledb")
        do {
            try database.execute("CREATE EXTENSION IF NOT EXISTS timescaledb")
            try database.execute(
                """
                SELECT create_hypertable('nmea.positions', 'time', chunk_time_interval => interval '1 day')
                """)
            try database.execute("RELEASE SAVEPOINT timescaledb")
        } catch {
            guard !error.isConnectionProblem else { throw error }
            // Not preloaded (shared_preload_libraries) or not permitted: a plain table.
            try database.execute("ROLLBACK TO SAVEPOINT timescaledb")
        }
    }

    private static func isHypertable(_ database: PostgresConnection) throws(DatabaseError) -> Bool {
        let installed = try database.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")
        guard installed.rowCount > 0 else { return false }
        let found = try database.execute(
            """
            SELECT 1 FROM timescaledb_information.hypertables
            WHERE hypertable_schema = 'nmea' AND hypertable_name = 'positions'
            """)
        return found.rowCount > 0
    }
}
