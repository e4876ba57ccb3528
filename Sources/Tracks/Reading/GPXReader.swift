import NMEA

/// Reads GPX 1.0 and 1.1 as fixes, waypoints and routes, streaming, so `nmea convert`, `trips` and `plot` take other
/// apps' tracks as they take NMEA.
///
/// - Each `<trkpt>` becomes a fix with what the file says: position, `<ele>`, `<time>` (any `xsd:dateTime` form,
///   offsets converted to UTC; a point without one is kept without a time), speed and course (GPX 1.0's `<speed>`
///   and `<course>`, or Garmin's TrackPointExtension `speed`/`course` in GPX 1.1), `<magvar>`, `<geoidheight>`,
///   `<sat>`, `<hdop>`, `<vdop>`, `<pdop>` and `<fix>`. Without `<fix>`, the fix type is assumed, not written back
///   (``Fix/modeIsAssumed``). Each `<trkseg>` ends with a fix without a position, so segments stay segments.
/// - Each `<wpt>` is a waypoint and each `<rte>` a route of its `<rtept>`s (``navigation``), carried through to the
///   outputs as waypoints and routes, not as track points.
///
/// A point whose `lat`/`lon` are missing or out of range, or whose time or a number cannot be read, is counted in
/// ``statistics`` and passed over; malformed XML throws ``TrackReadError`` with its line. Memory: the tokenizer's
/// bounded buffers, one point, and the waypoints and routes (bounded by ``Navigation``'s limits).
public struct GPXReader: Sendable {
    public private(set) var statistics = TrackReadStatistics()
    /// The file's waypoints and routes.
    public private(set) var navigation = Navigation()
    private var tokenizer = XMLTokenizer(keeping: valueElements)
    /// The open `<trkpt>` (when ``inPoint``), changed in place: a fix is over a kilobyte.
    private var point = Fix()
    private var inPoint = false
    private var pointIsValid = false
    /// The open `<wpt>` or `<rtept>` (its name and position), and the open route's name and points.
    private var waypoint: Navigation.Waypoint?
    private var route: (name: String, points: [Navigation.Waypoint])?
    private var element: String?
    /// Set when the root element is not `<gpx>`.
    private var rootChecked = false

    public init() {}

    static let valueElements: Set<String> = [
        "ele", "time", "speed", "course", "sat", "hdop", "vdop", "pdop", "fix", "magvar", "geoidheight", "name",
        "hacc", "vacc", "sacc", "rtk",
    ]

    /// Reads the next bytes of the file; `emit` receives each point's fix and a break after each segment.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        var tokenizer = self.tokenizer
        defer { self.tokenizer = tokenizer }
        try tokenizer.feed(bytes) { (token, line) throws(TrackReadError) in try handle(token, line: line, emit) }
    }

    /// Checks the file ended complete.
    public mutating func finish(_ emit: (Fix) -> Void) throws(TrackReadError) {
        try tokenizer.finish()
    }

    private mutating func handle(_ token: XMLTokenizer.Token, line: Int, _ emit: (Fix) -> Void) throws(TrackReadError) {
        switch token {
        case .start(let name, let attributes, _):
            if !rootChecked {
                rootChecked = true
                guard name == "gpx" else {
                    throw TrackReadError(line: line, "the root element is <\(name)>, not <gpx> or <kml>")
                }
            }
            start(name, attributes)
        case .text(let text):
            guard let element else { return }
            let text = text.trimmingSpaces()
            if element == "name" {
                if waypoint != nil {
                    waypoint!.name = text
                } else if route != nil && route!.name.isEmpty {
                    route!.name = text
                }
            } else if inPoint && !apply(element, text) {
                pointIsValid = false
            }
        case .end(let name):
            end(name, emit)
            element = nil
        }
    }

    private mutating func start(_ name: String, _ attributes: [String: String]) {
        switch name {
        case "trkpt":
            inPoint = true
            let latitude = attributes["lat"].flatMap { TrackPoint.number($0.trimmingSpaces()) }
            let longitude = attributes["lon"].flatMap { TrackPoint.number($0.trimmingSpaces()) }
            if let latitude, let longitude, let fix = TrackPoint.fix(latitude: latitude, longitude: longitude) {
                point = fix
                pointIsValid = true
            } else {
                point = Fix()
                pointIsValid = false
            }
        case "wpt", "rtept":
            let latitude = attributes["lat"].flatMap { TrackPoint.number($0.trimmingSpaces()) }
            let longitude = attributes["lon"].flatMap { TrackPoint.number($0.trimmingSpaces()) }
            if let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180 {
                waypoint = Navigation.Waypoint(name: "", latitude: latitude, longitude: longitude)
            } else {
                statistics.rejectedPoints += 1
            }
        case "rte":
            route = ("", [])
        default:
            element = name
        }
    }

    private mutating func end(_ name: String, _ emit: (Fix) -> Void) {
        switch name {
        case "trkpt":
            if inPoint && pointIsValid {
                // A point the file says had no fix is no position.
                if point.quality == .none { point.mode = .none }
                // An elevation read after the position was placed: an assumed mode follows it.
                if point.modeIsAssumed { point.mode = point.altitudeMeters == nil ? .twoD : .threeD }
                statistics.points += 1
                emit(point)
            } else {
                statistics.rejectedPoints += 1
            }
            inPoint = false
        case "trkseg":
            statistics.segments += 1
            emit(Fix())
        case "wpt":
            if var waypoint {
                statistics.waypoints += 1
                waypoint.name = TrackPoint.waypointName(waypoint.name, number: statistics.waypoints)
                navigation.add(waypoint)
            }
            waypoint = nil
        case "rtept":
            if var waypoint, route != nil {
                waypoint.name = TrackPoint.waypointName(waypoint.name, number: route!.points.count + 1)
                if route!.points.count < Navigation.maximumRoutePoints { route!.points.append(waypoint) }
            }
            waypoint = nil
        case "rte":
            if let route, !route.points.isEmpty {
                statistics.routes += 1
                let name = route.name.isEmpty ? "Route \(statistics.routes)" : route.name
                navigation.add(Navigation.Route(name: name, points: route.points))
            }
            route = nil
        default:
            break
        }
    }

    /// Sets one value of the open point; `false` when the text is not what the element holds.
    private mutating func apply(_ element: String, _ text: String) -> Bool {
        func number() -> Double? { TrackPoint.number(text) }
        switch element {
        case "ele": point.altitudeMeters = number()
        case "speed": point.speed = number()
        case "course": point.courseDegrees = number()
        case "magvar": point.magneticVariationDegrees = number()
        case "geoidheight": point.geoidSeparationMeters = number()
        case "hdop": point.hdop = number()
        case "vdop": point.vdop = number()
        case "pdop": point.pdop = number()
        case "hacc": point.horizontalErrorMeters = number()
        case "vacc": point.verticalErrorMeters = number()
        case "sacc": point.speedErrorMetersPerSecond = number()
        case "rtk": point.quality = text == "fixed" ? .rtkFixed : text == "float" ? .rtkFloat : point.quality
        case "sat": point.satellitesUsed = Int(text)
        case "fix": TrackPoint.setFixType(text, of: &point)
        case "time": return TrackPoint.setTime(text, of: &point)
        default: break
        }
        return true
    }
}
