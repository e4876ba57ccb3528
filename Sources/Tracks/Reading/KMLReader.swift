import NMEA

/// Reads KML 2.2 (Google Earth, GPSBabel, ours) as fixes, waypoints and routes, streaming, so every format `nmea
/// convert` writes is one it reads back.
///
/// - A `gx:Track` is a segment: its n-th `<when>` belongs to its n-th `<gx:coord>` (`lon lat alt`), whether the
///   file lists them interleaved (as ours and GPSBabel do) or all times first (as the schema does; the times wait,
///   up to ``maximumPendingTimes``, for their positions). An empty `<when/>` is a point without a time. Each track
///   of a `gx:MultiTrack` is a segment of its own.
/// - A `LineString` is a segment of untimed points (`lon,lat[,alt]` tuples in `<coordinates>`, read in pieces
///   however long); one of ours styled `#route` is a route.
/// - A `Point` placemark with a `<TimeStamp><when>` is a fix, in file order; without one it is a waypoint named by
///   the placemark. Ours styled `#mark` with a time (the start, end and stops `nmea convert` adds, which the track
///   already holds) are passed over.
/// - Polygons and other geometries hold no track: counted in ``TrackReadStatistics/ignoredFeatures``.
///
/// Positions out of range and times that cannot be read are counted and passed over; malformed XML throws
/// ``TrackReadError``. Points carry no fix type (KML has none): it is assumed, not written back.
public struct KMLReader: Sendable {
    public private(set) var statistics = TrackReadStatistics()
    public private(set) var navigation = Navigation()
    /// The most times a `gx:Track` may list before their positions (the schema's order): bounded memory.
    public let maximumPendingTimes: Int
    private var tokenizer = XMLTokenizer(keeping: textElements, piecewise: ["coordinates"])
    private var rootChecked = false
    /// The element whose text comes next.
    private var element: String?
    /// The open placemark: its name, style, time stamp, and which geometry it holds.
    private var placemark: Placemark?
    /// The open `gx:Track`'s times and positions not yet paired (one of the two is always empty), first in first
    /// out.
    private var pendingTimes = Queue<String>()
    private var pendingCoordinates = Queue<Fix>()
    private var inTrack = false
    /// The open `LineString`: a route's points (ours, `#route`), or `nil` for a track line.
    private var routePoints: [Navigation.Waypoint]?
    private var inLine = false
    private var inPoint = false
    /// Inside geometries that hold no track (`Polygon`, `Model`), whose coordinates are passed over.
    private var ignoredDepth = 0
    private var segmentOpen = false

    private struct Placemark {
        var name = ""
        var style = ""
        var time: String?
        var point: (latitude: Double, longitude: Double, altitude: Double?)?
        var hasGeometry = false
    }

    public init(maximumPendingTimes: Int = 5_000_000) {
        self.maximumPendingTimes = maximumPendingTimes
    }

    static let textElements: Set<String> = ["name", "styleUrl", "when", "coord", "coordinates"]

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
        case .start(let name, _, _):
            if !rootChecked {
                rootChecked = true
                guard name == "kml" else {
                    throw TrackReadError(line: line, "the root element is <\(name)>, not <kml>")
                }
            }
            element = name
            try start(name, line: line, emit)
        case .text(let text):
            if let element { try self.text(text, in: element, line: line, emit) }
        case .end(let name):
            element = nil
            end(name, emit)
        }
    }

    private mutating func start(_ name: String, line: Int, _ emit: (Fix) -> Void) throws(TrackReadError) {
        switch name {
        case "Placemark":
            placemark = Placemark()
        case "Track":
            placemark?.hasGeometry = true
            inTrack = true
            pendingTimes = Queue()
            pendingCoordinates = Queue()
            beginSegment(emit)
        case "LineString":
            placemark?.hasGeometry = true
            inLine = true
            if placemark?.style == "#route" {
                routePoints = []
            } else {
                beginSegment(emit)
            }
        case "Point":
            placemark?.hasGeometry = true
            inPoint = true
        case "Polygon", "Model":
            placemark?.hasGeometry = true
            ignoredDepth += 1
            statistics.ignoredFeatures += 1
        default:
            break
        }
    }

    private mutating func text(_ text: String, in element: String, line: Int, _ emit: (Fix) -> Void)
        throws(TrackReadError)
    {
        switch element {
        case "name":
            if placemark != nil && placemark!.name.isEmpty { placemark!.name = text.trimmingSpaces() }
        case "styleUrl":
            placemark?.style = text.trimmingSpaces()
        case "when":
            if inTrack {
                try addTime(text.trimmingSpaces(), line: line, emit)
            } else {
                placemark?.time = text.trimmingSpaces()
            }
        case "coord":
            guard inTrack else { return }
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            let fix =
                parts.count >= 2
                ? TrackPoint.number(parts[1]).flatMap { latitude in
                    TrackPoint.number(parts[0]).flatMap { longitude in
                        TrackPoint.fix(
                            latitude: latitude, longitude: longitude,
                            altitude: parts.count >= 3 ? TrackPoint.number(parts[2]) : nil)
                    }
                } : nil
            addCoordinate(fix ?? Fix(), valid: fix != nil, emit)
        case "coordinates":
            guard ignoredDepth == 0, inLine || inPoint else { return }
            for tuple in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                coordinate(tuple, emit)
            }
        default:
            break
        }
    }

    /// One `lon,lat[,alt]` tuple of `<coordinates>`.
    private mutating func coordinate(_ tuple: Substring, _ emit: (Fix) -> Void) {
        let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count >= 2, let longitude = TrackPoint.number(parts[0]), let latitude = TrackPoint.number(parts[1]),
            let fix = TrackPoint.fix(
                latitude: latitude, longitude: longitude, altitude: parts.count >= 3 ? TrackPoint.number(parts[2]) : nil
            )
        else {
            statistics.rejectedPoints += 1
            return
        }
        if inLine {
            if routePoints != nil {
                if routePoints!.count < Navigation.maximumRoutePoints {
                    let name = "\(placemark?.name ?? "Route") \(routePoints!.count + 1)"
                    routePoints!.append(Navigation.Waypoint(name: name, latitude: latitude, longitude: longitude))
                }
            } else {
                statistics.points += 1
                emit(fix)
            }
        } else if placemark != nil && placemark!.point == nil {
            placemark!.point = (latitude, longitude, fix.altitudeMeters)
        }
    }

    /// A `gx:Track`'s `<when>`: paired with the oldest position waiting, or kept until its position comes.
    private mutating func addTime(_ text: String, line: Int, _ emit: (Fix) -> Void) throws(TrackReadError) {
        if var fix = pendingCoordinates.popFirst() {
            emitTrackPoint(&fix, time: text, emit)
            return
        }
        guard pendingTimes.count < maximumPendingTimes else {
            throw TrackReadError(
                line: line, "a gx:Track of more than \(maximumPendingTimes) times before its positions")
        }
        pendingTimes.append(text)
    }

    /// A `gx:Track`'s `<gx:coord>`: paired with the oldest time waiting, or kept until its time comes. An
    /// invalid one is kept too (as a fix without a position) so that the pairs stay in step.
    private mutating func addCoordinate(_ fix: Fix, valid: Bool, _ emit: (Fix) -> Void) {
        var fix = fix
        if !valid { fix.latitude = nil }
        if let time = pendingTimes.popFirst() {
            emitTrackPoint(&fix, time: time, emit)
            return
        }
        pendingCoordinates.append(fix)
    }

    private mutating func emitTrackPoint(_ fix: inout Fix, time: String, _ emit: (Fix) -> Void) {
        guard fix.latitude != nil, time.isEmpty || TrackPoint.setTime(time, of: &fix) else {
            statistics.rejectedPoints += 1
            return
        }
        statistics.points += 1
        emit(fix)
    }

    private mutating func beginSegment(_ emit: (Fix) -> Void) {
        if segmentOpen { emit(Fix()) }
        segmentOpen = true
        statistics.segments += 1
    }

    private mutating func end(_ name: String, _ emit: (Fix) -> Void) {
        switch name {
        case "Track":
            // Positions left without a time (or times without a position): the file paired them badly.
            while var fix = pendingCoordinates.popFirst() { emitTrackPoint(&fix, time: "", emit) }
            if !pendingTimes.isEmpty { statistics.unpairedTimes += 1 }
            pendingTimes = Queue()
            inTrack = false
        case "LineString":
            inLine = false
            if let points = routePoints, !points.isEmpty {
                statistics.routes += 1
                navigation.add(Navigation.Route(name: placemark?.name ?? "Route \(statistics.routes)", points: points))
            }
            routePoints = nil
        case "Point":
            inPoint = false
        case "Polygon", "Model":
            ignoredDepth -= 1
        case "Placemark":
            if let placemark { endPlacemark(placemark, emit) }
            placemark = nil
        default:
            break
        }
    }

    /// A `Point` placemark: a fix when timed (but ours of the start, end and stops), else a waypoint.
    private mutating func endPlacemark(_ placemark: Placemark, _ emit: (Fix) -> Void) {
        guard let point = placemark.point else {
            if !placemark.hasGeometry { statistics.ignoredFeatures += 1 }
            return
        }
        if let time = placemark.time {
            guard placemark.style != "#mark" else { return }
            guard
                var fix = TrackPoint.fix(
                    latitude: point.latitude, longitude: point.longitude, altitude: point.altitude),
                TrackPoint.setTime(time, of: &fix)
            else {
                statistics.rejectedPoints += 1
                return
            }
            statistics.points += 1
            emit(fix)
            return
        }
        statistics.waypoints += 1
        let name = TrackPoint.waypointName(placemark.name, number: statistics.waypoints)
        navigation.add(Navigation.Waypoint(name: name, latitude: point.latitude, longitude: point.longitude))
    }
}

/// A first-in, first-out list on an array and a head index.
/// - Complexity: amortised O(1) per element; the taken elements' room is given back once they are half the array.
struct Queue<Element: Sendable>: Sendable {
    private var elements: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }
    var count: Int { elements.count - head }

    mutating func append(_ element: Element) { elements.append(element) }

    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }
}
