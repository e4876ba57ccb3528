import NMEA

/// A streaming writer of fixes to a track file that is a complete document after every flush.
///
/// Writers hold only what has not been flushed yet (bounded by the flush policy) and, for GeoJSON, the open feature
/// (bounded by ``GeoJSONWriter/Options/pointsPerFeature``): never a whole track.
public protocol TrackWriter: AnyObject {
    /// The path (or stream name) written to, for messages.
    var path: String { get }
    /// What has been written so far.
    var statistics: TrackStatistics { get }
    /// Adds one fix: a point (flushed at once with ``FlushPolicy/everyFix``), or a segment break when it has no
    /// position.
    func write(_ fix: Fix) throws(TrackError)
    /// Makes everything written so far part of the document on disk.
    func flush() throws(TrackError)
    /// Flushes and closes the document, and puts it in place of what its path held; the writer accepts nothing
    /// after.
    func finish() throws(TrackError)
    /// Puts a finished document in place (``Publication/onRequest``); nothing to do when it is there already.
    func publish() throws(TrackError)
    /// `true` once the file is at its path (a live file from its first point; a stream always), so that giving it up
    /// leaves it as its last flush did rather than as it was before.
    var isPublished: Bool { get }
    /// Gives the document up (a command whose input failed): a file not yet in place is removed, so its path keeps
    /// what it held; one already in place (``Publication/atFirstPoint``) stays as its last flush left it. The writer
    /// accepts nothing after.
    func discard()
    /// Hands over the waypoints and routes to write with the track at ``finish()`` (GPX `<wpt>` and `<rte>`,
    /// GeoJSON and KML features); `false` when the format or the stream cannot hold them (CSV holds points; a GPX
    /// stream is past the place where they go).
    func setNavigation(_ navigation: Navigation) -> Bool
    /// Starts the track of `label`'s owner: the points written next are its (GPX: a `trk` with its name; GeoJSON:
    /// features with its identifier and name among their properties; CSV: rows that begin with them, when the
    /// writer was made with the label's columns). `false` for a format that holds one track (KML), which writes on
    /// as before.
    func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool
}

extension TrackWriter {
    public func setNavigation(_ navigation: Navigation) -> Bool { false }
    public func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool { false }
}

/// When a track file takes the place of what its path held. Until then it is written under a temporary name beside
/// it (see ``DocumentFile``), which a failure or a fatal signal removes.
public enum Publication: Sendable, Hashable {
    /// At ``TrackWriter/finish()``: batch conversion, where a failed run must leave the old file untouched.
    case atFinish
    /// At the first flush that holds a point, and valid after every flush from then on: live logging, where the file
    /// is read while it is written. A run that ends before its first point leaves nothing (or the old file) behind.
    case atFirstPoint
    /// At ``TrackWriter/publish()``, called after ``TrackWriter/finish()``: a command with several outputs (or a
    /// file per day or trip) completes every one beside its path, then puts them all in place, so a failure at any
    /// point leaves every output as it was.
    case onRequest
}

/// When a writer brings the file up to date.
public enum FlushPolicy: Sendable, Hashable {
    /// After every point: for live logging, where each fix should be on disk at once.
    case everyFix
    /// When about this many bytes are waiting: for converting files.
    case batch(bytes: Int)

    /// 1 MiB batches.
    public static let conversion = FlushPolicy.batch(bytes: 1 << 20)
}

/// The options every track writer takes.
public struct TrackOptions: Sendable, Hashable {
    /// A time gap longer than this starts a new segment.
    public var splitGapSeconds: Double
    public var flush: FlushPolicy
    /// `fdatasync` after each flush, for loggers that must survive a power cut (see ``DocumentFile``).
    public var sync: Bool
    /// When the file replaces what its path held.
    public var publication: Publication

    public init(
        splitGapSeconds: Double = 60, flush: FlushPolicy = .conversion, sync: Bool = false,
        publication: Publication = .atFinish
    ) {
        self.splitGapSeconds = splitGapSeconds
        self.flush = flush
        self.sync = sync
        self.publication = publication
    }
}

/// Counts of what a writer did.
public struct TrackStatistics: Sendable, Hashable {
    /// Fixes given to the writer.
    public var fixes = 0
    /// Points written (fixes with a position).
    public var points = 0
    /// Segments begun.
    public var segments = 0
    /// Fixes without a usable position (no fix, provisional, or coordinates out of range).
    public var skipped = 0
    /// Flushes that reached the file.
    public var flushes = 0
    /// Waypoints and routes written (at ``TrackWriter/finish()``).
    public var waypoints = 0
    public var routes = 0
    public init() {}
}

extension Fix {
    /// `true` when latitude and longitude are finite and in range, so the point can be written.
    var hasWritablePosition: Bool {
        guard let latitude, let longitude else { return false }
        return latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
