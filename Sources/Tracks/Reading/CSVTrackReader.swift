import NMEA

/// Reads CSV tracks (RFC 4180) as fixes, streaming row by row: ours (`nmea convert -o track.csv`, any `--columns`)
/// and the common layouts of loggers and GPSBabel's `unicsv`, told by a header row that names a latitude and a
/// longitude column.
///
/// Columns, by header name (case and surrounding spaces ignored; others are passed over): `lat`/`latitude`,
/// `lon`/`lng`/`long`/`longitude`, `ele`/`alt`/`altitude`/`elevation` (metres), `time` (ISO 8601, any
/// `xsd:dateTime` form, a space for the `T` too; or Unix seconds), with a `date` column beside a time of day,
/// `speed` (m/s, as ours), `course`/`heading` (degrees), `hdop`, `vdop`, `pdop`, `sats`/`satellites`, `fix` (ours:
/// `none`, `2d`, `3d`, `dgps`, `pps`) and `segment` (a new number starts a new segment). The separator is the
/// header's: a comma, a semicolon or a tab. Fields may be quoted (`"…"`, `""` for a quote).
///
/// A row without a usable position, or with a time that cannot be read, is counted and passed over; a header
/// without both coordinates, or a line longer than ``maximumLineBytes``, throws ``TrackReadError``.
public struct CSVTrackReader: Sendable {
    public private(set) var statistics = TrackReadStatistics()
    public let maximumLineBytes: Int
    private var line: [UInt8] = []
    private var lineNumber = 0
    private var columns: [Column?] = []
    private var separator = UInt8(ascii: ",")
    private var lastSegment: String?
    private var segmentOpen = false
    private var sawBOMCheck = false

    enum Column: Sendable {
        case latitude, longitude, altitude, time, date, speed, course, hdop, vdop, pdop, satellites, fix, segment
    }

    public init(maximumLineBytes: Int = 64 * 1024) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// `true` when `line` (a file's first line) is a header naming a latitude and a longitude column.
    public static func isHeader(_ line: some Collection<UInt8>) -> Bool {
        header(Array(line)) != nil
    }

    /// The header's columns and separator, when it names both coordinates.
    static func header(_ line: [UInt8]) -> (columns: [Column?], separator: UInt8)? {
        for separator in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")] {
            let columns = fields(line, separator: separator).map { column(named: $0) }
            if columns.contains(where: { $0 == .latitude }) && columns.contains(where: { $0 == .longitude }) {
                return (columns, separator)
            }
        }
        return nil
    }

    static func column(named text: String) -> Column? {
        switch text.trimmingSpaces().lowercased() {
        case "lat", "latitude": .latitude
        case "lon", "lng", "long", "longitude": .longitude
        case "ele", "alt", "altitude", "elevation": .altitude
        case "time", "timestamp", "datetime", "date_time", "utc": .time
        case "date": .date
        case "speed": .speed
        case "course", "heading": .course
        case "hdop": .hdop
        case "vdop": .vdop
        case "pdop": .pdop
        case "sats", "satellites", "sat": .satellites
        case "fix": .fix
        case "segment": .segment
        default: nil
        }
    }

    /// Reads the next bytes of the file; `emit` receives each row's fix and a break between segments.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws(TrackReadError) {
        let bytes = sawBOMCheck ? bytes : withoutByteOrderMark(bytes)
        sawBOMCheck = true
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            start = index + 1
            try endLine(emit)
        }
        line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        if line.count > maximumLineBytes {
            throw TrackReadError(line: lineNumber + 1, "a line longer than \(maximumLineBytes) bytes (is it CSV?)")
        }
    }

    /// Reads a last row without a line end.
    public mutating func finish(_ emit: (Fix) -> Void) throws(TrackReadError) {
        if !line.isEmpty { try endLine(emit) }
        if lineNumber == 0 { throw TrackReadError(line: 1, "no header row") }
    }

    private mutating func endLine(_ emit: (Fix) -> Void) throws(TrackReadError) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if lineNumber == 1 {
            guard let header = Self.header(line) else {
                throw TrackReadError(line: 1, "the header row names no latitude and longitude column")
            }
            (columns, separator) = header
            return
        }
        guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return }
        row(Self.fields(line, separator: separator), emit)
    }

    private mutating func row(_ fields: [String], _ emit: (Fix) -> Void) {
        func value(_ column: Column) -> String? {
            guard let index = columns.firstIndex(where: { $0 == column }), index < fields.count else { return nil }
            let text = fields[index].trimmingSpaces()
            return text.isEmpty ? nil : text
        }
        func number(_ column: Column) -> Double? { value(column).flatMap(TrackPoint.number) }
        guard let latitude = number(.latitude), let longitude = number(.longitude),
            var fix = TrackPoint.fix(latitude: latitude, longitude: longitude, altitude: number(.altitude))
        else {
            statistics.rejectedPoints += 1
            return
        }
        if let time = value(.time), !setTime(time, date: value(.date), of: &fix) {
            statistics.rejectedPoints += 1
            return
        }
        fix.speed = number(.speed)
        fix.courseDegrees = number(.course)
        fix.hdop = number(.hdop)
        fix.vdop = number(.vdop)
        fix.pdop = number(.pdop)
        fix.satellitesUsed = value(.satellites).flatMap { Int($0) }
        if let name = value(.fix) { TrackPoint.setFixType(name, of: &fix) }
        let segment = value(.segment)
        if !segmentOpen || segment != lastSegment {
            if segmentOpen { emit(Fix()) }
            segmentOpen = true
            lastSegment = segment
            statistics.segments += 1
        }
        statistics.points += 1
        emit(fix)
    }

    /// A row's time: a full date and time, Unix seconds, or a time of day with the `date` column.
    private func setTime(_ time: String, date: String?, of fix: inout Fix) -> Bool {
        // ISO 8601, with a space for the `T` as spreadsheets write it.
        var iso = time
        if let space = iso.firstIndex(of: " "), iso.distance(from: iso.startIndex, to: space) == 10 {
            iso.replaceSubrange(space...space, with: "T")
        }
        if TrackPoint.setTime(iso, of: &fix) { return true }
        if let seconds = Double(time), seconds.isFinite, abs(seconds) < 1e11 {
            let moment = Int64((seconds * 1e9).rounded())
            let digits = UInt8(time.split(separator: ".").dropFirst().first?.count ?? 0)
            (fix.date, fix.time) = UTCDate.moment(nanosecondsSinceEpoch: moment, fractionDigits: min(digits, 9))
            return true
        }
        guard let date else { return false }
        return TrackPoint.setTime(date + "T" + time, of: &fix)
    }

    /// The fields of one line: RFC 4180, quotes optional.
    static func fields(_ line: [UInt8], separator: UInt8) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = 0
        while index < line.count {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < line.count && line[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.allSatisfy({ $0 == UInt8(ascii: " ") }) {
                quoted = true
                field.removeAll()
            } else if byte == separator {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll()
            } else {
                field.append(byte)
            }
            index += 1
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
