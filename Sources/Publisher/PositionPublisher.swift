import NMEA
import Pipeline
import System
import Threading

/// A receiver's positions and status as asynchronous streams, for Swift code: the Linux counterpart of what an iOS
/// app gets from `CLLocationManager`.
///
///     let publisher = PositionPublisher()                      // a pipeline of its own, position at once
///     publisher.start(try FileByteSource(path: "/dev/ttyACM0"))
///     Task { for await status in publisher.status { print(status) } }
///     for await position in publisher.positions {              // the last known position first, then live ones
///         print(position.fix.latitude!, position.fix.longitude!, position.age)
///     }
///     publisher.stop()
///
/// Or consume a pipeline someone else runs (a device fed through ``ReceiverPipeline/feed(_:)``, a recorder's):
///
///     let publisher = PositionPublisher(pipeline: pipeline)   // before the pipeline starts, to miss nothing
///     publisher.start()
///
/// **Positions** (``positions``) carry every fix that has a position (provisional first fixes included), with the
/// time its bytes were read, so ``Position/age`` says how old it is. A subscriber gets the newest position
/// only: one that is busy for a second finds the latest fix when it asks again, not a second's backlog. A new
/// subscriber gets the last known position at once (however old), then live ones.
///
/// **Status** (``status``) is sent whenever the connection, the kind of fix or the satellite counts change; each
/// subscriber keeps up to ``statusBufferLimit`` changes it has not taken yet (the oldest go first), and starts with
/// the current status.
///
/// Both streams end when the source ends (the end of a file), at ``stop()``, or for one subscriber when its task is
/// cancelled. The records are read on a thread of the publisher's own; nothing here ever slows the pipeline.
public final class PositionPublisher: Sendable {
    /// The pipeline whose records are published.
    public let pipeline: ReceiverPipeline
    /// The most status changes a subscriber holds before the oldest is dropped.
    public static let statusBufferLimit = 64

    private let loop: RingConsumerLoop
    private let ownsPipeline: Bool
    private let fixes: Broadcast<Position>
    private let statuses: Broadcast<PublisherStatus>
    private let run = Locked(RunState())
    private let counts: Locked<PublisherCounters>

    private struct RunState {
        var started = false
        var stopped = false
        /// The publisher's own pipeline was given a source.
        var runsPipeline = false
    }

    /// Publishes the records of `pipeline`, which the caller starts and stops. Make it before the pipeline starts
    /// to miss nothing (it joins the ring now).
    /// - Complexity: O(*c*) in the ring's consumers.
    public convenience init(pipeline: ReceiverPipeline) {
        let consumer = pipeline.makeConsumer(name: "publisher")
        self.init(pipeline: pipeline, consumer: consumer, latest: pipeline.latestFix, ownsPipeline: false)
    }

    /// Publishes a pipeline of its own, set up with `configuration` (by default
    /// ``Pipeline/ReceiverPipeline/Configuration/positionAtOnce``); ``start(_:)`` gives it a source, ``stop()``
    /// stops it.
    /// - Complexity: O(`configuration.capacity`).
    public convenience init(configuration: ReceiverPipeline.Configuration = .positionAtOnce) {
        let pipeline = ReceiverPipeline(configuration: configuration)
        self.init(
            pipeline: pipeline, consumer: pipeline.makeConsumer(name: "publisher"), latest: nil,
            ownsPipeline: true)
    }

    /// The streams start with `latest` (when it has a position) and the pipeline's status; `consumer` has joined.
    private init(
        pipeline: ReceiverPipeline, consumer: RingConsumer<PipelineRecord>, latest: TimedFix?,
        ownsPipeline: Bool
    ) {
        self.pipeline = pipeline
        self.ownsPipeline = ownsPipeline
        let fixes = Broadcast<Position>(bufferLimit: 1)
        let statuses = Broadcast<PublisherStatus>(bufferLimit: PositionPublisher.statusBufferLimit)
        let counts = Locked(PublisherCounters())
        if let latest, latest.fix.hasPosition { fixes.send(Position(latest)) }
        statuses.send(PublisherStatus(connection: .init(pipeline.status)))
        self.fixes = fixes
        self.statuses = statuses
        self.counts = counts
        loop = RingConsumerLoop(
            StreamFeeder(fixes: fixes, statuses: statuses, counts: counts), reading: consumer,
            options: .init(batchSize: 32, idleInterval: .seconds(1)))
    }

    // MARK: Streams

    /// Fixes with a position, newest only, the last known one first (see the type's discussion).
    public var positions: BroadcastSequence<Position> { BroadcastSequence(fixes) }

    /// Changes of connection, fix kind and satellite counts, the current status first.
    public var status: BroadcastSequence<PublisherStatus> { BroadcastSequence(statuses) }

    /// The last fix with a position, and when its bytes were read.
    /// - Complexity: O(1).
    public var latestPosition: Position? { fixes.latest }

    /// The status as last published.
    /// - Complexity: O(1).
    public var currentStatus: PublisherStatus {
        statuses.latest ?? PublisherStatus(connection: .searching(device: ""))
    }

    /// What the publisher has read so far.
    public var counters: PublisherCounters { counts.withLock { $0 } }

    // MARK: Running

    /// Starts reading the pipeline's records on the publisher's thread. Call once (a second call does nothing).
    public func start() {
        let begin = run.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        guard begin else { return }
        loop.start(threadName: "nmea-publisher")
    }

    /// Starts the publisher's own pipeline on `source`, then the publisher (``start()``).
    /// - Precondition: made with ``init(configuration:)``, and not started yet.
    public func start<Source: ByteSource>(_ source: sending Source) {
        precondition(ownsPipeline, "start(_:) runs the publisher's own pipeline; this one was given a pipeline")
        start()
        run.withLock { $0.runsPipeline = true }
        pipeline.start(source)
    }

    /// Stops: its own pipeline is stopped (its last records are still published), or a given pipeline is left to
    /// run without the publisher; then every stream ends. Harmless when not started, or stopped already.
    public func stop() {
        let runsPipeline = run.withLock { state -> Bool in
            state.stopped = true
            return state.runsPipeline
        }
        if runsPipeline {
            // The reader thread publishes its last records and closes the ring; ours reads them, then ends.
            pipeline.stop()
            loop.join()
        } else {
            loop.stop()
        }
        fixes.finish()
        statuses.finish()
    }

    // MARK: The thread

    /// The records as stream elements, on the ``RingConsumerLoop``'s thread.
    private final class StreamFeeder: RecordConsumer {
        let fixes: Broadcast<Position>
        let statuses: Broadcast<PublisherStatus>
        let counts: Locked<PublisherCounters>
        var status: PublisherStatus

        init(fixes: Broadcast<Position>, statuses: Broadcast<PublisherStatus>, counts: Locked<PublisherCounters>) {
            self.fixes = fixes
            self.statuses = statuses
            self.counts = counts
            status = statuses.latest ?? PublisherStatus(connection: .searching(device: ""))
        }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            if lost > 0 { counts.withLock { $0.lostRecords += lost } }
            for record in records {
                var next = status
                switch record.content {
                case .fix(let fix):
                    if fix.hasPosition {
                        fixes.send(Position(fix: fix, time: record.time))
                        counts.withLock { $0.positions += 1 }
                    }
                    next.fix = PublisherStatus.FixKind(fix)
                    next.satellitesUsed = fix.satellitesUsed ?? fix.satellitesUsedInView
                    next.satellitesInView = fix.satellites.count
                case .status(let receiver):
                    next.connection = PublisherStatus.Connection(receiver)
                    if receiver.state != .connected {
                        next.fix = .none
                        next.satellitesUsed = 0
                        next.satellitesInView = 0
                    }
                case .sentence, .raw:
                    continue
                }
                if next != status {
                    status = next
                    statuses.send(next)
                }
            }
        }

        func finish() {
            fixes.finish()
            statuses.finish()
        }
    }
}

/// A fix with a position, and when it was received.
public struct Position: Sendable, Hashable {
    public var fix: Fix
    /// When the bytes that completed it were read (the monotonic clock).
    public var time: MonotonicTime

    public init(fix: Fix, time: MonotonicTime) {
        self.fix = fix
        self.time = time
    }

    /// The pipeline's latest fix as a position.
    public init(_ timed: TimedFix) {
        self.init(fix: timed.fix, time: timed.time)
    }

    /// How long ago it was received.
    /// - Complexity: O(1) (one clock reading).
    public var age: Duration { time.elapsed }
}

/// What a ``PositionPublisher`` has read.
public struct PublisherCounters: Sendable, Hashable {
    /// Fixes with a position sent on the positions stream.
    public var positions = 0
    /// Pipeline records overwritten before the publisher read them (it fell a whole ring behind).
    public var lostRecords = 0
}
