import NMEA
import System

/// Writes fixes as a GPX 1.1 track (`trk`/`trkseg`/`trkpt`) that is a complete, schema-valid document after every
/// flush, whatever happens to the process after it.
///
///     let writer = try GPXWriter(path: "drive.gpx", options: TrackOptions(flush: .everyFix))
///     assembler.add(parsed) { fix in try? writer.write(fix) }
///     try writer.finish()
///
/// On a regular file, each flush uses ``DocumentFile``'s inert-region protocol, so a SIGKILL at any moment leaves a
/// document holding every fix flushed before it. Pipes and devices are written as a stream, complete at the end.
/// Memory: the bytes waiting for the next flush, at most about one batch.
public final class GPXWriter: TrackWriter {
    public let options: TrackOptions
    public let version: GPXVersion
    public var statistics: TrackStatistics { document.statistics }
    public var path: String { document.path }
    // The properties each point changes are not checked for overlapping access at run time (five checks a point, a
    // sixth of writing one once its numbers were memoised): a writer is used from one thread at a time, and no
    // method of it passes one of them `inout` while another access to the same one is open.
    @exclusivity(unchecked) private var document: AppendingDocument
    @exclusivity(unchecked) private var segmenter: TrackSegmenter
    /// Whether the content so far (including what is pending) leaves a `trkseg` open.
    private var segmentIsOpen = false
    /// Waypoints and routes, put before the track at ``finish()``.
    private var navigation = Navigation()
    /// Where `<trk>` begins: waypoints and routes go before it.
    private var trackOffset = 0
    private let isStream: Bool
    /// The bytes before `<trk>`, once read back (``committedPoints(last:)``).
    private var continuedHead: [UInt8]?
    /// Whether the open `trk` has a label or points, so that the next label needs a `trk` of its own.
    private var trackIsUsed = false
    /// The last point's elements, for the next point to copy what it repeats.
    @exclusivity(unchecked) private var memos = GPXPoint.Memos()

    /// Creates (or empties) the GPX file at `path` and writes an empty track to it.
    /// - Parameter creator: the `creator` attribute (escaped as needed).
    public init(
        path: String, options: TrackOptions = TrackOptions(), version: GPXVersion = .v11,
        creator: String = "swift-nmea"
    ) throws(TrackError) {
        self.options = options
        self.version = version
        document = AppendingDocument(
            try DocumentFile(path: path, kind: .xml, sync: options.sync, publication: options.publication),
            flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        isStream = false
        try start(creator: creator)
    }

    /// Writes to an open descriptor (standard output) as a stream, complete when ``finish()`` writes the end.
    public init(
        streamingTo fd: FileDescriptor, name: String = "<stdout>", options: TrackOptions = TrackOptions(),
        version: GPXVersion = .v11, creator: String = "swift-nmea"
    ) throws(TrackError) {
        self.options = options
        self.version = version
        document = AppendingDocument(DocumentFile(streamingTo: fd, name: name), flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        isStream = true
        try start(creator: creator)
    }

    /// Continues, in place, the GPX file at `path` that a `GPXWriter` left (live, killed at any moment, or finished):
    /// the next points go after its last one, in its open segment when the split gap allows (a finished file gets
    /// its inert space back; see ``DocumentFile``). The file keeps its version and creator. ``statistics`` count
    /// what this writer adds.
    /// - Throws: ``TrackError``, with ``TrackError/Operation/reopen`` when the file is missing or unreadable (its
    ///   `errno`) or is not a GPX document as this writer leaves it (`EINVAL`); the file is then as it was.
    public init(continuing path: String, options: TrackOptions = TrackOptions()) throws(TrackError) {
        self.options = options
        var (file, tailIndex) = try DocumentFile.continuing(
            path: path, kind: .xml, sync: options.sync, tails: [Self.tailInSegment, Self.tailOutsideSegment])
        let head: [UInt8]
        let lastPoint: Fix?
        do throws(TrackError) {
            // The head is ours: the XML declaration, `<gpx version="…"`, and the track on a line of its own.
            let start = try file.read(from: 0, count: min(file.tailOffset, 65_536))
            let declaration = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"".utf8)
            let versions: [GPXVersion] = [.v11, .v10]
            guard start.starts(with: declaration),
                let found = versions.first(where: {
                    start.dropFirst(declaration.count).starts(with: Array("\($0.rawValue)\"".utf8))
                }),
                let track = firstIndex(of: Array("\n  <trk>\n".utf8), in: start[...])
            else {
                throw TrackError(
                    path: path, operation: .reopen, code: Errno.invalidArgument.rawValue, fileIsIntact: true)
            }
            version = found
            head = Array(start[...track])
            lastPoint =
                tailIndex == 0
                ? try file.lastPoints(
                    1, format: .gpx, contentStart: head.count, bytesPerPoint: 400, minimumWindow: 4096,
                    wrap: Self.wrap(head: head, segmentIsOpen: true)
                ).last : nil
        } catch {
            file.closeDescriptor()
            throw error
        }
        document = AppendingDocument(file, flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        segmentIsOpen = tailIndex == 0
        if segmentIsOpen { segmenter.resume(afterPointAt: lastPoint?.timestamp) }
        trackOffset = head.count
        continuedHead = head
        isStream = false
    }

    deinit { document.closeDescriptor() }

    /// The last `count` points the file holds up to the last flush, oldest first: what a writer continuing a file
    /// already has (a collector that must not write a redelivered position twice). Reads back about 250 bytes a
    /// point, from the end. For a continued writer: a new file is open for writing only.
    /// - Throws: ``TrackError`` (``TrackError/Operation/reopen``) when the file cannot be read back.
    public func committedPoints(last count: Int) throws(TrackError) -> [Fix] {
        guard !isStream, count > 0 else { return [] }
        return try document.file.lastPoints(
            count, format: .gpx, contentStart: trackOffset, bytesPerPoint: 300, minimumWindow: 4096,
            wrap: Self.wrap(head: try head(), segmentIsOpen: segmentIsOpen))
    }

    /// Hands every point the file holds up to the last flush to `body`, in order, reading it from the start in
    /// pieces (a whole day's track, without holding it): to make another file of the same track. For a continued
    /// writer, as ``committedPoints(last:)``.
    public func forEachCommittedPoint(_ body: (Fix) -> Void) throws(TrackError) {
        guard !isStream else { return }
        try document.file.forEachPoint(format: .gpx, closing: tail, body)
    }

    /// The document's bytes before `<trk>`.
    private func head() throws(TrackError) -> [UInt8] {
        if let continuedHead { return continuedHead }
        let head = try document.file.read(from: 0, count: trackOffset)
        continuedHead = head
        return head
    }

    /// Makes a window of the content (from a point on) a document of its own: the head, a track and a segment
    /// around the points from the first whole one, and the tail. The whole content needs only the head and tail.
    private static func wrap(head: [UInt8], segmentIsOpen: Bool) -> (ArraySlice<UInt8>, Bool) -> [UInt8]? {
        { window, isWhole in
            if isWhole { return head + window + (segmentIsOpen ? tailInSegment : tailOutsideSegment) }
            guard let start = firstIndex(of: Array("\n      <trkpt".utf8), in: window) else { return nil }
            return head + Array("  <trk>\n".utf8) + segmentStart + window.dropFirst(start + 1) + tailInSegment
        }
    }

    private func start(creator: String) throws(TrackError) {
        var head = Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"\(version.rawValue)\" creator=\"".utf8)
        TextEscaping.appendXML(creator, to: &head)
        let namespaces = version == .v11 ? GPXPoint.namespaces : GPXPoint.namespaces10
        head += Array("\" \(namespaces)>\n".utf8)
        trackOffset = head.count
        head += Array("  <trk>\n".utf8)
        try document.start(head: head, tail: tail)
    }

    public func write(_ fix: Fix) throws(TrackError) {
        precondition(!document.isFinished, "GPXWriter used after finish()")
        document.counts.fixes += 1
        switch segmenter.place(fix) {
        case .skip:
            document.counts.skipped += 1
            return
        case .newSegment:
            if segmentIsOpen { document.pending += Self.segmentEnd }
            document.pending += Self.segmentStart
            segmentIsOpen = true
            document.counts.segments += 1
        case .continueSegment:
            break
        }
        GPXPoint.append(fix, version: version, memos: &memos, to: &document.pending)
        trackIsUsed = true
        document.counts.points += 1
        try document.pointAdded(tail: tail)
    }

    public func flush() throws(TrackError) { try document.flush(tail: tail) }

    /// Ends the open `trk` (unless it is still empty) and starts one named `label`'s title, with the label's key and
    /// identifier as its `desc` (`mmsi 211000001`).
    public func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool {
        precondition(!document.isFinished, "GPXWriter used after finish()")
        if segmentIsOpen {
            document.pending += Self.segmentEnd
            segmentIsOpen = false
        }
        if trackIsUsed { document.pending += Array("  </trk>\n  <trk>\n".utf8) }
        document.pending += Array("    <name>".utf8)
        TextEscaping.appendXML(label.title, to: &document.pending)
        document.pending += Array("</name>\n    <desc>".utf8)
        TextEscaping.appendXML("\(label.key) \(label.identifier)", to: &document.pending)
        document.pending += Array("</desc>\n".utf8)
        trackIsUsed = true
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        return true
    }

    public func finish() throws(TrackError) {
        try document.finish(tail: tail)
        guard !navigation.isEmpty else { return }
        var text: [UInt8] = []
        for waypoint in navigation.waypoints {
            Self.appendPoint("wpt", waypoint, indent: "  ", to: &text)
            document.counts.waypoints += 1
        }
        for route in navigation.routes {
            let points = navigation.placedPoints(of: route).points
            guard !points.isEmpty else { continue }
            text += Array("  <rte>\n    <name>".utf8)
            TextEscaping.appendXML(route.name, to: &text)
            text += Array("</name>\n".utf8)
            for point in points { Self.appendPoint("rtept", point, indent: "    ", to: &text) }
            text += Array("  </rte>\n".utf8)
            document.counts.routes += 1
        }
        try document.insert(text, at: trackOffset)
    }

    /// Keeps the waypoints and routes for ``finish()``, which puts them before the track (where the schema wants
    /// them) by writing the finished file again beside itself; a stream is past that place.
    public func setNavigation(_ navigation: Navigation) -> Bool {
        guard !isStream else { return false }
        self.navigation = navigation
        return true
    }

    /// `<wpt lat="…" lon="…"><name>…</name></wpt>` (or `rtept`) and a newline.
    private static func appendPoint(
        _ element: String, _ waypoint: Navigation.Waypoint, indent: String, to out: inout [UInt8]
    ) {
        out += Array("\(indent)<\(element)".utf8)
        GPXPoint.appendCoordinates(waypoint.latitude, waypoint.longitude, to: &out)
        out += Array("><name>".utf8)
        TextEscaping.appendXML(waypoint.name, to: &out)
        out += Array("</name></\(element)>\n".utf8)
    }

    public var isPublished: Bool { document.file.isPublished }

    public func publish() throws(TrackError) { try document.publish() }

    public func discard() { document.discard(tail: tail) }

    private var tail: [UInt8] { segmentIsOpen ? Self.tailInSegment : Self.tailOutsideSegment }

    static let segmentStart = Array("    <trkseg>\n".utf8)
    static let segmentEnd = Array("    </trkseg>\n".utf8)
    static let tailInSegment = Array("    </trkseg>\n  </trk>\n</gpx>\n".utf8)
    static let tailOutsideSegment = Array("  </trk>\n</gpx>\n".utf8)
}
