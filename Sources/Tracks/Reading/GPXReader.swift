import NMEA

/// Reads GPX 1.0 and 1.1 (tracks, routes; waypoints counted) as fixes, streaming, so `nmea convert`, `trips` and
/// `plot` take other apps' tracks as they take NMEA.
///
/// Each `<trkpt>` and `<rtept>` becomes a fix: position, `<ele>`, `<time>`, speed and course (GPX 1.0's `<speed>` and
/// `<course>`, or Garmin's TrackPointExtension `speed`/`course` in GPX 1.1), `<sat>`, `<hdop>`, `<vdop>`, `<pdop>`,
/// and `<fix>` (`none`, `2d`, `3d`, `dgps`, `pps`; without it, 3D with an elevation, 2D without). Each `<trkseg>` and
/// `<rte>` ends with a fix without a position, so segments stay segments. A point whose `lat`/`lon` are missing or
/// out of range, or whose time cannot be read, is counted in ``statistics`` and passed over; malformed XML throws
/// ``TrackReadError`` with its line. Memory: the tokenizer's bounded buffers and one point.
public struct GPXReader: Sendable {
    public private(set) var statistics = TrackReadStatistics()
    private var tokenizer = XMLTokenizer()
    /// The open `<trkpt>` or `<rtept>` (when ``inPoint``), changed in place: a fix is over a kilobyte.
    private var point = Fix()
    private var inPoint = false
    private var pointIsValid = false
    private var element: String?
    private var sawBOMCheck = false
    /// Set when the root element is not `<gpx>`.
    private var rootChecked = false

    public init() {}

    static let valueElements: Set<String> = [
        "ele", "time", "speed", "course", "sat", "hdop", "vdop", "pdop", "fix", "magvar", "geoidheight",
    ]

    /// Reads the next bytes of the file; `emit` receives each point's fix and a break after each segment.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        let bytes = sawBOMCheck ? bytes : withoutByteOrderMark(bytes)
        sawBOMCheck = true
        var tokenizer = self.tokenizer
        defer { self.tokenizer = tokenizer }
        let keepText: (String?) -> Bool = { Self.valueElements.contains($0 ?? "") }
        try tokenizer.feed(bytes, keepText: keepText) { (token, line) throws(TrackReadError) in
            try handle(token, line: line, emit)
        }
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
                    throw TrackReadError(line: line, "the root element is <\(name)>, not <gpx>")
                }
            }
            switch name {
            case "trkpt", "rtept":
                point = Fix(quality: .gps)
                inPoint = true
                let latitude = attributes["lat"].flatMap { Double($0.trimmingSpaces()) }
                let longitude = attributes["lon"].flatMap { Double($0.trimmingSpaces()) }
                pointIsValid = false
                if let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180 {
                    point.latitude = latitude
                    point.longitude = longitude
                    pointIsValid = true
                }
            case "wpt":
                statistics.waypoints += 1
            default:
                element = name
            }
        case .text(let text):
            guard inPoint, let element else { return }
            if !apply(element, text.trimmingSpaces()) { pointIsValid = false }
        case .end(let name):
            switch name {
            case "trkpt", "rtept":
                if inPoint && pointIsValid {
                    if point.mode == .none && point.quality != .none {
                        point.mode = point.altitudeMeters == nil ? .twoD : .threeD
                    }
                    if point.quality == .none { point.mode = .none }
                    statistics.points += 1
                    emit(point)
                } else {
                    statistics.rejectedPoints += 1
                }
                inPoint = false
            case "trkseg", "rte":
                statistics.segments += 1
                emit(Fix())
            default:
                break
            }
            element = nil
        }
    }

    /// Sets one value of the open point; `false` when the text is not what the element holds.
    private mutating func apply(_ element: String, _ text: String) -> Bool {
        guard inPoint else { return true }
        func number() -> Double? { Double(text).flatMap { $0.isFinite ? $0 : nil } }
        switch element {
        case "ele": point.altitudeMeters = number()
        case "speed": point.speed = number()
        case "course": point.courseDegrees = number()
        case "magvar": point.magneticVariationDegrees = number()
        case "geoidheight": point.geoidSeparationMeters = number()
        case "hdop": point.hdop = number()
        case "vdop": point.vdop = number()
        case "pdop": point.pdop = number()
        case "sat": point.satellitesUsed = Int(text)
        case "fix":
            switch text {
            case "none": point.quality = .none
            case "2d": point.mode = .twoD
            case "3d": point.mode = .threeD
            case "dgps": point.quality = .differential
            case "pps": point.quality = .precise
            default: break
            }
        case "time":
            guard let moment = ISO8601.parse(text) else { return false }
            (point.date, point.time) = Self.dateAndTime(moment, text: text)
        default: break
        }
        return true
    }

    /// The date and time of `moment` (nanoseconds since 1970), with as many fraction digits as `text` had.
    static func dateAndTime(_ moment: Int64, text: String) -> (UTCDate, UTCTime) {
        let day: Int64 = 86_400_000_000_000
        let days = moment >= 0 ? moment / day : (moment + 1) / day - 1
        let ofDay = moment - days * day
        let seconds = ofDay / 1_000_000_000
        let time = UTCTime(
            hour: UInt8(seconds / 3600), minute: UInt8(seconds / 60 % 60), second: UInt8(seconds % 60),
            nanoseconds: UInt32(ofDay % 1_000_000_000), fractionDigits: fractionDigits(text))
        return (UTCDate(daysSinceEpoch: Int(days)), time)
    }

    /// How many digits the time's fraction of a second had, so it is written back as given.
    static func fractionDigits(_ text: String) -> UInt8 {
        let utf8 = text.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        let digits = utf8[utf8.index(after: dot)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return UInt8(min(digits.count, 9))
    }
}
