import NMEA
import Synchronization
import Threading

/// A receiver's bytes, turned into records on a reader thread of their own and broadcast to any number of consumers.
///
///     let pipeline = ReceiverPipeline()
///     let gpx = pipeline.makeConsumer(name: "gpx")            // before start, to miss nothing
///     pipeline.start(try FileByteSource(path: "/dev/ttyACM0"))
///     // on the consumer's own thread:
///     while true {
///         let batch = gpx.read(maximumCount: 64, timeout: .seconds(1))
///         for record in batch.records { if let fix = record.fix { … } }
///         if batch.lost > 0 { … }                             // it fell a whole ring behind
///         if batch.isFinished { break }
///     }
///     pipeline.stop()                                        // SIGINT: finish, publish `.ended`, close the ring
///
/// The reader thread reads from the ``ByteSource``, frames, decodes and assembles (see ``PipelineFeeder``) and
/// publishes into ``ring``. It never waits for a consumer: a consumer that falls more than the ring's capacity
/// behind loses records, and each read says how many. For a source that pushes bytes from a loop of its own, run
/// that loop inside ``feed(_:)`` instead of ``start(_:)``.
///
/// Everything here is callable from any thread.
public final class ReceiverPipeline: Sendable {
    /// How the pipeline is set up.
    public struct Configuration: Sendable {
        /// Ring slots (a power of two). Each slot holds one ``PipelineRecord`` (1,280 bytes with its stamp and
        /// padding), so the default 2,048 slots take 2.5 MiB: about 10 s of a 10 Hz multi-GNSS receiver with raw
        /// chunks and sentences published, about 4 minutes of a 1 Hz GPS puck. A consumer that stalls for longer
        /// (a disk that hangs in `fsync`) loses records, and is told how many.
        public var capacity = 2048
        /// Publish ``PipelineRecord/Content/fix(_:)`` records.
        public var publishesFixes = true
        /// Publish a ``PipelineRecord/Content/sentence(_:)`` record for every checksum-valid sentence (gpsd's
        /// `"nmea":true` watchers). Off, the ring holds more fixes' worth of time.
        public var publishesSentences = true
        /// Publish the received bytes as ``PipelineRecord/Content/raw(_:)`` records (`--raw FILE`).
        public var publishesRaw = true
        /// Stamp every read with the system clock before framing, so that each fix carries when its epoch's first
        /// byte arrived (``Fix/receivedNanoseconds``): for reference clocks (`--chrony`, `--ntp-shm`). One
        /// `clock_gettime` (vDSO) per read.
        public var stampsReceiveTimes = false
        /// The longest sentence accepted (from `$` to the checksum), at most ``PipelineRecord/sentenceCapacity``.
        public var maximumSentenceLength = PipelineRecord.sentenceCapacity
        public var checksumPolicy = Framer.ChecksumPolicy.required
        /// The fix assembler's options (``FixAssembler/Options/provisionalPositions`` for "position at once").
        public var assembler = FixAssembler.Options()
        /// Bytes asked for per read.
        public var readBufferSize = 4096
        /// How long one read waits: the most a stop request waits for the reader thread to notice it.
        public var readTimeout = Duration.milliseconds(100)
        /// The longest received bytes wait before they are published as a raw chunk.
        public var rawFlushInterval = Duration.milliseconds(250)
        /// The longest the shared ``ReceiverPipeline/statistics`` lag behind the reader thread's own counters.
        public var statisticsInterval = Duration.milliseconds(100)
        /// Close the ring when the input ends or the pipeline stops (consumers then see
        /// ``RingRead/isFinished`` after the last record).
        public var closesRingAtEnd = true

        public init() {}
    }

    public let configuration: Configuration
    /// The records: subscribe with ``makeConsumer(name:startingAt:)``.
    public let ring: BroadcastRing<PipelineRecord>
    let shared = SharedState()
    private let stopRequested = Atomic<Bool>(false)
    /// `true` once a feeder exists: the ring has one producer.
    private let producing = Atomic<Bool>(false)
    private let thread = Locked<NativeThread?>(nil)

    /// Makes a pipeline and its ring (allocated now); nothing runs until ``start(_:)`` or ``feed(_:)``.
    /// - Complexity: O(`configuration.capacity`).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        ring = BroadcastRing(capacity: configuration.capacity)
    }

    // MARK: Consumers

    /// Adds a consumer of the records (any time, any thread). Join before ``start(_:)`` to miss nothing.
    /// - Complexity: O(*c*) in the number of consumers.
    public func makeConsumer(name: String = "", startingAt start: RingStart = .next) -> RingConsumer<PipelineRecord> {
        ring.makeConsumer(name: name, startingAt: start)
    }

    /// The counters as the reader thread last shared them (at most ``Configuration/statisticsInterval`` old while
    /// it runs; final once it has finished).
    /// - Complexity: O(1).
    public var statistics: PipelineStatistics { shared.values.withLock { $0.statistics } }

    /// The connection's state as last reported.
    /// - Complexity: O(1).
    public var status: ReceiverStatus { shared.values.withLock { $0.statistics.status } }

    /// The most recent fix and when it arrived, for a consumer that joins late and wants a position at once.
    /// - Complexity: O(1).
    public var latestFix: TimedFix? { shared.values.withLock { $0.latestFix } }

    /// Tells the pipeline what feeds the receiver corrections: an RTK fix that does not say its corrections' age
    /// and base station gets them from `summary`, and the live views show it.
    public func setCorrections(_ summary: @escaping @Sendable () -> CorrectionSummary?) {
        shared.corrections.withLock { $0 = summary }
    }

    /// The corrections the receiver is fed now; `nil` when nothing feeds it.
    public var corrections: CorrectionSummary? { shared.corrections.withLock { $0 }?() }

    // MARK: Running

    /// Starts the reader thread on `source`. It runs until the source ends or ``stop()``. Call once.
    public func start<Source: ByteSource>(_ source: sending Source) {
        claimProducer()
        let started = NativeThread(name: "nmea-reader") { [self] in
            var source = source
            run(&source)
        }
        thread.withLock { $0 = started }
    }

    /// Asks the reader thread to stop, waits for it (at most about ``Configuration/readTimeout`` plus the work in
    /// hand), which publishes an ``ReceiverStatus/State/ended`` status with ``ReceiverStatus/Reason/stopped`` and
    /// closes the ring. Harmless when not started or already stopped.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        waitUntilFinished()
    }

    /// Waits for the reader thread to end by itself (the end of a file). Returns at once if it was never started.
    public func waitUntilFinished() {
        let started = thread.withLock { thread -> NativeThread? in
            defer { thread = nil }
            return thread
        }
        started?.join()
    }

    /// `true` once ``stop()`` was called: a loop run inside ``feed(_:)`` should end.
    /// - Complexity: O(1).
    public var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Runs `body` on the calling thread with the pipeline's feeder, for sources that push bytes from a loop of
    /// their own (a serial connection's `run { event in … }`):
    ///
    ///     try pipeline.feed { feeder in
    ///         try connection.run { event in
    ///             switch event {
    ///             case .data(let bytes): feeder.ingest(bytes)
    ///             case .idle: feeder.idle()
    ///             case .status(let status): feeder.report(ReceiverStatus(status))   // the caller's mapping
    ///             }
    ///         }
    ///     }
    ///
    /// When `body` returns (or throws), the feeder is finished — with ``ReceiverStatus/Reason/stopped`` after
    /// ``stop()``, else ``ReceiverStatus/Reason/endOfFile`` — unless `body` finished it, and the ring is closed if
    /// ``Configuration/closesRingAtEnd``. Call once, and not together with ``start(_:)``.
    public func feed<R, E: Error>(_ body: (PipelineFeeder) throws(E) -> R) throws(E) -> R {
        claimProducer()
        let feeder = PipelineFeeder(ring: ring, shared: shared, configuration: configuration)
        defer { end(feeder, reason: isStopRequested ? .stopped : .endOfFile) }
        return try body(feeder)
    }

    private func claimProducer() {
        let (exchanged, _) = producing.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        precondition(exchanged, "a ReceiverPipeline runs once: start(_:) or feed(_:) was already called")
    }

    /// The reader thread's loop.
    private func run<Source: ByteSource>(_ source: inout Source) {
        let feeder = PipelineFeeder(ring: ring, shared: shared, configuration: configuration)
        let size = max(configuration.readBufferSize, 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var reason = ReceiverStatus.Reason.stopped
        reading: while !isStopRequested {
            switch source.read(into: buffer, timeout: configuration.readTimeout) {
            case .bytes(let count):
                feeder.ingest(UnsafeRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)]), at: .now())
            case .timedOut:
                feeder.idle(at: .now())
            case .status(let status):
                feeder.report(status, at: .now())
            case .end(let why):
                reason = why
                break reading
            }
        }
        end(feeder, reason: reason)
    }

    private func end(_ feeder: PipelineFeeder, reason: ReceiverStatus.Reason) {
        feeder.finish(reason, at: .now())
        if configuration.closesRingAtEnd { ring.close() }
    }
}

extension ReceiverPipeline.Configuration {
    /// For live displays and servers: the first position is published as soon as its sentence is decoded
    /// (``NMEA/FixAssembler/Options/provisionalPositions``), sentences are published (gpsd's `"nmea":true`
    /// watchers), raw chunks are not.
    public static var positionAtOnce: Self {
        var configuration = Self()
        configuration.assembler.provisionalPositions = true
        configuration.publishesRaw = false
        return configuration
    }
}
