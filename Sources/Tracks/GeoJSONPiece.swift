import NMEA

/// The open line feature of a GeoJSON track: at most ``capacity`` points, kept as encoded text in two buffers
/// (positions and times) because GeoJSON puts them in two separate arrays of one feature.
///
/// One segment gives a `LineString` with `coordTimes` as a flat array; several give a `MultiLineString` with one
/// array of times per line (the convention of togeojson and the tools that read it). Times the receiver did not send
/// are `null`, so the two arrays always have the same shape.
///
/// - Complexity: appending a point is O(1) amortised; ``render(into:)`` is O(points in the piece).
struct GeoJSONPiece {
    let capacity: Int
    private(set) var pointCount = 0
    private(set) var lineCount = 0
    /// `true` when the first point repeats the last point of the feature before (the same segment continues).
    private(set) var continuesPrevious = false
    /// `[lon,lat,ele]` entries; lines separated by `],[`.
    private var positions: [UInt8] = []
    /// Time strings (or `null`); lines separated by `],[`.
    private var times: [UInt8] = []
    /// Where the last point's entries start in `positions` and `times`, to start the next piece where this one ends.
    private var lastPositionStart = 0
    private var lastTimeStart = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 2)
        positions.reserveCapacity(self.capacity * 48)
        times.reserveCapacity(self.capacity * 26)
    }

    var isEmpty: Bool { pointCount == 0 }
    var isFull: Bool { pointCount >= capacity }

    /// Empties the piece for the next feature; with `continuing`, the next feature starts with this one's last point.
    mutating func restart(continuing: Bool) {
        continuesPrevious = continuing && pointCount > 0
        if continuesPrevious {
            positions.removeSubrange(..<lastPositionStart)
            times.removeSubrange(..<lastTimeStart)
            pointCount = 1
        } else {
            positions.removeAll(keepingCapacity: true)
            times.removeAll(keepingCapacity: true)
            pointCount = 0
        }
        lineCount = pointCount
        lastPositionStart = 0
        lastTimeStart = 0
    }

    /// Adds a point, beginning a new line of the feature when `newLine` is set (or when it is the first point).
    mutating func append(_ fix: Fix, newLine: Bool) {
        if pointCount == 0 {
            lineCount = 1
        } else if newLine {
            positions += Self.lineBreak
            times += Self.lineBreak
            lineCount += 1
        } else {
            positions.append(UInt8(ascii: ","))
            times.append(UInt8(ascii: ","))
        }
        lastPositionStart = positions.count
        lastTimeStart = times.count
        GeoJSONText.appendPosition(fix, to: &positions)
        GeoJSONText.appendTime(fix, to: &times)
        pointCount += 1
    }

    /// Appends the whole feature.
    func render(into out: inout [UInt8]) {
        let multi = lineCount > 1
        out += multi ? Self.multiLineHead : Self.lineHead
        out += positions
        out += multi ? Self.multiTimesHead : Self.timesHead
        out += times
        out += multi ? Self.multiEnd : Self.end
        if continuesPrevious { out += Self.continuedProperty }
        out += Self.featureEnd
    }

    /// Bytes the rendered feature takes, roughly (for flush decisions).
    var byteCount: Int { positions.count + times.count + 120 }

    private static let lineBreak = Array("],[".utf8)
    private static let lineHead = Array(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":["#.utf8)
    private static let multiLineHead = Array(
        #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[["#.utf8)
    private static let timesHead = Array(#"]},"properties":{"coordTimes":["#.utf8)
    private static let multiTimesHead = Array(#"]]},"properties":{"coordTimes":[["#.utf8)
    private static let end = Array("]".utf8)
    private static let multiEnd = Array("]]".utf8)
    private static let continuedProperty = Array(#","continued":true"#.utf8)
    private static let featureEnd = Array("}}".utf8)
}

/// The JSON text of positions, times and point features.
enum GeoJSONText {
    /// `[lon,lat]` or `[lon,lat,ele]` (RFC 7946 order).
    static func appendPosition(_ fix: Fix, to out: inout [UInt8]) {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
        out.append(UInt8(ascii: "["))
        DecimalFormatter.append(longitude, to: &out)
        out.append(UInt8(ascii: ","))
        DecimalFormatter.append(latitude, to: &out)
        if let altitude = fix.altitudeMeters, altitude.isFinite {
            out.append(UInt8(ascii: ","))
            DecimalFormatter.append(altitude, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `"2026-11-30T08:00:00Z"`, or `null` without a date and time.
    static func appendTime(_ fix: Fix, to out: inout [UInt8]) {
        guard fix.date != nil, fix.time != nil else {
            out += Array("null".utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        fix.appendISO8601(to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// A `Point` feature with the fix's properties; absent values are left out.
    static func appendPointFeature(_ fix: Fix, to out: inout [UInt8]) {
        out += Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":"#.utf8)
        appendPosition(fix, to: &out)
        out += Array(#"},"properties":{"#.utf8)
        var first = true
        func key(_ name: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            out += UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            out += [UInt8(ascii: "\""), UInt8(ascii: ":")]
        }
        func number(_ name: StaticString, _ value: Double?, _ style: DecimalFormatter.Style = .shortest) {
            guard let value, value.isFinite else { return }
            key(name)
            DecimalFormatter.append(value, style, to: &out)
        }
        if fix.date != nil && fix.time != nil {
            key("time")
            appendTime(fix, to: &out)
        }
        number("ele", fix.altitudeMeters)
        number("speed", fix.speed, .maximumDecimals(Fix.speedDecimals))
        number("course", fix.courseDegrees.flatMap(GPXPoint.degreesTrue))
        key("fix")
        out += Array("\"\(GPXPoint.fixName(fix))\"".utf8)
        key("quality")
        out += Array("\"\(fix.quality.name)\"".utf8)
        if let used = fix.satellitesUsed {
            key("sat")
            DecimalFormatter.append(used, to: &out)
        }
        number("hdop", fix.hdop)
        number("vdop", fix.vdop)
        number("pdop", fix.pdop)
        number("geoidheight", fix.geoidSeparationMeters)
        out += Array("}}".utf8)
    }
}
