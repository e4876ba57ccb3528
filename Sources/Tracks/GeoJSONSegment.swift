import NMEA

/// One segment of a batch GeoJSON track written as one feature with exactly its fixes (``GeoJSONWriter``'s
/// whole-segment mode): its positions streamed into the document as they come, its times (and, with
/// `--points`, its Point features) set aside in ``Spool``s until the coordinates are closed. Constant memory.
///
/// **Every geometry is valid**, as in the live pieces (``GeoJSONPiece``): the geometry's type is decided by the
/// second distinct position. While the points share the first one's longitude and latitude, they are held (up to
/// ``heldPoints``); the segment then becomes a `LineString`, written `{"type":"LineString","coordinates":[…` as
/// usual, or, ending first, a `Point` (one fix) or `MultiPoint`. A receiver holding its position for more than
/// ``heldPoints`` fixes at a segment's start gets its coordinates written before its type, which then follows them
/// (`{"coordinates":[…],"type":"LineString"}`: JSON members have no order, and RFC 7946 asks none).
struct GeoJSONSegment {
    /// The most fixes held at one place before the coordinates are written ahead of the geometry's type.
    static let heldPoints = 4096

    private enum State {
        /// No point yet.
        case empty
        /// Every point so far at the first one's place: their positions held.
        case undecided
        /// A line, its head written with its type.
        case line
        /// Held too long: the head written without its type, which follows the coordinates.
        case spilled(isLine: Bool)
    }

    private var state = State.empty
    private var count = 0
    private var held: [UInt8] = []
    /// The first point's `lon,lat` text, to tell a second distinct position.
    private var firstPlace: [UInt8] = []
    /// The point's position text after a comma, `,[lon,lat(,ele)]`, and its time's text: remade for each point in
    /// the same arrays.
    private var separatedPosition: [UInt8] = []
    private var time: [UInt8] = []
    private var feature: [UInt8] = []
    let times: Spool
    /// The Point features of the segment's fixes (`--points`), each with its leading separator.
    let pointFeatures: Spool?
    /// The track's label properties (``TrackLabel``), written last in the feature's properties.
    var label: [UInt8] = []

    init(directory: String, includePoints: Bool) {
        times = Spool(directory: directory)
        pointFeatures = includePoints ? Spool(directory: directory) : nil
    }

    var isEmpty: Bool { count == 0 }

    typealias Output = (ArraySlice<UInt8>) throws(TrackError) -> Void

    /// Adds a point; `out` takes what is ready for the document.
    mutating func add(_ fix: Fix, path: String, _ out: Output) throws(TrackError) {
        separatedPosition.removeAll(keepingCapacity: true)
        separatedPosition.append(UInt8(ascii: ","))
        GeoJSONText.appendPosition(fix, to: &separatedPosition)
        let position = separatedPosition[1...]
        time.removeAll(keepingCapacity: true)
        if count > 0 { time.append(UInt8(ascii: ",")) }
        GeoJSONText.appendTime(fix, to: &time)
        do { try times.append(time) } catch {
            throw TrackError(path: path, operation: .write, code: error.rawValue, fileIsIntact: false)
        }
        if let pointFeatures {
            feature.removeAll(keepingCapacity: true)
            feature += Self.featureSeparator
            GeoJSONText.appendPointFeature(fix, to: &feature)
            do { try pointFeatures.append(feature) } catch {
                throw TrackError(path: path, operation: .write, code: error.rawValue, fileIsIntact: false)
            }
        }
        count += 1
        switch state {
        case .empty:
            held.removeAll(keepingCapacity: true)
            held += position
            firstPlace = Array(Self.place(position))
            state = .undecided
        case .undecided:
            if Self.place(position).elementsEqual(firstPlace) {
                held += separatedPosition
                if count > Self.heldPoints {
                    try out(Self.untypedHead[...])
                    try out(held[...])
                    held = []
                    state = .spilled(isLine: false)
                }
            } else {
                try out(Self.lineHead[...])
                try out(held[...])
                try out(separatedPosition[...])
                held = []
                state = .line
            }
        case .line:
            try out(separatedPosition[...])
        case .spilled(let isLine):
            try out(separatedPosition[...])
            if !isLine && !Self.place(position).elementsEqual(firstPlace) { state = .spilled(isLine: true) }
        }
    }

    /// Writes the rest of the segment's feature (its type, times and properties), then its Point features, and
    /// empties the segment for the next.
    mutating func close(_ out: Output) throws(TrackError) {
        let marked = pointFeatures != nil ? Array(#","pointFeatures":true"#.utf8) : []
        switch state {
        case .empty:
            return
        case .undecided:
            if count == 1 {
                try out(Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":"#.utf8)[...])
                try out(held[...])
                try out(Array(#"},"properties":{"coordTimes":["#.utf8)[...])
            } else {
                try out(Array(#"{"type":"Feature","geometry":{"type":"MultiPoint","coordinates":["#.utf8)[...])
                try out(held[...])
                try out(Array(#"]},"properties":{"coordTimes":["#.utf8)[...])
            }
        case .line:
            try out(Array(#"]},"properties":{"coordTimes":["#.utf8)[...])
        case .spilled(let isLine):
            try out(
                Array(#"],"type":"\#(isLine ? "LineString" : "MultiPoint")"},"properties":{"coordTimes":["#.utf8)[...])
        }
        try times.drain(out)
        try out((Array("]".utf8) + marked + label + Array("}}".utf8))[...])
        try pointFeatures?.drain(out)
        state = .empty
        count = 0
        held.removeAll(keepingCapacity: true)
    }

    /// `lon,lat` of a position's text `[lon,lat(,ele)]`.
    private static func place(_ position: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var commas = 0
        var end = position.startIndex + 1
        while end < position.endIndex {
            if position[end] == UInt8(ascii: "]") { break }
            if position[end] == UInt8(ascii: ",") {
                commas += 1
                if commas == 2 { break }
            }
            end += 1
        }
        return position[(position.startIndex + 1)..<end]
    }

    private static let featureSeparator = Array(",\n".utf8)

    private static let lineHead = Array(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":["#.utf8)
    private static let untypedHead = Array(#"{"type":"Feature","geometry":{"coordinates":["#.utf8)
}
