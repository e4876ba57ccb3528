import NMEA
import System

/// Writes fixes as CSV (RFC 4180): a header row of the chosen ``Column``s, then a row per point, with a `segment`
/// column when asked for so segment breaks survive. Numbers are written by the one number writer, shortest digits;
/// times are ISO 8601 UTC; an absent value is an empty field. No field of these columns can hold a comma, a quote or
/// a line break, so none needs RFC 4180's quotes. Rows end in CRLF, as RFC 4180 has it.
///
/// On a regular file each flush appends its rows with one `pwrite` (``DocumentFile``'s lines kind): a SIGKILL can cut
/// only the last row.
public final class CSVWriter: TrackWriter {
    /// A column of the CSV, by its header name.
    public enum Column: String, Sendable, Hashable, CaseIterable {
        case time, lat, lon, ele, speed, course, hdop, vdop, pdop, sats, fix, segment
    }

    public static let defaultColumns: [Column] = [.time, .lat, .lon, .ele, .speed, .course, .hdop, .sats]

    public let options: TrackOptions
    public let columns: [Column]
    public private(set) var statistics = TrackStatistics()
    public var path: String { file.path }
    private var file: DocumentFile
    private var segmenter: TrackSegmenter
    private var pending: [UInt8] = []
    private var isFinished = false

    public init(path: String, columns: [Column] = defaultColumns, options: TrackOptions = TrackOptions())
        throws(TrackError)
    {
        self.options = options
        self.columns = columns
        file = try DocumentFile(path: path, kind: .lines, sync: options.sync, publication: options.publication)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start()
    }

    public init(
        streamingTo fd: FileDescriptor, name: String = "<stdout>", columns: [Column] = defaultColumns,
        options: TrackOptions = TrackOptions()
    ) throws(TrackError) {
        self.options = options
        self.columns = columns
        file = DocumentFile(streamingTo: fd, name: name)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start()
    }

    deinit { file.closeDescriptor() }

    private func start() throws(TrackError) {
        let header = Array((columns.map(\.rawValue).joined(separator: ",") + "\r\n").utf8)
        do {
            try file.start(head: header, tail: [])
        } catch {
            file.closeDescriptor()
            throw error
        }
    }

    public func write(_ fix: Fix) throws(TrackError) {
        precondition(!isFinished, "CSVWriter used after finish()")
        statistics.fixes += 1
        switch segmenter.place(fix) {
        case .skip:
            statistics.skipped += 1
            return
        case .newSegment:
            statistics.segments += 1
        case .continueSegment:
            break
        }
        appendRow(fix)
        statistics.points += 1
        if case .everyFix = options.flush {
            try flush()
        } else if case .batch(let bytes) = options.flush, pending.count >= max(bytes, 1) {
            try flush()
        }
    }

    private func appendRow(_ fix: Fix) {
        for (index, column) in columns.enumerated() {
            if index > 0 { pending.append(UInt8(ascii: ",")) }
            switch column {
            case .time: if fix.date != nil && fix.time != nil { fix.appendISO8601(to: &pending) }
            case .lat: number(fix.latitude)
            case .lon: number(fix.longitude)
            case .ele: number(fix.altitudeMeters)
            case .speed:
                if let speed = fix.speed, speed.isFinite {
                    DecimalFormatter.append(speed, .maximumDecimals(Fix.speedDecimals), to: &pending)
                }
            case .course: number(fix.courseDegrees.flatMap(GPXPoint.degreesTrue))
            case .hdop: number(fix.hdop)
            case .vdop: number(fix.vdop)
            case .pdop: number(fix.pdop)
            case .sats: if let used = fix.satellitesUsed, used >= 0 { DecimalFormatter.append(used, to: &pending) }
            case .fix: pending += Array(GPXPoint.fixName(fix).utf8)
            case .segment: DecimalFormatter.append(statistics.segments, to: &pending)
            }
        }
        pending += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    private func number(_ value: Double?) {
        if let value, value.isFinite { DecimalFormatter.append(value, to: &pending) }
    }

    public func flush() throws(TrackError) {
        guard !pending.isEmpty else { return }
        try file.append(pending, newTail: [])
        pending.removeAll(keepingCapacity: true)
        statistics.flushes += 1
    }

    public func finish() throws(TrackError) {
        guard !isFinished else { return }
        isFinished = true
        do {
            try flush()
        } catch {
            file.closeDescriptor()
            throw error
        }
        try file.finish()
    }

    public func discard() {
        if file.isPublished && !isFinished {
            try? finish()
        }
        isFinished = true
        file.closeDescriptor()
    }
}
