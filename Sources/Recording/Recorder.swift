import Fleet
import NMEA
import Pipeline
import Threading
import Tracks
import Trips

/// A receiver's records to files, trips and MQTT: the consumers `nmea record` runs, each on a
/// ``Pipeline/RingConsumerLoop`` of its own, so a disk that stalls one never holds up another (or the receiver).
///
///     var configuration = Recorder.Configuration()
///     configuration.tracks = [TrackOutput(OutputName("day.gpx")) { try GPXWriter(path: $0, options: options) }]
///     configuration.raw = OutputName("day.nmea")
///     let recorder = try Recorder(pipeline: pipeline, configuration, report: { print($0) })   // opens the files
///     recorder.add(statusLine, name: "status")            // any other consumer, run the same way
///     recorder.start()
///     …                                                  // the pipeline runs until stopped
///     pipeline.stop()                                    // (or the receiver's stop): the ring closes
///     recorder.finish()                                  // every consumer drains the ring and finishes its files
///     for line in recorder.summary { print(line) }
///
/// Consumers: the tracks (always), the raw capture (`raw`), the trips (`trips`, or MQTT: its trip messages), the
/// MQTT positions (`publisher`). Files that do not rotate are opened by `init`, so an unwritable one is an error
/// before anything runs; rotated ones with the first fix of their day (``Rotation/daily``).
///
/// `@unchecked Sendable`: the consumers' own state is touched only on their loops' threads; what is read from here
/// (counters, the files opened) is atomic or behind a lock.
public final class Recorder: @unchecked Sendable {
    /// What to record.
    public struct Configuration: Sendable {
        public var tracks: [TrackOutput] = []
        /// The raw capture: the exact bytes received (or, ``RawFormat/tagged``, each sentence with its receive time).
        public var raw: OutputName?
        /// How the raw capture is written.
        public var rawFormat = RawFormat.raw
        /// With daily rotation, compress each finished day's raw file to `.zst` (``FileCompressor``).
        public var compressesFinishedDays = false
        /// The trips file: a JSON line per finished trip.
        public var trips: OutputName?
        /// MQTT positions and trips (the recorder waits for the broker's acknowledgements briefly and closes it).
        public var publisher: FleetPublisher?
        /// The place names of the trips, made on the trips consumer's thread.
        public var places: @Sendable () -> CachedGeocoder? = { nil }
        /// The most raw bytes held in memory before the first dated fix names the raw file (``RawCapture``).
        public var rawHeldLimit = 4 << 20
        /// Cleaning of the fixes that reach the tracks and the trips (not the raw capture, nor MQTT positions,
        /// which have their own rate limit); each of those consumers runs a copy.
        public var cleaner: TrackCleaner?

        public init() {}
    }

    public let pipeline: ReceiverPipeline
    private let tracks: TrackConsumer
    private let raw: RawCapture?
    private let tripConsumer: TripConsumer?
    private let publisher: FleetPublisher?
    private let loops = Locked<[RingConsumerLoop]>([])

    /// Joins `pipeline`'s ring with every consumer and opens the files that do not rotate.
    /// - Throws: ``RecordingError`` for the first output that cannot be opened (nothing is left open then).
    public init(
        pipeline: ReceiverPipeline, _ configuration: Configuration,
        report: @escaping @Sendable (String) -> Void
    ) throws(RecordingError) {
        self.pipeline = pipeline
        publisher = configuration.publisher
        let rotation = configuration.tracks.first?.name.rotation ?? .none
        tracks = try TrackConsumer(
            configuration.tracks, rotation: rotation, cleaner: configuration.cleaner, report: report)
        do {
            raw = try configuration.raw.map { name throws(RecordingError) in
                try RawCapture(
                    name, format: configuration.rawFormat, compressesFinishedDays: configuration.compressesFinishedDays,
                    heldLimit: configuration.rawHeldLimit, report: report)
            }
            let wantsTrips = configuration.trips != nil || configuration.publisher != nil
            tripConsumer =
                wantsTrips
                ? try TripConsumer(
                    configuration.trips, publisher: configuration.publisher, cleaner: configuration.cleaner,
                    places: configuration.places, report: report) : nil
        } catch {
            tracks.finish()
            throw error
        }
        add(tracks, name: "track")
        if let raw { add(raw, name: "raw") }
        if let publisher { add(MQTTConsumer(publisher), name: "mqtt") }
        if let tripConsumer { add(tripConsumer, name: "trips") }
    }

    /// Runs `consumer` beside the recorder's own (a status line, say), joining the ring now; call before
    /// ``start()``.
    public func add(
        _ consumer: some RecordConsumer, name: String,
        options: RingConsumerLoop.Options = RingConsumerLoop.Options()
    ) {
        let loop = RingConsumerLoop(consumer, name: name, pipeline: pipeline, options: options)
        loops.withLock { $0.append(loop) }
    }

    /// Starts every consumer's loop.
    public func start() {
        for loop in loops.withLock({ $0 }) { loop.start() }
    }

    /// Waits for every consumer to read the ring to its end and finish (stop the pipeline first), then gives the
    /// MQTT broker up to `deliveryTimeout` seconds to acknowledge what is in flight (the rest stays queued on disk
    /// for the next run) and closes the publisher.
    public func finish(deliveryTimeout: Double = 2) {
        for loop in loops.withLock({ $0 }) { loop.join() }
        if let publisher {
            if publisher.counters.state == .connected { _ = publisher.waitUntilDelivered(timeout: deliveryTimeout) }
            publisher.close()
        }
    }

    // MARK: What was recorded

    /// Points written to the tracks.
    public var points: Int { tracks.points.load(ordering: .relaxed) }
    /// Trips finished, when trips are detected.
    public var trips: Int? { tripConsumer?.trips.load(ordering: .relaxed) }
    /// Raw bytes written, when raw is captured.
    public var rawBytes: Int? { raw?.bytes.load(ordering: .relaxed) }
    /// The MQTT publisher's counters in words, when publishing.
    public var mqttSummary: String? { publisher?.counters.summary }
    /// `true` when every track has failed: nothing is left to record to.
    public var allTracksFailed: Bool { tracks.allFailed.load(ordering: .relaxed) }
    /// `true` when an output failed during the run (each failure was reported as it happened).
    public var hasFailed: Bool {
        tracks.errors.load(ordering: .relaxed) > 0 || raw?.hasFailed == true || tripConsumer?.hasFailed == true
    }
    /// Every file opened, tracks first.
    public var files: [String] { tracks.opened + (raw?.opened ?? []) + (tripConsumer?.opened ?? []) }

    /// What the run did, a line each, for the end: the MQTT counters, the points and files, records lost by a
    /// consumer that fell behind, raw bytes that had no day.
    public var summary: [String] {
        var lines: [String] = []
        if let mqttSummary { lines.append(mqttSummary) }
        let files = tracks.filePoints
        let rejectedLines = pipeline.statistics.framer.rejected
        let rejected = "\(rejectedLines) line\(rejectedLines == 1 ? "" : "s") rejected"
        if files.isEmpty {
            lines.append("0 points (no dated fix opened a track); \(rejected)")
        } else if Set(files.map(\.points)).count == 1 {
            let count = files[0].points
            lines.append(
                "\(count) point\(count == 1 ? "" : "s") in \(files.map(\.path).joined(separator: ", ")); \(rejected)")
        } else {
            // Files that hold different counts (one failed on a full disk): each says what it holds.
            let each = files.map { "\($0.points) point\($0.points == 1 ? "" : "s") in \($0.path)" }
            lines.append(each.joined(separator: ", ") + "; " + rejected)
        }
        if let cleaning = tracks.cleaningSummary { lines.append("tracks: \(cleaning)") }
        // A consumer that fell more than a ring behind lost records: say so, never silently.
        for loop in loops.withLock({ $0 }) where loop.lost > 0 {
            lines.append("the \(loop.name) consumer fell behind and lost \(loop.lost) records")
        }
        if let raw {
            let dropped = raw.droppedBytes.load(ordering: .relaxed)
            if dropped > 0 {
                lines.append(
                    "\(dropped) raw bytes received before the first dated fix did not fit in memory and "
                        + "were dropped")
            }
            if let path = raw.undatedPath.withLock({ $0 }) {
                lines.append("no fix gave a date: the raw bytes went to \(path), named after the system clock")
            }
        }
        return lines
    }
}
