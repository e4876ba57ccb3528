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
    /// With a label key (`mmsi`), each row begins with its track's identifier and name (``beginTrack(_:)``), under
    /// the headers `mmsi,name`.
    public let labelKey: String?
    public var statistics: TrackStatistics { document.statistics }
    public var path: String { document.path }
    private var document: AppendingDocument
    private var segmenter: TrackSegmenter
    /// The identifier and name fields of the track being written, with their commas.
    private var labelFields: [UInt8] = []
    /// Each column's last text (``appendRow(_:)``).
    private var memos: [TextMemo]

    public init(
        path: String, columns: [Column] = defaultColumns, options: TrackOptions = TrackOptions(),
        labelKey: String? = nil
    ) throws(TrackError) {
        self.options = options
        self.columns = columns
        self.labelKey = labelKey
        memos = Array(repeating: TextMemo(), count: columns.count)
        document = AppendingDocument(
            try DocumentFile(path: path, kind: .lines, sync: options.sync, publication: options.publication),
            flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start()
    }

    public init(
        streamingTo fd: FileDescriptor, name: String = "<stdout>", columns: [Column] = defaultColumns,
        options: TrackOptions = TrackOptions(), labelKey: String? = nil
    ) throws(TrackError) {
        self.options = options
        self.columns = columns
        self.labelKey = labelKey
        memos = Array(repeating: TextMemo(), count: columns.count)
        document = AppendingDocument(DocumentFile(streamingTo: fd, name: name), flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start()
    }

    deinit { document.closeDescriptor() }

    private func start() throws(TrackError) {
        let names = (labelKey.map { [$0, "name"] } ?? []) + columns.map(\.rawValue)
        let header = Array((names.joined(separator: ",") + "\r\n").utf8)
        try document.start(head: header, tail: [])
    }

    /// The rows that follow begin with `label`'s identifier and name, when the writer has a label key.
    public func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool {
        guard labelKey != nil else { return false }
        labelFields = []
        DecimalFormatter.append(label.identifier, to: &labelFields)
        labelFields.append(UInt8(ascii: ","))
        if let name = label.name { Self.appendField(name, to: &labelFields) }
        labelFields.append(UInt8(ascii: ","))
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        return true
    }

    /// `text` as one field: in double quotes, its own doubled, when it holds a comma, a quote or a line break
    /// (RFC 4180).
    static func appendField(_ text: String, to out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { [UInt8(ascii: ","), UInt8(ascii: "\""), 13, 10].contains($0) }) else {
            out += bytes
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }

    public func write(_ fix: Fix) throws(TrackError) {
        precondition(!document.isFinished, "CSVWriter used after finish()")
        document.counts.fixes += 1
        switch segmenter.place(fix) {
        case .skip:
            document.counts.skipped += 1
            return
        case .newSegment:
            document.counts.segments += 1
        case .continueSegment:
            break
        }
        appendRow(fix)
        document.counts.points += 1
        try document.pointAdded(tail: tail)
    }

    /// Appends the row through a ``TextBuffer``, each number column copying its text from the last row when its value
    /// is the same (``TextMemo``: a receiver repeats most of them).
    private func appendRow(_ fix: Fix) {
        let segment = document.counts.segments
        memos.withUnsafeMutableBufferPointer { memos in
            TextBuffer.appending(to: &document.pending) { text in
                labelFields.withUnsafeBufferPointer { text.append($0) }
                func number(
                    _ value: Double?, _ memo: inout TextMemo, _ style: DecimalFormatter.Style = .shortest
                ) {
                    guard let value, value.isFinite else { return }
                    text.append(memo: &memo, key: value.bitPattern) { text in
                        DecimalFormatter.withText(value, style) { text.append($0) }
                    }
                }
                for (index, column) in columns.enumerated() {
                    if index > 0 { text.append(UInt8(ascii: ",")) }
                    switch column {
                    case .time:
                        if let date = fix.date, let time = fix.time {
                            ISO8601.withText(date, time, fraction: .asSent) { text.append($0) }
                        }
                    case .lat: number(fix.latitude, &memos[index])
                    case .lon: number(fix.longitude, &memos[index])
                    case .ele: number(fix.altitudeMeters, &memos[index])
                    case .speed: number(fix.speed, &memos[index], .maximumDecimals(Fix.speedDecimals))
                    case .course: number(fix.courseDegrees.flatMap(GPXPoint.degreesTrue), &memos[index])
                    case .hdop: number(fix.hdop, &memos[index])
                    case .vdop: number(fix.vdop, &memos[index])
                    case .pdop: number(fix.pdop, &memos[index])
                    case .sats:
                        if let used = fix.satellitesUsed, used >= 0 {
                            text.append(memo: &memos[index], key: UInt64(bitPattern: Int64(used))) { text in
                                DecimalFormatter.withText(used) { text.append($0) }
                            }
                        }
                    case .fix: if !fix.modeIsAssumed { text.append(GPXPoint.fixName(fix)) }
                    case .segment: DecimalFormatter.withText(segment) { text.append($0) }
                    }
                }
                text.append("\r\n")
            }
        }
    }

    public func flush() throws(TrackError) { try document.flush(tail: tail) }

    public func finish() throws(TrackError) { try document.finish(tail: tail) }

    public var isPublished: Bool { document.file.isPublished }

    public func publish() throws(TrackError) { try document.publish() }

    public func discard() { document.discard(tail: tail) }

    /// CSV has no closing text.
    private let tail: [UInt8] = []
}
