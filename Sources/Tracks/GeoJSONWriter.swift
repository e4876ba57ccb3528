import JSON
import NMEA
import System

/// Writes fixes as an RFC 7946 GeoJSON `FeatureCollection`, in one of two ways.
///
/// **A batch file** (converting files: not in place until finished, flushed in batches;
/// ``Options/writesWholeSegments``) has one feature per segment with exactly its fixes, what every GIS reader
/// expects: the positions are streamed into the file as they come, and the times, which GeoJSON keeps in a second
/// array of the same feature (`properties.coordTimes`), wait in a ``Spool`` beside the output (memory, then an
/// unnamed file) until the coordinates close (``GeoJSONSegment``). Constant memory, each byte written once more.
///
/// **A live file** (in place from its first point and a complete document after every flush) cannot hold a growing
/// line's two arrays apart, so the track is cut into *pieces* of at most ``Options/pointsPerFeature`` points. The
/// open piece is held in memory as encoded text (two buffers, a few tens of kilobytes) and rewritten, whole, at the
/// end of the file on each flush; once full it is final and never touched again, and the next piece begins with the
/// last point of the one before (marked `"continued":true`, which our reader joins back), so lines stay joined and
/// summed lengths stay exact. A short track is one `LineString` feature (a `MultiLineString` when it has several
/// segments); a long one is several such features. The cost is rewriting the open piece on each flush: at most
/// `pointsPerFeature` points (about 35 KB at the default 500) per flush; a live logger flushing every fix at 1 Hz
/// rewrites about 17 KB a second on average — lower `pointsPerFeature` for flash media that mind.
///
/// With ``Options/includePoints``, every fix also becomes a `Point` feature with its properties (`time`, `ele`,
/// `speed`, `course`, `fix`, `quality`, `sat`, `hdop`, `vdop`, `pdop`, `geoidheight`), and each line says so
/// (`"pointFeatures":true`) for readers that would otherwise take each fix twice.
///
/// Crash safety: see ``DocumentFile`` — each flush is one `pwrite` over the old tail, after growing the file with
/// spaces so a full disk fails harmlessly; a SIGKILL during a write of several pages can still cut it.
public final class GeoJSONWriter: TrackWriter {
    public struct Options: Sendable, Hashable {
        public var track: TrackOptions
        /// Add a `Point` feature per fix.
        public var includePoints: Bool
        /// The most points in one line feature before the track continues in the next.
        public var pointsPerFeature: Int

        public init(track: TrackOptions = TrackOptions(), includePoints: Bool = false, pointsPerFeature: Int = 500) {
            self.track = track
            self.includePoints = includePoints
            self.pointsPerFeature = pointsPerFeature
        }

        /// `true` for a batch file (not in place before it is finished, not flushed point by point): each segment
        /// is one feature with exactly its fixes (``GeoJSONSegment``). A live file is written in pieces.
        public var writesWholeSegments: Bool { track.publication != .atFirstPoint && track.flush != .everyFix }
    }

    public let options: Options
    // The properties each point changes are not checked for overlapping access at run time (about eight checks a
    // point, as the GPX writer's): a writer is used from one thread at a time, and no method of it passes one of them
    // `inout` while another access to the same one is open.
    @exclusivity(unchecked) public private(set) var statistics = TrackStatistics()
    public var path: String { file.path }
    private var file: DocumentFile
    @exclusivity(unchecked) private var segmenter: TrackSegmenter
    @exclusivity(unchecked) private var piece: GeoJSONPiece
    /// Final features not yet on disk, each with its leading separator.
    @exclusivity(unchecked) private var finished: [UInt8] = []
    @exclusivity(unchecked) private var finishedCount = 0
    /// Final features on disk, before ``regionStart``.
    private var featuresOnDisk = 0
    /// Where the next final feature goes in the file; the open piece is rewritten from here.
    private var regionStart = 0
    private var pieceChanged = false
    private var isFinished = false
    /// Waypoints and routes, written as features of their own at ``finish()``.
    private var navigation = Navigation()
    /// The open segment of a batch file (``Options/writesWholeSegments``); `nil` for a live one, written in pieces.
    @exclusivity(unchecked) private var segment: GeoJSONSegment?
    /// The last point of a continued file, until the first fix: it begins the next feature when the segment goes on.
    private var resumedPoint: Fix?

    /// Creates (or empties) the GeoJSON file at `path` and writes an empty collection to it.
    public init(path: String, options: Options = Options()) throws(TrackError) {
        self.options = options
        file = try DocumentFile(
            path: path, kind: options.writesWholeSegments ? .sequential : .json, sync: options.track.sync,
            publication: options.track.publication)
        segmenter = TrackSegmenter(splitGapSeconds: options.track.splitGapSeconds)
        piece = GeoJSONPiece(capacity: options.writesWholeSegments ? 2 : options.pointsPerFeature)
        piece.marksPointFeatures = options.includePoints
        if options.writesWholeSegments {
            segment = GeoJSONSegment(directory: Spool.directory(beside: path), includePoints: options.includePoints)
        }
        try start()
    }

    /// Writes to an open descriptor (standard output) as a stream: features as they are completed, the rest at
    /// ``finish()``.
    public init(
        streamingTo fd: FileDescriptor, name: String = "<stdout>", options: Options = Options()
    ) throws(TrackError) {
        self.options = options
        file = DocumentFile(streamingTo: fd, name: name)
        segmenter = TrackSegmenter(splitGapSeconds: options.track.splitGapSeconds)
        piece = GeoJSONPiece(capacity: options.writesWholeSegments ? 2 : options.pointsPerFeature)
        piece.marksPointFeatures = options.includePoints
        if options.writesWholeSegments {
            segment = GeoJSONSegment(directory: Spool.directory(beside: name), includePoints: options.includePoints)
        }
        try start()
    }

    /// Continues, in place, the GeoJSON file at `path` that a `GeoJSONWriter` left (live, killed between flushes, or
    /// finished): its features stay as they are, and the track goes on in new features
    /// after them — the first one, when the split gap allows, repeating the file's last point and marked
    /// `"continued":true`, as a long track's next piece is. ``statistics`` count what this writer adds.
    ///
    /// JSON has no inert space (see ``DocumentFile``): a SIGKILL inside a flush that wrote several pages can leave
    /// the new bytes up to a page boundary and the old ones after it, which may still parse. So the end of the file —
    /// at least 1 MiB, and twice what a flush of these options writes — is checked feature by feature: each one a
    /// `LineString`, `MultiLineString`, `Point` or `MultiPoint` whose `coordTimes` have the shape of its coordinates,
    /// as this writer renders them. A spliced feature fails that (its times come from two renderings of different
    /// lengths), and the file is then refused, to be made again from another copy of the track.
    /// - Throws: ``TrackError``, with ``TrackError/Operation/reopen`` when the file is missing or unreadable (its
    ///   `errno`) or is not a complete GeoJSON document as this writer leaves it (`EINVAL`); the file is then as it
    ///   was.
    public init(continuing path: String, options: Options = Options()) throws(TrackError) {
        self.options = options
        var (file, _) = try DocumentFile.continuing(
            path: path, kind: .json, sync: options.track.sync, tails: [Self.tail])
        let lastPoint: Fix?
        do throws(TrackError) {
            guard try file.read(from: 0, count: Self.head.count) == Self.head else {
                throw TrackError(
                    path: path, operation: .reopen, code: Errno.invalidArgument.rawValue, fileIsIntact: true)
            }
            var batch = 4096
            if case .batch(let bytes) = options.track.flush { batch = max(bytes, 1) }
            lastPoint = try file.lastPoints(
                1, format: .geojson, contentStart: Self.head.count, bytesPerPoint: 100,
                minimumWindow: max(1 << 20, 2 * (batch + 80 * options.pointsPerFeature)), wrap: Self.checkedWindow
            ).last
        } catch {
            file.closeDescriptor()
            throw error
        }
        self.file = file
        segmenter = TrackSegmenter(splitGapSeconds: options.track.splitGapSeconds)
        piece = GeoJSONPiece(capacity: options.pointsPerFeature)
        regionStart = file.tailOffset
        // Only whether any feature is there counts (for the separator before the next).
        featuresOnDisk = file.tailOffset > Self.head.count ? 1 : 0
        finished.reserveCapacity(batchBytes + 64 * 1024)
        if let lastPoint {
            segmenter.resume(afterPointAt: lastPoint.timestamp)
            resumedPoint = lastPoint
        }
    }

    deinit { file.closeDescriptor() }

    /// The last `count` points the file holds up to the last flush, oldest first (a point that ends one feature and
    /// begins the next continued one may be there twice): what a writer continuing a file already has. Reads back
    /// about 60 bytes a point, from the end. For a continued writer: a new file is open for writing only.
    /// - Throws: ``TrackError`` (``TrackError/Operation/reopen``) when the file cannot be read back.
    public func committedPoints(last count: Int) throws(TrackError) -> [Fix] {
        guard file.kind == .json, count > 0 else { return [] }
        return try file.lastPoints(
            count, format: .geojson, contentStart: Self.head.count, bytesPerPoint: 80, minimumWindow: 4096,
            wrap: Self.checkedWindow)
    }

    /// Makes a window of the content a document: the head, the features from the first whole line (each feature is a
    /// line), the tail. Each of those features must be one this writer renders (see ``init(continuing:options:)``).
    private static func checkedWindow(_ window: ArraySlice<UInt8>, isWhole: Bool) throws(TrackError) -> [UInt8]? {
        var lines = window
        if !isWhole {
            guard let start = firstIndex(of: [UInt8(ascii: "\n"), UInt8(ascii: "{")], in: window) else { return nil }
            lines = window.dropFirst(start + 1)
        }
        for line in lines.split(separator: UInt8(ascii: "\n")) {
            let feature = line.last == UInt8(ascii: ",") ? line.dropLast() : line
            guard isRenderedFeature(feature) else {
                throw TrackError(path: "", operation: .reopen, code: Errno.invalidArgument.rawValue, fileIsIntact: true)
            }
        }
        return head + lines + tail
    }

    /// `true` when `bytes` are a feature as this writer writes them: a line, a point, or several, with `coordTimes`
    /// of the same shape as the coordinates (one time or `null` per position of two or three numbers), or a waypoint
    /// or route (`"kind"`).
    static func isRenderedFeature(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let feature = try? JSONValue(parsing: bytes), feature["type"]?.string == "Feature",
            let properties = feature["properties"], let geometry = feature["geometry"],
            let coordinates = geometry["coordinates"]
        else { return false }
        if properties["kind"]?.string != nil { return true }
        guard let times = properties["coordTimes"]?.array else { return false }
        func isPosition(_ value: JSONValue) -> Bool {
            guard let numbers = value.array, (2...3).contains(numbers.count) else { return false }
            return numbers.allSatisfy { $0.number != nil }
        }
        func isTime(_ value: JSONValue) -> Bool { value.string != nil || value == .null }
        func sameShape(_ positions: JSONValue, _ times: JSONValue) -> Bool {
            guard let positions = positions.array, let times = times.array, positions.count == times.count,
                !positions.isEmpty
            else { return false }
            return positions.allSatisfy(isPosition) && times.allSatisfy(isTime)
        }
        switch geometry["type"]?.string {
        case "Point": return isPosition(coordinates) && times.count == 1 && isTime(times[0])
        case "LineString", "MultiPoint": return sameShape(coordinates, .array(times))
        case "MultiLineString":
            guard let lines = coordinates.array, lines.count == times.count, !lines.isEmpty else { return false }
            return zip(lines, times).allSatisfy(sameShape)
        default: return false
        }
    }

    private func start() throws(TrackError) {
        finished.reserveCapacity(batchBytes + 64 * 1024)
        do {
            try file.start(head: Self.head, tail: Self.tail)
        } catch {
            file.closeDescriptor()
            throw error
        }
        regionStart = Self.head.count
    }

    public func write(_ fix: Fix) throws(TrackError) {
        precondition(!isFinished, "GeoJSONWriter used after finish()")
        statistics.fixes += 1
        let placement = segmenter.place(fix)
        if placement == .skip {
            statistics.skipped += 1
            return
        }
        if placement == .newSegment { statistics.segments += 1 }
        if options.writesWholeSegments { return try writeInSegment(fix, startsSegment: placement == .newSegment) }
        if let point = resumedPoint {
            resumedPoint = nil
            // A continued file's segment goes on in a new feature that repeats its last point, as a full piece's does.
            if placement == .continueSegment {
                piece.append(point, newLine: true)
                piece.restart(continuing: true)
            }
        }
        if options.includePoints {
            appendSeparator(to: &finished)
            GeoJSONText.appendPointFeature(fix, to: &finished)
            finishedCount += 1
        }
        if piece.isFull { completePiece(continuing: placement == .continueSegment) }
        piece.append(fix, newLine: placement == .newSegment)
        pieceChanged = true
        statistics.points += 1
        if case .everyFix = options.track.flush {
            try flush()
        } else if finished.count >= batchBytes {
            try flush()
        }
    }

    /// Ends the open feature and gives the next ones `label`'s identifier and name as properties. Only in
    /// whole-segment mode (a conversion of files, not a live file): `false` otherwise.
    public func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool {
        precondition(!isFinished, "GeoJSONWriter used after finish()")
        guard options.writesWholeSegments, segment != nil else { return false }
        try closeSegment()
        segment!.label = label.geoJSONProperties
        segmenter = TrackSegmenter(splitGapSeconds: options.track.splitGapSeconds)
        return true
    }

    /// Whole-segment mode: `fix` into the open segment (closing the one before when it starts a new one).
    private func writeInSegment(_ fix: Fix, startsSegment: Bool) throws(TrackError) {
        if startsSegment { try closeSegment() }
        if segment!.isEmpty {
            appendSeparator(to: &finished)
            finishedCount += 1
        }
        try segment!.add(fix, path: path) { (bytes) throws(TrackError) in try self.output(bytes) }
        statistics.points += 1
    }

    /// Whole-segment mode: writes the rest of the open segment's feature.
    private func closeSegment() throws(TrackError) {
        guard segment != nil, !segment!.isEmpty else { return }
        try segment!.close { (bytes) throws(TrackError) in try self.output(bytes) }
    }

    /// Whole-segment mode: `bytes` for the document, flushed in batches.
    private func output(_ bytes: ArraySlice<UInt8>) throws(TrackError) {
        finished += bytes
        if finished.count >= batchBytes { try flush() }
    }

    public func flush() throws(TrackError) {
        if options.writesWholeSegments {
            // Whole-segment mode: the document is appended to in order (it is not read before it is finished).
            guard !finished.isEmpty else { return }
            try file.append(finished, newTail: Self.tail)
            featuresOnDisk += finishedCount
            finished.removeAll(keepingCapacity: true)
            finishedCount = 0
            statistics.flushes += 1
            return
        }
        guard !finished.isEmpty || pieceChanged else { return }
        if file.kind == .json {
            var region = finished
            if !piece.isEmpty {
                appendSeparator(to: &region)
                piece.render(into: &region)
            }
            try file.replace(from: regionStart, with: region, newTail: Self.tail)
            regionStart += finished.count
        } else {
            // A stream cannot take back the open piece: only final features are written.
            guard !finished.isEmpty else { return }
            try file.append(finished, newTail: Self.tail)
        }
        featuresOnDisk += finishedCount
        finished.removeAll(keepingCapacity: true)
        finishedCount = 0
        pieceChanged = false
        statistics.flushes += 1
    }

    public func finish() throws(TrackError) {
        guard !isFinished else { return }
        isFinished = true
        do {
            try closeSegment()
            if !piece.isEmpty { completePiece(continuing: false) }
            appendNavigation()
            pieceChanged = true
            try flush()
        } catch {
            file.closeDescriptor()
            throw error
        }
        try file.finish()
        finished = []  // a finished file waiting to be published (a file per day) holds no buffer
    }

    public var isPublished: Bool { file.isPublished }

    public func publish() throws(TrackError) { try file.publish() }

    public func discard() {
        if file.isPublished && !isFinished {
            try? finish()
        }
        isFinished = true
        file.closeDescriptor()
    }

    /// Keeps the waypoints and routes for ``finish()``, which adds them as features after the track's.
    public func setNavigation(_ navigation: Navigation) -> Bool {
        self.navigation = navigation
        return true
    }

    /// Each waypoint as a `Point` feature (`"kind":"waypoint"`), then each route as a `LineString` of its placed
    /// waypoints (`"kind":"route"`, with their names; a `Point` when only one is placed, as RFC 7946 wants a line of
    /// two positions).
    private func appendNavigation() {
        var json = JSONWriter(capacity: 1024)
        func position(_ waypoint: Navigation.Waypoint) {
            json.beginArray()
            json.number(waypoint.longitude)
            json.number(waypoint.latitude)
            json.endArray()
        }
        func feature(geometry: StaticString, properties: () -> Void, coordinates: () -> Void) {
            json.reset()
            json.beginObject()
            json.field("type", "Feature")
            json.key("geometry")
            json.beginObject()
            json.field("type", geometry)
            json.key("coordinates")
            coordinates()
            json.endObject()
            json.key("properties")
            json.beginObject()
            properties()
            json.endObject()
            json.endObject()
            appendSeparator(to: &finished)
            finished += json.bytes
            finishedCount += 1
        }
        for waypoint in navigation.waypoints {
            feature(geometry: "Point") {
                json.field("kind", "waypoint")
                json.field("name", waypoint.name)
            } coordinates: {
                position(waypoint)
            }
            statistics.waypoints += 1
        }
        for route in navigation.routes {
            let points = navigation.placedPoints(of: route).points
            guard let first = points.first else { continue }
            let isLine = points.contains { $0.latitude != first.latitude || $0.longitude != first.longitude }
            feature(geometry: isLine ? "LineString" : "Point") {
                json.field("kind", "route")
                json.field("name", route.name)
                json.field("complete", route.isComplete)
                json.key("waypoints")
                json.beginArray()
                for point in points { json.string(point.name) }
                json.endArray()
            } coordinates: {
                if isLine {
                    json.beginArray()
                    for point in points { position(point) }
                    json.endArray()
                } else {
                    position(first)
                }
            }
            statistics.routes += 1
        }
    }

    /// Moves the open piece to the final features and starts the next.
    private func completePiece(continuing: Bool) {
        appendSeparator(to: &finished)
        piece.render(into: &finished)
        finishedCount += 1
        piece.restart(continuing: continuing)
    }

    private func appendSeparator(to bytes: inout [UInt8]) {
        if featuresOnDisk + finishedCount > 0 { bytes += Self.separator }
    }

    private var batchBytes: Int {
        if case .batch(let bytes) = options.track.flush { return max(bytes, 1) }
        return 4096
    }

    static let head = Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
    static let tail = Array("\n]}\n".utf8)
    static let separator = Array(",\n".utf8)
}
