import Threading

/// The read loop of every consumer of a pipeline, written once: a ring consumer and what it does with the records
/// (a ``RecordConsumer``), run on a thread of its own.
///
///     let tracks = RingConsumerLoop(TrackConsumer(…), name: "tracks", pipeline: pipeline)   // joins the ring now
///     pipeline.start(source)
///     tracks.start()
///     …
///     pipeline.stop()           // closes the ring: the loop reads what is left, calls finish(), and ends
///     tracks.join()
///     if tracks.lost > 0 { … }  // records it never saw: say so
///
/// Each read takes up to ``Options/batchSize`` records (into a buffer allocated once) and waits at most
/// ``Options/idleInterval`` for them; a read that brings nothing is an ``RecordConsumer/idle()``. Records a slow
/// consumer lost are passed to it with the next batch and counted in ``lost`` (the ring's own count, exact).
/// The pipeline never waits for a loop.
public final class RingConsumerLoop: @unchecked Sendable {
    /// How the loop reads.
    public struct Options: Sendable {
        /// The most records handed over in one ``RecordConsumer/consume(_:lost:)``.
        public var batchSize = 64
        /// How long a read waits for records before ``RecordConsumer/idle()``.
        public var idleInterval = Duration.milliseconds(500)

        public init(batchSize: Int = 64, idleInterval: Duration = .milliseconds(500)) {
            self.batchSize = batchSize
            self.idleInterval = idleInterval
        }
    }

    /// The ring consumer read from (its counters may be read from any thread).
    public let ringConsumer: RingConsumer<PipelineRecord>
    public let options: Options
    /// Called only from the thread that runs the loop (``run()``'s caller): `@unchecked Sendable` rests on this.
    private let consumer: any RecordConsumer
    private let thread = Locked<NativeThread?>(nil)

    /// Joins `pipeline`'s ring now as `name` (before the pipeline starts, to miss nothing); nothing is read until
    /// ``start(threadName:)`` or ``run()``.
    /// - Complexity: O(*c*) in the ring's consumers.
    public convenience init(
        _ consumer: some RecordConsumer, name: String, pipeline: ReceiverPipeline, options: Options = Options()
    ) {
        self.init(consumer, reading: pipeline.makeConsumer(name: name), options: options)
    }

    /// Reads with a ring consumer made elsewhere (one that joined at ``RingStart/oldest``, say).
    public init(
        _ consumer: some RecordConsumer, reading ringConsumer: RingConsumer<PipelineRecord>,
        options: Options = Options()
    ) {
        self.consumer = consumer
        self.ringConsumer = ringConsumer
        self.options = options
    }

    /// The name the ring knows this consumer by.
    public var name: String { ringConsumer.name }

    /// Records this loop's consumer lost in all: overwritten before they were read.
    /// - Complexity: O(1).
    public var lost: UInt64 { ringConsumer.lost }

    /// Runs the loop on a thread of its own (named `threadName`, else after the consumer). Call once.
    public func start(threadName: String? = nil) {
        let started = NativeThread(name: threadName ?? "nmea-\(name)") { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Runs the loop on the calling thread until the ring is closed and read to its end, or the consumer leaves;
    /// then calls ``RecordConsumer/finish()`` and returns.
    public func run() {
        let buffer = UnsafeMutableBufferPointer<PipelineRecord>.allocate(capacity: max(options.batchSize, 1))
        defer { buffer.deallocate() }
        while true {
            let read = ringConsumer.read(into: buffer, timeout: options.idleInterval)
            if read.count > 0 || read.lost > 0 {
                consumer.consume(UnsafeBufferPointer(rebasing: buffer[..<read.count]), lost: read.lost)
            } else if read.isFinished {
                break
            } else {
                consumer.idle()
            }
        }
        consumer.finish()
    }

    /// Waits for the loop's thread to end (after the ring is closed, or ``stop()``). Harmless when not started.
    public func join() {
        thread.take()?.join()
    }

    /// Ends the loop without waiting for the ring to close: the consumer leaves the ring (a blocked read returns
    /// at once), gets its ``RecordConsumer/finish()``, and the thread is joined.
    public func stop() {
        ringConsumer.leave()
        join()
    }
}
