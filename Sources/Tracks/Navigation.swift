import NMEA

/// The waypoints and routes a receiver or chartplotter sent (WPL and RTE), gathered for the track files: GPX `<wpt>`
/// and `<rte>`, GeoJSON `Point` and `LineString` features with a `"kind"`, KML placemarks.
///
///     var navigation = Navigation()
///     navigation.add(try WPL(parsing: "$GPWPL,4917.16,N,12310.64,W,003*65"))
///     navigation.add(try RTE(parsing: "$GPRTE,1,1,c,0,003,004*…"))
///     navigation.routes[0].waypoints   // ["003", "004"]: names, placed by `position(of:)`
///
/// **Repeats.** Navigators send their waypoints and routes again and again (every few seconds, while a route is
/// followed): a waypoint is kept once by name, where it was last sent, in the order first seen; a route once by its
/// name (the RTE's route identifier), with its waypoints as last sent in full (all the sentences of one message, `1`
/// to `n` of `n`), in the order first seen. A message whose sentences do not arrive in order is dropped and counted.
///
/// **Memory** is bounded: at most ``maximumWaypoints`` waypoints, ``maximumRoutes`` routes and
/// ``maximumRoutePoints`` names per route; what is beyond is counted in ``dropped``.
public struct Navigation: Sendable {
    /// A named position (WPL).
    public struct Waypoint: Sendable, Hashable {
        public var name: String
        public var latitude: Double
        public var longitude: Double

        public init(name: String, latitude: Double, longitude: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A named list of waypoint names (RTE), or of named positions (a route read from a GPX or KML file).
    public struct Route: Sendable, Hashable {
        public var name: String
        /// `true` for a complete route (`c`), `false` for the working route (`w`: from the waypoint last passed).
        public var isComplete: Bool
        public var waypoints: [String]
        /// The route's own points, when it came with them (a file's route); `nil` for an RTE's, whose names WPL
        /// waypoints place.
        public var points: [Waypoint]?

        public init(name: String, isComplete: Bool, waypoints: [String]) {
            self.name = name
            self.isComplete = isComplete
            self.waypoints = waypoints
        }

        /// A route of its own points (from a GPX `<rte>` or a KML line), at most ``maximumRoutePoints`` of them.
        public init(name: String, points: [Waypoint]) {
            self.name = name
            isComplete = true
            self.points = Array(points.prefix(Navigation.maximumRoutePoints))
            waypoints = self.points!.map(\.name)
        }
    }

    public static let maximumWaypoints = 10_000
    public static let maximumRoutes = 1_000
    public static let maximumRoutePoints = 1_000

    public private(set) var waypoints: [Waypoint] = []
    public private(set) var routes: [Route] = []
    /// Waypoints, routes and route points beyond the limits, WPLs without a position, and route messages whose
    /// sentences came out of order.
    public private(set) var dropped = 0
    private var waypointIndex: [String: Int] = [:]
    private var routeIndex: [String: Int] = [:]
    /// The route message being gathered: its sentence count, the next sentence number expected, and what it holds.
    private var incoming: (count: Int, next: Int, route: Route)?

    public init() {}

    /// `true` when there is nothing to write.
    public var isEmpty: Bool { waypoints.isEmpty && routes.isEmpty }

    /// Adds a waypoint: a new name at the end, a known one moved to where it was sent now.
    public mutating func add(_ wpl: WPL) {
        guard let latitude = wpl.latitude?.doubleValue, let longitude = wpl.longitude?.doubleValue,
            abs(latitude) <= 90, abs(longitude) <= 180, !wpl.id.isEmpty
        else {
            dropped += 1
            return
        }
        add(Waypoint(name: wpl.id.string, latitude: latitude, longitude: longitude))
    }

    /// Adds a waypoint by value (from a GPX file, say).
    public mutating func add(_ waypoint: Waypoint) {
        Self.keep(
            waypoint, named: waypoint.name, in: &waypoints, index: &waypointIndex, limit: Self.maximumWaypoints,
            dropped: &dropped)
    }

    /// Adds one sentence of a route message; the route is kept when its last sentence arrives.
    public mutating func add(_ rte: RTE) {
        let count = rte.sentenceCount ?? 1
        let number = rte.sentenceNumber ?? 1
        let names = rte.waypoints.map(\.string)
        if number == 1 {
            if incoming != nil { dropped += 1 }  // the message before never ended
            incoming = (count, 1, Route(name: rte.routeID.string, isComplete: rte.isComplete ?? true, waypoints: []))
        }
        guard var message = incoming, message.next == number, message.count == count,
            message.route.name == rte.routeID.string
        else {
            dropped += 1
            incoming = nil
            return
        }
        let room = Self.maximumRoutePoints - message.route.waypoints.count
        message.route.waypoints += names.prefix(max(room, 0))
        dropped += max(names.count - max(room, 0), 0)
        message.next += 1
        if number < count {
            incoming = message
            return
        }
        incoming = nil
        add(message.route)
    }

    /// Adds a route by value: a new name at the end, a known one replaced.
    public mutating func add(_ route: Route) {
        guard !route.waypoints.isEmpty else { return }  // "$GPRTE,1,1,c,0": no route is being followed
        Self.keep(
            route, named: route.name, in: &routes, index: &routeIndex, limit: Self.maximumRoutes, dropped: &dropped)
    }

    /// Replaces the item of `name` in `list`, or appends it when there is room (counting it in `dropped` when not).
    private static func keep<Item>(
        _ item: Item, named name: String, in list: inout [Item], index: inout [String: Int], limit: Int,
        dropped: inout Int
    ) {
        if let position = index[name] {
            list[position] = item
        } else if list.count < limit {
            index[name] = list.count
            list.append(item)
        } else {
            dropped += 1
        }
    }

    /// Adds what `other` holds after what this holds (a track file's waypoints and routes after the log's).
    public mutating func add(contentsOf other: Navigation) {
        for waypoint in other.waypoints { add(waypoint) }
        for route in other.routes { add(route) }
        dropped += other.dropped
    }

    /// Where the waypoint `name` is, when a WPL placed it.
    public func position(of name: String) -> Waypoint? {
        waypointIndex[name].map { waypoints[$0] }
    }

    /// The waypoints of `route` that a WPL placed, in order, and how many names had no position.
    public func placedPoints(of route: Route) -> (points: [Waypoint], unplaced: Int) {
        if let own = route.points { return (own, 0) }
        let points = route.waypoints.compactMap(position(of:))
        return (points, route.waypoints.count - points.count)
    }
}

extension Navigation: FixReader.Handler {
    /// Takes the WPL and RTE sentences of a ``FixReader``'s stream: `reader.read(bytes, handler: &navigation) { … }`.
    @inlinable
    public mutating func sentence<S: DecodableSentence>(
        _ sentence: Sentence, decoded: S, _ context: FixReader.Context
    ) {
        switch S.kind {
        case .wpl: add(decoded as! WPL)
        case .rte: add(decoded as! RTE)
        default: break
        }
    }
}
