import JSON
import NMEA

/// A named area of the fleet store (`nmea.geofences`): a circle (centre and radius, exact on the sphere) or a
/// polygon (an outer ring and perhaps holes), with the margin of its hysteresis.
///
/// **Hysteresis (metres).** A position is *inside* when it lies inside the area by more than ``marginMeters``,
/// *outside* when it lies outside by more than the margin, and on the boundary otherwise; a position on the boundary
/// changes nothing. So a vehicle parked on the edge, whose fixes jitter a few metres either side, makes no events,
/// and one that drives through makes one `enter` and one `exit`. A vehicle's first position inside a fence is an
/// `enter` (before it, the vehicle counts as outside every fence).
public struct Geofence: Sendable, Hashable {
    public struct Point: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public enum Shape: Sendable, Hashable {
        case circle(center: Point, radiusMeters: Double)
        /// Rings of at least three distinct points, the first the outer one; each closed when it is not already.
        case polygon([[Point]])
    }

    public var name: String
    public var shape: Shape
    public var marginMeters: Double

    /// 10 m: GPS jitter of a phone or receiver in the open is a few metres.
    public static let defaultMarginMeters = 10.0

    public init(name: String, shape: Shape, marginMeters: Double = Geofence.defaultMarginMeters) {
        self.name = name
        self.shape = shape
        self.marginMeters = marginMeters
    }

    /// `LAT,LON,RADIUS_M` (`48.1374,11.5755,150`).
    public static func circle(parsing text: String) throws(FleetError) -> Shape {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(trimmed($0)) }
        guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let radius = parts[2] else {
            throw FleetError("expected LAT,LON,RADIUS_M (48.1374,11.5755,150)")
        }
        let center = Point(latitude: latitude, longitude: longitude)
        try check(center)
        guard radius.isFinite, radius > 0, radius <= 1_000_000 else {
            throw FleetError("the radius \(parts[2]!) is not between 0 and 1,000,000 metres")
        }
        return .circle(center: center, radiusMeters: radius)
    }

    /// `LAT LON, LAT LON, …`: one ring of at least three points (closed when its last point is not its first).
    public static func polygon(parsing text: String) throws(FleetError) -> Shape {
        var ring: [Point] = []
        for pair in text.split(separator: ",") {
            let numbers = pair.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Double($0) }
            guard numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1] else {
                throw FleetError("expected \"LAT LON, LAT LON, …\"; '\(trimmed(pair))' is not")
            }
            ring.append(Point(latitude: latitude, longitude: longitude))
        }
        return .polygon([try checked(ring)])
    }

    /// The GeoJSON Polygon in the file at `path` (see ``polygon(geoJSON:)``).
    public static func polygon(geoJSONFile path: String) throws(FleetError) -> Shape {
        try polygon(geoJSON: Array(try readSmallFile(path).utf8))
    }

    /// A GeoJSON Polygon, or a Feature or a FeatureCollection of exactly one holding one.
    public static func polygon(geoJSON bytes: [UInt8]) throws(FleetError) -> Shape {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw FleetError("not GeoJSON: \(error)")
        }
        var geometry = document
        if document["type"]?.string == "FeatureCollection" {
            guard let features = document["features"]?.array, features.count == 1 else {
                throw FleetError("a FeatureCollection of exactly one Feature is one geofence; give one")
            }
            geometry = features[0]
        }
        if geometry["type"]?.string == "Feature" {
            guard let inner = geometry["geometry"] else { throw FleetError("the Feature has no geometry") }
            geometry = inner
        }
        guard geometry["type"]?.string == "Polygon", let rings = geometry["coordinates"]?.array, !rings.isEmpty else {
            throw FleetError("expected a GeoJSON Polygon (or a Feature holding one)")
        }
        var parsed: [[Point]] = []
        for ring in rings {
            var points: [Point] = []
            for position in ring.array ?? [] {
                guard let pair = position.array, pair.count >= 2, let longitude = pair[0].number,
                    let latitude = pair[1].number
                else { throw FleetError("a Polygon position is not [lon, lat]") }
                points.append(Point(latitude: latitude, longitude: longitude))
            }
            parsed.append(try checked(points))
        }
        return .polygon(parsed)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func check(_ point: Point) throws(FleetError) {
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90,
            abs(point.longitude) <= 180
        else {
            throw FleetError("\(point.latitude) \(point.longitude) is not a position on the globe (LAT LON)")
        }
    }

    private static func checked(_ ring: [Point]) throws(FleetError) -> [Point] {
        for point in ring { try check(point) }
        var closed = ring
        if let first = ring.first, first != ring.last { closed.append(first) }
        guard Set(closed).count >= 3 else { throw FleetError("a polygon needs at least three distinct points") }
        return closed
    }

    /// The shape as WKT for PostGIS (longitude first): `POINT(lon lat)` for a circle's centre, `POLYGON((…))`.
    var wkt: String {
        func text(_ point: Point) -> String {
            DecimalFormatter.string(point.longitude) + " " + DecimalFormatter.string(point.latitude)
        }
        switch shape {
        case .circle(let center, _): return "POINT(" + text(center) + ")"
        case .polygon(let rings):
            return "POLYGON(" + rings.map { "(" + $0.map(text).joined(separator: ",") + ")" }.joined(separator: ",")
                + ")"
        }
    }
}

/// A vehicle's crossing of a fence's boundary, as `nmea.geofence_events` holds it.
public struct FenceEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case enter
        case exit
    }

    public var vehicle: String
    public var fence: String
    public var kind: Kind
    /// The fix time of the first position on the new side, seconds since 1970.
    public var timestamp: Int64
    public var latitude: Double
    public var longitude: Double

    public init(vehicle: String, fence: String, kind: Kind, timestamp: Int64, latitude: Double, longitude: Double) {
        self.vehicle = vehicle
        self.fence = fence
        self.kind = kind
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `{"vehicle":…,"fence":…,"kind":"enter","time":"…Z","lat":…,"lon":…}`.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("vehicle", vehicle)
        json.field("fence", fence)
        json.field("kind", kind.rawValue)
        json.key("time")
        json.asciiString { ISO8601.write(nanosecondsSinceEpoch: timestamp * 1_000_000_000, to: $0) }
        json.field("lat", latitude)
        json.field("lon", longitude)
        json.endObject()
    }

    /// The event alone, as the webhook receives it.
    public var json: [UInt8] {
        var writer = JSONWriter(capacity: 192)
        write(to: &writer)
        return writer.bytes
    }

    /// An OwnTracks `transition` message, as the OwnTracks apps publish to `<topic>/event`: `event` is `enter` or
    /// `leave`, `desc` the fence, `t` `c` (a circular or polygonal region, not a beacon), plus `vehicle`.
    public var ownTracksTransition: [UInt8] {
        var json = JSONWriter(capacity: 192)
        json.beginObject()
        json.field("_type", "transition" as StaticString)
        json.field("event", kind == .enter ? "enter" : "leave")
        json.field("desc", fence)
        json.field("t", "c" as StaticString)
        json.field("tst", Int(timestamp))
        json.field("wtst", Int(timestamp))
        json.field("lat", latitude)
        json.field("lon", longitude)
        json.field("vehicle", vehicle)
        json.endObject()
        return json.bytes
    }
}

/// What the store does with fences: adds, lists and removes them, lists events, and evaluates new positions
/// against them (``PositionStore`` calls ``evaluate(_:)`` in the transaction that stores the positions).
public struct GeofenceStore {
    public let database: PostgresConnection

    public init(_ database: PostgresConnection) { self.database = database }

    /// A stored fence, as ``list()`` gives it.
    public struct Row: Sendable, Hashable {
        public var name: String
        /// `circle` or `polygon`.
        public var kind: String
        public var marginMeters: Double
        /// Square metres.
        public var areaSquareMeters: Double
        public var center: Geofence.Point
        public var radiusMeters: Double?
        /// The outline as GeoJSON (a Polygon; a circle's is made of 64 points).
        public var geoJSON: String
    }

    /// Adds `fence`; `false` when one of that name exists (it is left alone).
    @discardableResult
    public func add(_ fence: Geofence) throws(DatabaseError) -> Bool {
        let radius: String?
        switch fence.shape {
        case .circle(_, let radiusMeters): radius = DecimalFormatter.string(radiusMeters)
        case .polygon: radius = nil
        }
        let result = try database.execute(
            """
            INSERT INTO nmea.geofences (name, center, radius_m, area, edge, margin_m, bounds)
            SELECT $1, CASE WHEN $3::float8 IS NULL THEN NULL ELSE g END, $3::float8, a, ST_Boundary(a::geometry)::geography,
                   $4::float8,
                   -- The outline's box grown by the margin (and a metre), in degrees of longitude at its
                   -- poleward edge, the shortest: a position outside it is farther than the margin.
                   ST_Expand(ST_Envelope(a::geometry), ($4::float8 + 1) / (111320 * greatest(0.01,
                       cos(radians(greatest(abs(ST_YMin(a::geometry)), abs(ST_YMax(a::geometry))))))))
            FROM (SELECT ST_GeogFromText('SRID=4326;' || $2) AS g) s
            CROSS JOIN LATERAL (SELECT CASE WHEN $3::float8 IS NULL THEN s.g
                                            ELSE ST_Buffer(s.g, $3::float8, 'quad_segs=16') END AS a) b
            ON CONFLICT (name) DO NOTHING
            """,
            [fence.name, fence.wkt, radius, DecimalFormatter.string(fence.marginMeters)])
        return result.affectedRows == 1
    }

    /// Removes the fence `name` (its events stay); `false` when there was none.
    @discardableResult
    public func remove(_ name: String) throws(DatabaseError) -> Bool {
        try database.execute("DELETE FROM nmea.geofences WHERE name = $1", [name]).affectedRows == 1
    }

    /// Every fence, by name.
    public func list() throws(DatabaseError) -> [Row] {
        let result = try database.execute(
            """
            SELECT name, radius_m, margin_m, ST_Area(area), ST_Y(coalesce(center, ST_Centroid(area))::geometry),
                   ST_X(coalesce(center, ST_Centroid(area))::geometry), ST_AsGeoJSON(area, 7)
            FROM nmea.geofences ORDER BY name
            """)
        return (0..<result.rowCount).map { row in
            Row(
                name: result[row, 0] ?? "", kind: result[row, 1] == nil ? "polygon" : "circle",
                marginMeters: result.double(row, 2) ?? 0, areaSquareMeters: result.double(row, 3) ?? 0,
                center: .init(latitude: result.double(row, 4) ?? 0, longitude: result.double(row, 5) ?? 0),
                radiusMeters: result.double(row, 1), geoJSON: result[row, 6] ?? "null")
        }
    }

    /// The events of `vehicle` (every vehicle when `nil`) at or after `since` and before `until` (seconds since
    /// 1970; `nil` for no limit), by time, then vehicle and fence; the newest `limit` when one is given.
    public func events(vehicle: String?, since: Int64?, until: Int64? = nil, limit: Int? = nil)
        throws(DatabaseError) -> [FenceEvent]
    {
        let result = try database.execute(
            """
            SELECT * FROM (
                SELECT vehicle, fence, kind, extract(epoch FROM time)::bigint AS t, ST_Y(position::geometry),
                       ST_X(position::geometry)
                FROM nmea.geofence_events
                WHERE ($1::text IS NULL OR vehicle = $1) AND ($2::bigint IS NULL OR time >= to_timestamp($2::bigint))
                  AND ($3::bigint IS NULL OR time < to_timestamp($3::bigint))
                ORDER BY time DESC, vehicle DESC, fence DESC LIMIT $4::bigint) e
            ORDER BY t, vehicle, fence
            """, [vehicle, since.map { String($0) }, until.map { String($0) }, limit.map { String($0) }])
        return (0..<result.rowCount).map { row in
            FenceEvent(
                vehicle: result[row, 0] ?? "", fence: result[row, 1] ?? "",
                kind: FenceEvent.Kind(rawValue: result[row, 2] ?? "") ?? .enter,
                timestamp: Int64(result[row, 3] ?? "") ?? 0, latitude: result.double(row, 4) ?? 0,
                longitude: result.double(row, 5) ?? 0)
        }
    }

    // MARK: Evaluation

    /// Whether any fence exists (each batch asks once: without fences, nothing more is done).
    func hasFences() throws(DatabaseError) -> Bool {
        try database.execute("SELECT EXISTS (SELECT 1 FROM nmea.geofences)")[0, 0] == "t"
    }

    /// Brings the events of the vehicles in `staged_touched` (each with the time of its earliest new position) up
    /// to date, inside the caller's transaction, and returns the events recorded now.
    ///
    /// For each vehicle, its positions from its earliest new one on are evaluated against the fences near any of
    /// them (found with the GiST index on `bounds`, each fence's box grown by its margin) and the fences it was inside before (by its last event before
    /// them); the state before is the kind of that last event (outside when none). The transitions between definite
    /// states are the events of that span: those the table lacks are inserted (and returned), those it holds and
    /// the span no longer makes (a late position changed the story) are deleted. A position stored before (a
    /// repeated report) is not new and changes nothing. Concurrent writers of one vehicle are serialised by an
    /// advisory lock per vehicle, taken in name order.
    func evaluate() throws(DatabaseError) -> [FenceEvent] {
        try database.execute(
            """
            SELECT pg_advisory_xact_lock(hashtextextended('nmea.geofence:' || vehicle, 0))
            FROM (SELECT vehicle FROM staged_touched ORDER BY vehicle) t
            """)
        let states = try database.execute(Self.statesQuery)
        let existing = try database.execute(
            """
            SELECT e.vehicle, e.fence, extract(epoch FROM e.time)::bigint, e.kind
            FROM staged_touched t JOIN nmea.geofence_events e ON e.vehicle = t.vehicle AND e.time >= t.first_time
            """)
        struct Key: Hashable {
            var vehicle: String
            var fence: String
            var time: Int64
        }
        var held: [Key: String] = [:]
        for row in 0..<existing.rowCount {
            held[
                Key(
                    vehicle: existing[row, 0] ?? "", fence: existing[row, 1] ?? "",
                    time: Int64(existing[row, 2] ?? "") ?? 0)] =
                existing[row, 3]
        }
        var made: [FenceEvent] = []
        var group: (vehicle: String, fence: String)?
        var inside = false
        for row in 0..<states.rowCount {
            let vehicle = states[row, 0] ?? ""
            let fence = states[row, 1] ?? ""
            if group == nil || group! != (vehicle, fence) {
                group = (vehicle, fence)
                inside = states[row, 2] == "enter"
            }
            guard let state = states[row, 6] else { continue }  // on the boundary
            let now = state == "1"
            if now == inside { continue }
            inside = now
            made.append(
                FenceEvent(
                    vehicle: vehicle, fence: fence, kind: now ? .enter : .exit,
                    timestamp: Int64(states[row, 3] ?? "") ?? 0, latitude: states.double(row, 4) ?? 0,
                    longitude: states.double(row, 5) ?? 0))
        }
        var recorded: [FenceEvent] = []
        for event in made {
            let key = Key(vehicle: event.vehicle, fence: event.fence, time: event.timestamp)
            if held[key] == event.kind.rawValue {
                held[key] = nil
                continue
            }
            if held[key] != nil {
                try delete(key.vehicle, key.fence, key.time)
                held[key] = nil
            }
            try database.execute(
                """
                INSERT INTO nmea.geofence_events (vehicle, fence, time, kind, position)
                VALUES ($1, $2, to_timestamp($3::bigint), $4,
                        ST_SetSRID(ST_MakePoint($6::float8, $5::float8), 4326)::geography)
                """,
                [
                    event.vehicle, event.fence, String(event.timestamp), event.kind.rawValue,
                    DecimalFormatter.string(event.latitude), DecimalFormatter.string(event.longitude),
                ])
            recorded.append(event)
        }
        // What the span no longer makes.
        for key in held.keys { try delete(key.vehicle, key.fence, key.time) }
        return recorded
    }

    private func delete(_ vehicle: String, _ fence: String, _ time: Int64) throws(DatabaseError) {
        try database.execute(
            "DELETE FROM nmea.geofence_events WHERE vehicle = $1 AND fence = $2 AND time = to_timestamp($3::bigint)",
            [vehicle, fence, String(time)])
    }

    /// Per (vehicle, fence) to evaluate, in time order: vehicle, fence, the kind of the last event before the span
    /// (NULL: none), time, lat, lon, and the state (1 inside by more than the margin, 0 outside by more, NULL on
    /// the boundary). Distances on the sphere (`use_spheroid` false), as the project's one distance.
    static let statesQuery = """
        WITH win AS (
            SELECT p.vehicle, p.time, p.position
            FROM staged_touched t JOIN nmea.positions p ON p.vehicle = t.vehicle AND p.time >= t.first_time
        ), prior AS (
            SELECT t.vehicle, e.fence, e.kind
            FROM staged_touched t CROSS JOIN LATERAL (
                SELECT DISTINCT ON (fence) fence, kind FROM nmea.geofence_events e
                WHERE e.vehicle = t.vehicle AND e.time < t.first_time ORDER BY fence, time DESC) e
        ), candidates AS (
            SELECT DISTINCT w.vehicle, f.name AS fence
            FROM win w JOIN nmea.geofences f
                ON f.bounds && w.position::geometry AND ST_DWithin(f.area, w.position, f.margin_m + 1, false)
            UNION
            SELECT vehicle, fence FROM prior WHERE kind = 'enter'
        )
        SELECT c.vehicle, c.fence, pr.kind, extract(epoch FROM w.time)::bigint, ST_Y(w.position::geometry),
               ST_X(w.position::geometry),
               CASE WHEN f.radius_m IS NOT NULL THEN
                        CASE WHEN ST_Distance(f.center, w.position, false) <= f.radius_m - f.margin_m THEN 1
                             WHEN ST_Distance(f.center, w.position, false) >= f.radius_m + f.margin_m THEN 0 END
                    ELSE
                        CASE WHEN NOT ST_DWithin(f.area, w.position, f.margin_m, false) THEN 0
                             WHEN ST_Covers(f.area, w.position)
                                  AND NOT ST_DWithin(f.edge, w.position, f.margin_m, false) THEN 1 END
               END
        FROM candidates c
        JOIN nmea.geofences f ON f.name = c.fence
        JOIN win w ON w.vehicle = c.vehicle
        LEFT JOIN prior pr ON pr.vehicle = c.vehicle AND pr.fence = c.fence
        ORDER BY c.vehicle, c.fence, w.time
        """
}
