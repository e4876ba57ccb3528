import Fleet
import NMEA
import TestSupport
import Testing

/// The store against a real PostgreSQL 15 with PostGIS, started by each test in its own directory and port.
@Suite(.enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason))
struct DatabaseTests {
    @Test func theSchemaIsCreatedOnceAndIsWhatPsqlDescribes() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        let first = try FleetSchema.migrate(database)
        #expect(first == FleetSchema.Outcome(previousVersion: 0, version: 3, isHypertable: false))
        let again = try FleetSchema.migrate(database)
        #expect(again == FleetSchema.Outcome(previousVersion: 3, version: 3, isHypertable: false))
        #expect(try fleet.query("SELECT version FROM nmea.schema_version ORDER BY version") == ["1", "2", "3"])
        #expect(
            try fleet.query(
                """
                SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
                WHERE table_schema = 'nmea' AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position
                """) == [
                    "geofence_events|vehicle|text|NO", "geofence_events|fence|text|NO",
                    "geofence_events|time|timestamp with time zone|NO", "geofence_events|kind|text|NO",
                    "geofence_events|position|USER-DEFINED|NO",
                    "geofence_events|recorded|timestamp with time zone|NO",
                    "geofences|name|text|NO", "geofences|area|USER-DEFINED|NO", "geofences|edge|USER-DEFINED|NO",
                    "geofences|center|USER-DEFINED|YES", "geofences|radius_m|double precision|YES",
                    "geofences|margin_m|double precision|NO", "geofences|bounds|USER-DEFINED|NO",
                    "geofences|created|timestamp with time zone|NO",
                    "positions|vehicle|text|NO", "positions|time|timestamp with time zone|NO",
                    "positions|position|USER-DEFINED|NO", "positions|altitude|real|YES", "positions|speed|real|YES",
                    "positions|course|real|YES", "positions|accuracy|real|YES", "positions|satellites|smallint|YES",
                    "positions|received|timestamp with time zone|NO",
                    "trips|vehicle|text|NO", "trips|start_time|timestamp with time zone|NO",
                    "trips|end_time|timestamp with time zone|NO", "trips|start_position|USER-DEFINED|NO",
                    "trips|end_position|USER-DEFINED|NO", "trips|start_place|text|YES", "trips|end_place|text|YES",
                    "trips|distance_m|double precision|NO", "trips|max_speed|real|NO", "trips|path|USER-DEFINED|YES",
                    "vehicles|vehicle|text|NO", "vehicles|first_seen|timestamp with time zone|NO",
                    "vehicles|last_seen|timestamp with time zone|NO", "vehicles|last_position|USER-DEFINED|NO",
                    "vehicles|last_altitude|real|YES", "vehicles|last_speed|real|YES", "vehicles|last_course|real|YES",
                    "vehicles|last_accuracy|real|YES", "vehicles|last_satellites|smallint|YES",
                    "vehicles|last_received|timestamp with time zone|YES",
                ])
        #expect(
            try fleet.query(
                """
                SELECT f_table_name, f_geography_column, type, srid FROM geography_columns
                WHERE f_table_schema = 'nmea' ORDER BY 1, 2
                """) == [
                    "geofence_events|position|Point|4326", "geofences|area|Polygon|4326",
                    "geofences|center|Point|4326", "geofences|edge|Geometry|0",
                    "positions|position|Point|4326", "trips|end_position|Point|4326", "trips|path|LineString|4326",
                    "trips|start_position|Point|4326", "vehicles|last_position|Point|4326",
                ])
        #expect(
            try fleet.query(
                """
                SELECT conrelid::regclass, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE connamespace = 'nmea'::regnamespace AND contype = 'p' ORDER BY conrelid::regclass::text
                """) == [
                    "nmea.geofence_events|PRIMARY KEY (vehicle, fence, \"time\")",
                    "nmea.geofences|PRIMARY KEY (name)", "nmea.positions|PRIMARY KEY (vehicle, \"time\")",
                    "nmea.schema_version|PRIMARY KEY (version)",
                    "nmea.trips|PRIMARY KEY (vehicle, start_time)", "nmea.vehicles|PRIMARY KEY (vehicle)",
                ])
    }

    @Test func aBatchIsStoredOnceWithItsExactValuesWhateverTheVehicleIsCalled() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let store = try PositionStore(database)
        let evil = "x'); DROP TABLE nmea.positions; --"
        let positions =
            (0..<3).map { n in
                StoredPosition(
                    vehicle: "acme/van7", timestamp: Support.start + Int64(n),
                    latitude: 48.1374 + Double(n) * 0.0001, longitude: 11.5755 + Double(n) * 0.0001,
                    altitudeMeters: 520, speed: 12.5, courseDegrees: 45, accuracyMeters: 4, satellites: 9)
            } + [
                StoredPosition(vehicle: evil, timestamp: Support.start, latitude: -33.8688197, longitude: -151.20929),
                StoredPosition(vehicle: #"back\slash"#, timestamp: Support.start + 9, latitude: 0, longitude: 0),
            ]
        let trip = try StoredTrip(
            vehicle: "acme/van7",
            summary: TripSummary(
                start: .init(
                    timestamp: Support.start * 1_000_000_000, latitude: 48.1374, longitude: 11.5755,
                    place: "Munich, Bavaria, DE"),
                end: .init(
                    timestamp: (Support.start + 2) * 1_000_000_000 + 250_000_000, latitude: 48.1376,
                    longitude: 11.5757, place: "O'Brien's \"yard\""),
                distanceMeters: 27.5, durationSeconds: 2.25, averageSpeedKmh: 44, maximumSpeedKmh: 90))
        #expect(try store.write(positions: positions, trips: [trip]) == PositionStore.Outcome(positions: 5, trips: 1))
        // The same batch again (a redelivery): nothing new.
        #expect(try store.write(positions: positions, trips: [trip]) == PositionStore.Outcome(positions: 0, trips: 0))
        #expect(
            try fleet.query(
                """
                SELECT vehicle, extract(epoch FROM time)::bigint, ST_Y(position::geometry), ST_X(position::geometry),
                       altitude, speed, course, accuracy, satellites, received <= now()
                FROM nmea.positions ORDER BY vehicle, time
                """) == [
                    "acme/van7|1796025600|48.1374|11.5755|520|12.5|45|4|9|t",
                    "acme/van7|1796025601|48.1375|11.5756|520|12.5|45|4|9|t",
                    "acme/van7|1796025602|48.1376|11.5757|520|12.5|45|4|9|t",
                    #"back\slash|1796025609|0|0||||||t"#,
                    "x'); DROP TABLE nmea.positions; --|1796025600|-33.8688197|-151.20929||||||t",
                ])
        #expect(
            try fleet.query(
                """
                SELECT vehicle, extract(epoch FROM first_seen)::bigint, extract(epoch FROM last_seen)::bigint,
                       ST_AsText(last_position) FROM nmea.vehicles ORDER BY vehicle
                """) == [
                    "acme/van7|1796025600|1796025602|POINT(11.5757 48.1376)",
                    #"back\slash|1796025609|1796025609|POINT(0 0)"#,
                    "x'); DROP TABLE nmea.positions; --|1796025600|1796025600|POINT(-151.20929 -33.8688197)",
                ])
        #expect(
            try fleet.query(
                """
                SELECT vehicle, extract(epoch FROM start_time), extract(epoch FROM end_time), ST_AsText(start_position),
                       ST_AsText(end_position), start_place, end_place, distance_m, max_speed, ST_AsText(path)
                FROM nmea.trips
                """) == [
                    "acme/van7|1796025600.000000|1796025602.250000|POINT(11.5755 48.1374)|POINT(11.5757 48.1376)|"
                        + #"Munich, Bavaria, DE|O'Brien's "yard"|27.5|25|"#
                        + "LINESTRING(11.5755 48.1374,11.5756 48.1375,11.5757 48.1376)"
                ])
    }

    /// Every column of `nmea.vehicles`, by vehicle.
    static let vehicleRows = """
        SELECT vehicle, extract(epoch FROM first_seen)::bigint, extract(epoch FROM last_seen)::bigint,
               ST_AsText(last_position), last_altitude, last_speed, last_course, last_accuracy, last_satellites,
               extract(epoch FROM last_received)::bigint
        FROM nmea.vehicles ORDER BY vehicle
        """

    @Test func migrationTwoFillsTheLastFixOfExistingVehiclesFromTheirPositions() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        let old = try FleetSchema.migrate(database, upTo: 1)
        #expect(old == FleetSchema.Outcome(previousVersion: 0, version: 1, isHypertable: false))
        // What version 1 left: positions, and vehicles with their times and last position only (acme/gone's
        // positions were deleted since).
        try database.execute(
            """
            INSERT INTO nmea.positions (vehicle, time, position, altitude, speed, course, accuracy, satellites,
                                        received)
            VALUES ('acme/van7', to_timestamp(1796025600), 'SRID=4326;POINT(11.5755 48.1374)', 520, 12.5, 45, 4, 9,
                    to_timestamp(1796025700)),
                   ('acme/van7', to_timestamp(1796025660), 'SRID=4326;POINT(11.5855 48.1474)', 530, 13.25, 90, 3, 11,
                    to_timestamp(1796025800)),
                   ('acme/van7', to_timestamp(1796025630), 'SRID=4326;POINT(11.5 48.1)', 510, 1, 2, 3, 4,
                    to_timestamp(1796025999)),
                   ('acme/van8', to_timestamp(1796025630), 'SRID=4326;POINT(151.20929 -33.8688197)', NULL, NULL,
                    NULL, NULL, NULL, to_timestamp(1796025900))
            """)
        try database.execute(
            """
            INSERT INTO nmea.vehicles (vehicle, first_seen, last_seen, last_position)
            VALUES ('acme/gone', to_timestamp(1700000000), to_timestamp(1700000060), 'SRID=4326;POINT(1 2)'),
                   ('acme/van7', to_timestamp(1796025600), to_timestamp(1796025660),
                    'SRID=4326;POINT(11.5855 48.1474)'),
                   ('acme/van8', to_timestamp(1796025630), to_timestamp(1796025630),
                    'SRID=4326;POINT(151.20929 -33.8688197)')
            """)
        let migrated = try FleetSchema.migrate(database, upTo: 2)
        #expect(migrated == FleetSchema.Outcome(previousVersion: 1, version: 2, isHypertable: false))
        let expected = [
            "acme/gone|1700000000|1700000060|POINT(1 2)||||||",
            "acme/van7|1796025600|1796025660|POINT(11.5855 48.1474)|530|13.25|90|3|11|1796025800",
            "acme/van8|1796025630|1796025630|POINT(151.20929 -33.8688197)||||||1796025900",
        ]
        #expect(try fleet.query(Self.vehicleRows) == expected)
        #expect(
            try FleetQueries(database).lastPositions().map(\.position) == [
                StoredPosition(vehicle: "acme/gone", timestamp: 1_700_000_060, latitude: 2, longitude: 1),
                StoredPosition(
                    vehicle: "acme/van7", timestamp: 1_796_025_660, latitude: 48.1474, longitude: 11.5855,
                    altitudeMeters: 530, speed: 13.25, courseDegrees: 90, accuracyMeters: 3, satellites: 11),
                StoredPosition(
                    vehicle: "acme/van8", timestamp: 1_796_025_630, latitude: -33.8688197, longitude: 151.20929),
            ])
        // Once only: again, nothing happens.
        #expect(
            try FleetSchema.migrate(database, upTo: 2)
                == FleetSchema.Outcome(previousVersion: 2, version: 2, isHypertable: false))
        #expect(try fleet.query(Self.vehicleRows) == expected)
    }

    @Test func anOlderBatchAfterANewerOneLeavesTheLastFixAlone() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let store = try PositionStore(database)
        func fix(_ second: Int64, _ n: Double, satellites: Int? = nil) -> StoredPosition {
            StoredPosition(
                vehicle: "acme/van7", timestamp: Support.start + second, latitude: 48 + n / 100,
                longitude: 11 + n / 100,
                altitudeMeters: 500 + n, speed: n, courseDegrees: n * 10, accuracyMeters: n / 2, satellites: satellites)
        }
        let newest = fix(120, 4, satellites: 12)
        #expect(try store.write(positions: [fix(60, 3), newest], trips: []).positions == 2)
        // The stored last fix is the stored row of its time, received included.
        let stored = """
            SELECT v.last_received = p.received FROM nmea.vehicles v
            JOIN nmea.positions p ON p.vehicle = v.vehicle AND p.time = v.last_seen
            """
        #expect(try fleet.query(stored) == ["t"])
        let before = try fleet.query(Self.vehicleRows)
        #expect(
            before.map { $0.split(separator: "|").dropLast().joined(separator: "|") } == [
                "acme/van7|1796025660|1796025720|POINT(11.04 48.04)|504|4|40|2|12"
            ])
        // A late, older batch (a collector that was away, a phone that was offline), twice: its positions are
        // stored, first_seen goes back, the last fix stays.
        let older = [fix(0, 1, satellites: 5), fix(30, 2, satellites: 6)]
        #expect(try store.write(positions: older, trips: []).positions == 2)
        #expect(try store.write(positions: older, trips: []).positions == 0)
        let after = try fleet.query(Self.vehicleRows)
        #expect(after == ["acme/van7|1796025600|" + before[0].dropFirst("acme/van7|1796025660|".count)])
        // A fix at the same time as the last one is not stored again, and does not replace it either.
        #expect(try store.write(positions: [fix(120, 9)], trips: []).positions == 0)
        #expect(try fleet.query(Self.vehicleRows) == after)
        #expect(try FleetQueries(database).lastPositions().map(\.position) == [newest])
        // A newer one does.
        let newer = fix(180, 5)
        #expect(try store.write(positions: [fix(150, 6), newer], trips: []).positions == 2)
        #expect(try FleetQueries(database).lastPositions().map(\.position) == [newer])
        #expect(try fleet.query(stored) == ["t"])
    }

    @Test func positionsThatArriveAfterTheirTripMakeItsPath() throws {
        let fleet = try FleetDatabase()
        let database = try fleet.connect()
        try FleetSchema.migrate(database)
        let store = try PositionStore(database)
        let trip = try StoredTrip(
            vehicle: "acme/van8",
            summary: TripSummary(
                start: .init(timestamp: Support.start * 1_000_000_000, latitude: 1, longitude: 2),
                end: .init(timestamp: (Support.start + 60) * 1_000_000_000, latitude: 1.01, longitude: 2.01),
                distanceMeters: 1570, durationSeconds: 60, averageSpeedKmh: 94, maximumSpeedKmh: 100))
        try store.write(positions: [], trips: [trip])
        #expect(try fleet.query("SELECT path IS NULL, start_place IS NULL FROM nmea.trips") == ["t|t"])
        let late = [0, 30, 60, 61].map { second in
            StoredPosition(
                vehicle: "acme/van8", timestamp: Support.start + Int64(second),
                latitude: 1 + Double(second) / 6000, longitude: 2 + Double(second) / 6000)
        }
        #expect(try store.write(positions: late, trips: []).positions == 4)
        #expect(try fleet.query("SELECT ST_AsText(path) FROM nmea.trips") == ["LINESTRING(2 1,2.005 1.005,2.01 1.01)"])
    }

    @Test func aDatabaseWithoutPostGISSaysWhatToDo() throws {
        let fleet = try FleetDatabase()
        try fleet.server.createDatabase("bare", owner: "fleet", postGIS: false)
        let database = try PostgresConnection(
            "host=127.0.0.1 port=\(fleet.server.port) user=fleet dbname=bare password=\(fleet.password)")
        let error = #expect(throws: DatabaseError.self) { try FleetSchema.migrate(database) }
        let message = error?.message ?? ""
        #expect(message.hasPrefix("PostGIS is not installed in this database and this user may not install it ("))
        #expect(
            message.hasSuffix(
                "run 'CREATE EXTENSION postgis;' in it as a superuser (Debian: apt install "
                    + "postgresql-15-postgis-3)"), "\(message)")
        #expect(
            try fleet.server.query("SELECT count(*) FROM pg_namespace WHERE nspname = 'nmea'", database: "bare")
                == ["0"])
    }

    @Test func passwordsInTheDatabaseURLAreRefused() {
        #expect(
            PostgresConnection.passwordProblem("postgresql://fleet:secret@db.example/fleet")?.hasPrefix(
                "the database URL holds a password") == true)
        #expect(PostgresConnection.passwordProblem("host=db user=fleet password=secret") != nil)
        #expect(PostgresConnection.passwordProblem("postgresql://fleet@db.example:5433/fleet?sslmode=require") == nil)
        #expect(PostgresConnection.passwordProblem("postgresql://[::1") != nil)
    }

    @Test func outOfRangeValuesAndUnusableNamesAreRefused() throws {
        func location(_ json: String) throws -> OwnTracksLocation { try OwnTracksLocation(json: Array(json.utf8)) }
        let good = try location(#"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"vel":50,"sat":7}"#)
        let stored = try StoredPosition(vehicle: "a/b", location: good)
        #expect(try StoredPosition(vehicle: "Zürich/Tram ½", location: good).vehicle == "Zürich/Tram ½")
        #expect(stored.speed == 50 / 3.6 && stored.satellites == 7 && stored.altitudeMeters == nil)
        for json in [
            #"{"_type":"location","tst":-5,"lat":1,"lon":2}"#,
            #"{"_type":"location","tst":9999999999,"lat":1,"lon":2}"#,
            #"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"vel":-3}"#,
            #"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"cog":400}"#,
            #"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"alt":200000}"#,
            #"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"acc":-1}"#,
            #"{"_type":"location","tst":1796025600,"lat":1,"lon":2,"sat":300}"#,
        ] {
            #expect(throws: RecordProblem.self, "\(json)") {
                try StoredPosition(vehicle: "a/b", location: location(json))
            }
        }
        for name in ["", "tab\there", "del\u{7F}", "c1\u{85}", String(repeating: "v", count: 257)] {
            #expect(throws: RecordProblem.self, "\(name)") { try StoredPosition(vehicle: name, location: good) }
        }
    }
}
