import NMEA

/// The open piece of a GeoJSON track: at most ``capacity`` points, kept as encoded text in two buffers (positions
/// and times) because GeoJSON puts them in two separate arrays of one feature.
///
/// One segment gives a `LineString` with `coordTimes` as a flat array; several give a `MultiLineString` with one
/// array of times per line (the convention of togeojson and the tools that read it). Times the receiver did not send
/// are `null`, so the two arrays always have the same shape.
///
/// **Every geometry is valid** (RFC 7946 and OGC simple features, as GEOS's `IsValid` checks): a line needs two
/// distinct positions. A segment with fewer — one fix, or fixes that all print the same longitude and latitude (a
/// receiver holding its position) — is not a line: it is written as a `Point` (one fix) or a `MultiPoint` (several),
/// with its `coordTimes` as a flat array, in its place among the piece's features, which therefore may be several:
/// each run of lines one (Multi)LineString feature, each such segment a feature of its own, in time order. The open
/// segment is written the same way on every flush, so a live file is valid after each one; it becomes a line with
/// its second distinct position.
///
/// - Complexity: appending a point is O(1) amortised; ``render(into:)`` is O(points in the piece).
struct GeoJSONPiece {
    /// Where one segment's entries are in the buffers, and whether it has two distinct positions.
    struct Line {
        var positionStart: Int
        var timeStart: Int
        var points: Int
        var isLine: Bool
    }

    let capacity: Int
    /// `true` when the file also holds each fix as a Point feature (`--points`): each line says so
    /// (`"pointFeatures":true`), so a reader takes the points, which carry more, and not both.
    var marksPointFeatures = false
    private(set) var pointCount = 0
    /// `true` when the first point repeats the last point of the feature before (the same segment continues).
    private(set) var continuesPrevious = false
    /// `[lon,lat,ele]` entries, comma-separated within a segment, back to back between segments.
    private var positions: [UInt8] = []
    /// Time strings (or `null`), likewise.
    private var times: [UInt8] = []
    /// The segments of the piece, in order.
    private var lines: [Line] = []
    /// Where the last point's entries start in `positions` and `times`, to start the next piece where this one ends.
    private var lastPositionStart = 0
    private var lastTimeStart = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 2)
        positions.reserveCapacity(self.capacity * 48)
        times.reserveCapacity(self.capacity * 26)
        lines.reserveCapacity(8)
    }

    var isEmpty: Bool { pointCount == 0 }
    var isFull: Bool { pointCount >= capacity }
    /// Segments in the piece.
    var lineCount: Int { lines.count }

    /// Empties the piece for the next feature; with `continuing`, the next feature starts with this one's last point.
    mutating func restart(continuing: Bool) {
        continuesPrevious = continuing && pointCount > 0
        if continuesPrevious {
            positions.removeSubrange(..<lastPositionStart)
            times.removeSubrange(..<lastTimeStart)
            pointCount = 1
            lines.removeAll(keepingCapacity: true)
            lines.append(Line(positionStart: 0, timeStart: 0, points: 1, isLine: false))
        } else {
            positions.removeAll(keepingCapacity: true)
            times.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
            pointCount = 0
        }
        lastPositionStart = 0
        lastTimeStart = 0
    }

    /// Adds a point, beginning a new segment when `newLine` is set (or when it is the first point).
    mutating func append(_ fix: Fix, newLine: Bool) {
        if lines.isEmpty || newLine {
            lines.append(Line(positionStart: positions.count, timeStart: times.count, points: 0, isLine: false))
        } else {
            positions.append(UInt8(ascii: ","))
            times.append(UInt8(ascii: ","))
        }
        lastPositionStart = positions.count
        lastTimeStart = times.count
        GeoJSONText.appendPosition(fix, to: &positions)
        GeoJSONText.appendTime(fix, to: &times)
        pointCount += 1
        let last = lines.count - 1
        lines[last].points += 1
        if !lines[last].isLine && lines[last].points > 1 {
            lines[last].isLine = !samePlace(lines[last].positionStart, lastPositionStart)
        }
    }

    /// `true` when the positions starting at `first` and `second` print the same longitude and latitude (an
    /// elevation, present in one and not the other or different, does not place a point).
    private func samePlace(_ first: Int, _ second: Int) -> Bool {
        var index = 0
        var commas = 0
        while second + index < positions.count {
            let one = positions[first + index]
            let other = positions[second + index]
            let oneEnds = one == UInt8(ascii: "]") || (one == UInt8(ascii: ",") && commas == 1)
            let otherEnds = other == UInt8(ascii: "]") || (other == UInt8(ascii: ",") && commas == 1)
            if oneEnds || otherEnds { return oneEnds && otherEnds }
            guard one == other else { return false }
            if one == UInt8(ascii: ",") { commas += 1 }
            index += 1
        }
        return false
    }

    /// Appends the piece's features, separated by `,\n`: runs of lines as (Multi)LineString features, each segment
    /// without two distinct positions as a Point or MultiPoint feature.
    func render(into out: inout [UInt8]) {
        var runStart = 0
        var wroteFeature = false
        func separate() {
            if wroteFeature { out += Self.separator }
            wroteFeature = true
        }
        for (index, line) in lines.enumerated() where !line.isLine {
            if runStart < index {
                separate()
                renderLines(runStart..<index, into: &out)
            }
            separate()
            renderPoints(index, into: &out)
            runStart = index + 1
        }
        if runStart < lines.count {
            separate()
            renderLines(runStart..<lines.count, into: &out)
        }
    }

    /// The bytes of segment `index` in `buffer`, whose entries for it start at `start`.
    private func entries(_ index: Int, _ buffer: [UInt8], start: (Line) -> Int) -> ArraySlice<UInt8> {
        let end = index + 1 < lines.count ? start(lines[index + 1]) : buffer.count
        return buffer[start(lines[index])..<end]
    }

    private func renderLines(_ range: Range<Int>, into out: inout [UInt8]) {
        let multi = range.count > 1
        out += multi ? Self.multiLineHead : Self.lineHead
        for index in range {
            if index > range.lowerBound { out += Self.lineBreak }
            out += entries(index, positions) { $0.positionStart }
        }
        out += multi ? Self.multiTimesHead : Self.timesHead
        for index in range {
            if index > range.lowerBound { out += Self.lineBreak }
            out += entries(index, times) { $0.timeStart }
        }
        out += multi ? Self.multiEnd : Self.end
        if continuesPrevious && range.lowerBound == 0 { out += Self.continuedProperty }
        if marksPointFeatures { out += Self.pointFeaturesProperty }
        out += Self.featureEnd
    }

    private func renderPoints(_ index: Int, into out: inout [UInt8]) {
        let positions = entries(index, self.positions) { $0.positionStart }
        if lines[index].points == 1 {
            out += Self.pointHead
            out += positions
            out += Self.pointTimesHead
        } else {
            out += Self.multiPointHead
            out += positions
            out += Self.timesHead
        }
        out += entries(index, times) { $0.timeStart }
        out += Self.end
        if continuesPrevious && index == 0 { out += Self.continuedProperty }
        if marksPointFeatures { out += Self.pointFeaturesProperty }
        out += Self.featureEnd
    }

    /// Bytes the rendered feature takes, roughly (for flush decisions).
    var byteCount: Int { positions.count + times.count + 120 * lines.count }

    private static let separator = Array(",\n".utf8)
    private static let lineBreak = Array("],[".utf8)
    private static let lineHead = Array(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":["#.utf8)
    private static let multiLineHead = Array(
        #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[["#.utf8)
    private static let pointHead = Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":"#.utf8)
    private static let multiPointHead = Array(
        #"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":["#.utf8)
    private static let timesHead = Array(#"]},"properties":{"coordTimes":["#.utf8)
    private static let pointTimesHead = Array(#"},"properties":{"coordTimes":["#.utf8)
    private static let multiTimesHead = Array(#"]]},"properties":{"coordTimes":[["#.utf8)
    private static let end = Array("]".utf8)
    private static let multiEnd = Array("]]".utf8)
    private static let continuedProperty = Array(#","continued":true"#.utf8)
    private static let pointFeaturesProperty = Array(#","pointFeatures":true"#.utf8)
    private static let featureEnd = Array("}}".utf8)
}

/// The JSON text of positions, times and point features, each written through a ``TextBuffer`` and appended in one
/// piece.
enum GeoJSONText {
    /// `[lon,lat]` or `[lon,lat,ele]` (RFC 7946 order).
    static func appendPosition(_ fix: Fix, to out: inout [UInt8]) {
        TextBuffer.appending(to: &out) { writePosition(fix, to: &$0) }
    }

    /// `"2026-11-30T08:00:00Z"`, or `null` without a date and time.
    static func appendTime(_ fix: Fix, to out: inout [UInt8]) {
        TextBuffer.appending(to: &out) { writeTime(fix, to: &$0) }
    }

    /// A `Point` feature with the fix's properties; absent values are left out.
    static func appendPointFeature(_ fix: Fix, to out: inout [UInt8]) {
        TextBuffer.appending(to: &out) { writePointFeature(fix, to: &$0) }
    }

    private static func writePosition(_ fix: Fix, to text: inout TextBuffer) {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
        text.append(UInt8(ascii: "["))
        DecimalFormatter.withText(longitude, .shortest) { text.append($0) }
        text.append(UInt8(ascii: ","))
        DecimalFormatter.withText(latitude, .shortest) { text.append($0) }
        if let altitude = fix.altitudeMeters, altitude.isFinite {
            text.append(UInt8(ascii: ","))
            DecimalFormatter.withText(altitude, .shortest) { text.append($0) }
        }
        text.append(UInt8(ascii: "]"))
    }

    private static func writeTime(_ fix: Fix, to text: inout TextBuffer) {
        guard let date = fix.date, let time = fix.time else { return text.append("null") }
        text.append(UInt8(ascii: "\""))
        ISO8601.withText(date, time, fraction: .asSent) { text.append($0) }
        text.append(UInt8(ascii: "\""))
    }

    private static func writePointFeature(_ fix: Fix, to text: inout TextBuffer) {
        text.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":"#)
        writePosition(fix, to: &text)
        text.append(#"},"properties":{"#)
        var first = true
        func key(_ name: StaticString) {
            if !first { text.append(UInt8(ascii: ",")) }
            first = false
            text.append(UInt8(ascii: "\""))
            text.append(name)
            text.append("\":")
        }
        func number(_ name: StaticString, _ value: Double?, _ style: DecimalFormatter.Style = .shortest) {
            guard let value, value.isFinite else { return }
            key(name)
            DecimalFormatter.withText(value, style) { text.append($0) }
        }
        if fix.date != nil && fix.time != nil {
            key("time")
            writeTime(fix, to: &text)
        }
        number("ele", fix.altitudeMeters)
        number("speed", fix.speed, .maximumDecimals(Fix.speedDecimals))
        number("course", fix.courseDegrees.flatMap(GPXPoint.degreesTrue))
        if !fix.modeIsAssumed {
            key("fix")
            text.append(UInt8(ascii: "\""))
            text.append(GPXPoint.fixName(fix))
            text.append(UInt8(ascii: "\""))
            key("quality")
            text.append(UInt8(ascii: "\""))
            var name = fix.quality.name
            name.withUTF8 { text.append($0) }
            text.append(UInt8(ascii: "\""))
        }
        if let used = fix.satellitesUsed {
            key("sat")
            DecimalFormatter.withText(used) { text.append($0) }
        }
        number("hdop", fix.hdop)
        number("vdop", fix.vdop)
        number("pdop", fix.pdop)
        number("geoidheight", fix.geoidSeparationMeters)
        text.append("}}")
    }
}
