import JSON
import NMEA

/// Reads GeoJSON (RFC 7946) as fixes, waypoints and routes, streaming feature by feature, so `nmea convert`, `trips`
/// and `plot` take other apps' GeoJSON as they take NMEA: ours, togeojson's and the many tools that follow it.
///
/// Every feature with a usable geometry is read, in file order:
/// - A `LineString` (or `MultiLineString`) is a segment (one per line), its times from `coordTimes` or
///   togeojson's current `coordinateProperties.times` (flat, or one array per line); times that cannot be paired
///   with the positions (another count) are counted in ``TrackReadStatistics/unpairedTimes`` and the line is read
///   without them. A `Point`/`MultiPoint` with `coordTimes` is a segment too (how ours writes a segment without two
///   distinct positions). A feature marked `"continued": true` (ours, from a live file) joins the one before, its
///   repeated first point dropped.
/// - A `Point` with a `time` (or `timestamp`) property is one fix, with `ele`, `speed`, `course`, `sat`, `hdop`,
///   `vdop`, `pdop`, `geoidheight` and `fix` when present; consecutive ones are one segment.
/// - An untimed `Point` is a waypoint (named by `name`); ours marked `"kind":"waypoint"`/`"route"` are waypoints and
///   routes. A line of ours marked `"pointFeatures":true` (`--points`) is passed over: its fixes are the file's
///   `Point` features, which carry more.
/// - Polygons and other geometries are no track: counted in ``TrackReadStatistics/ignoredFeatures``.
///
/// Positions out of range and times that cannot be read are counted and passed over; malformed JSON throws
/// ``TrackReadError`` with its line. Memory: one feature at a time (at most ``maximumNumbersPerFeature`` numbers).
public struct GeoJSONReader: Sendable {
    public private(set) var statistics = TrackReadStatistics()
    public let maximumNumbersPerFeature: Int
    private var tokenizer = JSONTokenizer()
    private var builder = JSONValue.Builder()
    private var root: [String: JSONValue] = [:]
    /// Depth of the root's `features` array while its elements stream.
    private var streamingFeatures = false
    private var sawFeatureArray = false
    /// A segment ended and its break is not yet handed out (a continued feature takes it back).
    private var breakPending = false
    /// Timed Point features are being read as one segment.
    private var inPointRun = false
    /// The file's waypoints and routes.
    public private(set) var navigation = Navigation()
    private var numbers = 0
    private var rootKey: String?
    private var sawBOMCheck = false

    public init(maximumNumbersPerFeature: Int = 5_000_000) {
        self.maximumNumbersPerFeature = maximumNumbersPerFeature
    }

    /// Reads the next bytes of the file; `emit` receives each point's fix and a break after each segment.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        let bytes = sawBOMCheck ? bytes : withoutByteOrderMark(bytes)
        sawBOMCheck = true
        var tokenizer = self.tokenizer
        defer { self.tokenizer = tokenizer }
        var handlerError: TrackReadError?
        do throws(JSONParseError) {
            try tokenizer.feed(bytes) { (event, depth, line) throws(JSONParseError) in
                do throws(TrackReadError) {
                    try handle(event, depth: depth, line: line, emit)
                } catch {
                    handlerError = error
                    throw JSONTokenizer.stopped
                }
            }
        } catch {
            throw handlerError ?? TrackReadError(line: error.line, error.reason)
        }
    }

    /// Checks the file ended complete and reads a root that is itself a feature or a geometry.
    public mutating func finish(_ emit: (Fix) -> Void) throws(TrackReadError) {
        var tokenizer = self.tokenizer
        var handlerError: TrackReadError?
        do throws(JSONParseError) {
            try tokenizer.finish { (event, depth, line) throws(JSONParseError) in
                do throws(TrackReadError) {
                    try handle(event, depth: depth, line: line, emit)
                } catch {
                    handlerError = error
                    throw JSONTokenizer.stopped
                }
            }
        } catch {
            throw handlerError ?? TrackReadError(line: error.line, error.reason)
        }
        let rootValue = JSONValue.object(root)
        if !sawFeatureArray {
            switch rootValue["type"]?.string {
            case "Feature"?: try feature(rootValue, line: tokenizer.line, emit)
            case "LineString"?, "MultiLineString"?, "Point"?, "MultiPoint"?:
                try feature(.object(["geometry": rootValue]), line: tokenizer.line, emit)
            case let type?:
                throw TrackReadError(
                    line: tokenizer.line, "a GeoJSON \(type) holds no track (FeatureCollection, Feature or a line)")
            case nil:
                throw TrackReadError(line: tokenizer.line, "not GeoJSON: the root object has no \"type\"")
            }
        }
        if breakPending || inPointRun { emit(Fix()) }
        breakPending = false
        inPointRun = false
    }

    private mutating func handle(_ event: JSONTokenizer.Event, depth: Int, line: Int, _ emit: (Fix) -> Void)
        throws(TrackReadError)
    {
        if case .number = event {
            numbers += 1
            if numbers > maximumNumbersPerFeature {
                throw TrackReadError(
                    line: line, "a feature of more than \(maximumNumbersPerFeature) numbers: too big to hold")
            }
        }
        // The root object's own members (depth 1) and its features array (depth 2) are handled here; everything
        // deeper is built into values.
        if builder.isEmpty {
            switch event {
            case .objectStart where depth == 1:
                return
            case .arrayStart where depth == 1:
                throw TrackReadError(line: line, "not GeoJSON: the root is an array, not an object")
            case .key(let key) where depth == 1:
                rootKey = key
                return
            case .arrayStart where depth == 2 && rootKey == "features":
                streamingFeatures = true
                sawFeatureArray = true
                return
            case .arrayEnd where depth == 2 && streamingFeatures:
                streamingFeatures = false
                rootKey = nil
                return
            case .objectEnd where depth == 1:
                return
            default:
                break
            }
            if depth == 0 { throw TrackReadError(line: line, "not GeoJSON: the root is not an object") }
        }
        if let value = builder.add(event) {
            if streamingFeatures {
                numbers = 0
                try feature(value, line: line, emit)
            } else if let rootKey {
                root[rootKey] = value
                self.rootKey = nil
            }
        }
    }

    /// Reads one feature, in file order: a timed `Point` is a fix; a line (or a `MultiPoint`, or a `Point` with
    /// `coordTimes`) is a segment; an untimed `Point` is a waypoint, and ours marked `"kind"` a waypoint or a route;
    /// a line of ours marked `"pointFeatures":true` is passed over, its points being the file's `Point` features.
    private mutating func feature(_ feature: JSONValue, line: Int, _ emit: (Fix) -> Void) throws(TrackReadError) {
        guard let geometry = feature["geometry"], let type = geometry["type"]?.string else {
            statistics.ignoredFeatures += 1
            return
        }
        let properties = feature["properties"]
        let coordinates = geometry["coordinates"]
        switch properties?["kind"]?.string {
        case "waypoint"?:
            return waypoint(coordinates, name: properties?["name"]?.string)
        case "route"?:
            return route(coordinates, properties)
        default:
            break
        }
        if case .bool(true)? = properties?["pointFeatures"] { return }
        let times = properties?["coordTimes"] ?? properties?["coordinateProperties"]?["times"]
        let timed = properties?["time"]?.string ?? properties?["timestamp"]?.string
        if type == "Point" && times == nil {
            guard let timed else { return waypoint(coordinates, name: properties?["name"]?.string) }
            return timedPoint(coordinates, time: timed, properties, emit)
        }
        let lines: [[JSONValue]]
        switch type {
        case "LineString", "MultiPoint": lines = [coordinates?.array ?? []]
        case "MultiLineString": lines = (coordinates?.array ?? []).map { $0.array ?? [] }
        case "Point": lines = [[coordinates ?? .null]]
        default:
            statistics.ignoredFeatures += 1  // polygons and collections are not tracks
            return
        }
        let continued = properties?["continued"].map { if case .bool(true) = $0 { true } else { false } } ?? false
        for (lineIndex, positions) in lines.enumerated() {
            // Times: flat for one line, one array per line for several.
            var lineTimes = lines.count > 1 ? (times?.array?[safe: lineIndex]?.array ?? []) : (times?.array ?? [])
            if !lineTimes.isEmpty && lineTimes.count != positions.count {
                statistics.unpairedTimes += 1
                lineTimes = []
            }
            // A line continuing the one before (ours, split in pieces) repeats its last position: not again.
            let skipsFirst = continued && lineIndex == 0 && breakPending
            segment(positions, times: lineTimes, skippingFirst: skipsFirst, emit)
        }
    }

    /// One line's positions as a segment, each with its time when `times` has one.
    private mutating func segment(
        _ positions: [JSONValue], times lineTimes: [JSONValue], skippingFirst: Bool, _ emit: (Fix) -> Void
    ) {
        var skipFirst = skippingFirst
        if !skipFirst { endSegment(emit) }
        breakPending = false
        for (index, coordinate) in positions.enumerated() {
            if skipFirst {
                skipFirst = false
                continue
            }
            guard var fix = position(coordinate) else {
                statistics.rejectedPoints += 1
                continue
            }
            if let text = lineTimes[safe: index]?.string, !TrackPoint.setTime(text, of: &fix) {
                statistics.rejectedPoints += 1
                continue
            }
            statistics.points += 1
            emit(fix)
        }
        statistics.segments += 1
        breakPending = true
    }

    /// Closes the segment before a new one: a line, or a run of timed Points.
    private mutating func endSegment(_ emit: (Fix) -> Void) {
        if breakPending || inPointRun { emit(Fix()) }
        breakPending = false
        inPointRun = false
    }

    /// A timed `Point` feature: one fix, with its properties (ours with `--points`; loggers that write a Point per
    /// fix). Consecutive ones are one segment.
    private mutating func timedPoint(
        _ coordinates: JSONValue?, time: String, _ properties: JSONValue?, _ emit: (Fix) -> Void
    ) {
        guard var fix = position(coordinates), TrackPoint.setTime(time, of: &fix) else {
            statistics.rejectedPoints += 1
            return
        }
        if breakPending {
            emit(Fix())
            breakPending = false
        }
        if !inPointRun { statistics.segments += 1 }
        inPointRun = true
        Self.setProperties(&fix, properties)
        statistics.points += 1
        emit(fix)
    }

    /// An untimed `Point` feature: a waypoint, named by its `name` property.
    private mutating func waypoint(_ coordinates: JSONValue?, name: String?) {
        guard let fix = position(coordinates), let latitude = fix.latitude, let longitude = fix.longitude else {
            statistics.rejectedPoints += 1
            return
        }
        statistics.waypoints += 1
        let name = TrackPoint.waypointName(name, number: statistics.waypoints)
        navigation.add(Navigation.Waypoint(name: name, latitude: latitude, longitude: longitude))
    }

    /// A route feature of ours (`"kind":"route"`): its line's positions named by its `waypoints` property.
    private mutating func route(_ coordinates: JSONValue?, _ properties: JSONValue?) {
        let names = properties?["waypoints"]?.array?.map { $0.string ?? "" } ?? []
        let positions = coordinates?.array?.first?.number != nil ? [coordinates!] : (coordinates?.array ?? [])
        var points: [Navigation.Waypoint] = []
        for (index, coordinate) in positions.enumerated() {
            guard let fix = position(coordinate), let latitude = fix.latitude, let longitude = fix.longitude else {
                continue
            }
            let name = TrackPoint.waypointName(names[safe: index], number: index + 1)
            points.append(Navigation.Waypoint(name: name, latitude: latitude, longitude: longitude))
        }
        guard !points.isEmpty else { return }
        statistics.routes += 1
        let name = properties?["name"]?.string ?? "Route \(statistics.routes)"
        navigation.add(Navigation.Route(name: name, points: points))
    }

    /// A fix at `[lon, lat(, ele)]`, or `nil` when it is no position in range.
    private func position(_ value: JSONValue?) -> Fix? {
        guard let numbers = value?.array?.compactMap(\.number), numbers.count >= 2 else { return nil }
        return TrackPoint.fix(
            latitude: numbers[1], longitude: numbers[0], altitude: numbers.count >= 3 ? numbers[2] : nil)
    }

    static func setProperties(_ fix: inout Fix, _ properties: JSONValue?) {
        guard let properties else { return }
        if let ele = properties["ele"]?.number {
            fix.altitudeMeters = ele
            if fix.modeIsAssumed { fix.mode = .threeD }
        }
        fix.speed = properties["speed"]?.number
        fix.courseDegrees = properties["course"]?.number
        fix.hdop = properties["hdop"]?.number
        fix.vdop = properties["vdop"]?.number
        fix.pdop = properties["pdop"]?.number
        fix.geoidSeparationMeters = properties["geoidheight"]?.number
        fix.satellitesUsed = properties["sat"]?.number.map { Int($0) }
        if let name = properties["fix"]?.string { TrackPoint.setFixType(name, of: &fix) }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
