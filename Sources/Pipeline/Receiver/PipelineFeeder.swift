import NMEA
import Synchronization
import System
import Threading
import UBX

/// The producer end of a ``ReceiverPipeline``: bytes and connection changes in, records out into the ring.
///
///     bytes ─► FixReader (framer, decoders, assembler) ─► ring: .fix
///       │         └─────────────────────────────────────► ring: .sentence
///       └───────────────────────────────────────────────► ring: .raw (gathered into 1 KiB chunks)
///     status ────────────────────────────────────────────► ring: .status
///
/// There is one per pipeline, used on one thread: the pipeline's reader thread (``ReceiverPipeline/start(_:)``)
/// or the thread that calls ``ReceiverPipeline/feed(_:)``. Nothing here waits for a consumer: records go into the
/// ring, and statistics are shared under a lock that is only ever tried.
public final class PipelineFeeder {
    let ring: BroadcastRing<PipelineRecord>
    let shared: SharedState
    let configuration: ReceiverPipeline.Configuration
    private var reader: FixReader
    private var published = PublishedCounts()
    private var status = ReceiverStatus.searching()
    /// Received bytes not yet published, and when the first of them arrived.
    private var pendingRaw = InlineBytes<1024>()
    private var pendingRawSince = MonotonicTime(nanoseconds: 0)
    /// A sentence record being built (kept to avoid zeroing 1 KiB per sentence).
    private var sentenceScratch = InlineBytes<1024>()
    private var latestFix: TimedFix?
    /// Something changed since the shared copy was last refreshed.
    private var latestFixChanged = false
    private var statusChanged = false
    private var lastShared = MonotonicTime(nanoseconds: 0)
    /// The time of the read being processed.
    private var now = MonotonicTime(nanoseconds: 0)
    public private(set) var isFinished = false

    init(
        ring: BroadcastRing<PipelineRecord>, shared: SharedState,
        configuration: ReceiverPipeline.Configuration
    ) {
        self.ring = ring
        self.shared = shared
        self.configuration = configuration
        reader = FixReader(
            options: FixReader.Options(
                maximumLength: min(max(configuration.maximumSentenceLength, 8), PipelineRecord.sentenceCapacity),
                checksumPolicy: configuration.checksumPolicy, assembler: configuration.assembler,
                frameDecoder: UBXEpochs.report))
    }

    // MARK: Input

    /// Frames, decodes and assembles `bytes`, read at `time`, publishing what they complete.
    /// - Complexity: O(*n*) in the bytes, plus one record copy per record published; no allocation.
    public func ingest(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime = .now()) {
        precondition(!isFinished, "ingest after finish")
        if configuration.stampsReceiveTimes { reader.noteRead(atNanoseconds: WallClock.nanosecondsSinceEpoch()) }
        now = time
        if configuration.publishesRaw { gatherRaw(bytes) }
        if configuration.publishesSentences {
            var sentences = SentencePublisher(feeder: self)
            reader.read(bytes, handler: &sentences, publish)
        } else {
            reader.read(bytes, publish)
        }
        if !pendingRaw.isEmpty && now - pendingRawSince >= configuration.rawFlushInterval { flushRaw() }
        shareIfDue()
    }

    /// Nothing arrived for a while: publishes the raw bytes gathered so far and refreshes the statistics.
    /// - Complexity: O(1) plus one record copy.
    public func idle(at time: MonotonicTime = .now()) {
        guard !isFinished else { return }
        now = time
        flushRaw()
        shareIfDue()
    }

    /// Publishes a change of connection. A disconnection, a search or a new connection attempt also starts framing
    /// and fix assembly afresh: a sentence cut by an unplug is dropped, not glued to the next device's first. On a
    /// disconnection the epoch in hand is first handed out as a fix (as at the end of a file).
    /// - Complexity: O(1) plus one record copy.
    public func report(_ status: ReceiverStatus, at time: MonotonicTime = .now()) {
        precondition(!isFinished, "report after finish")
        now = time
        flushRaw()
        switch status.state {
        case .disconnected:
            // The epoch in hand still becomes a fix: until the receiver's cycle end is learned, the last complete
            // epoch is only handed out when the next begins, and that will not happen on this connection.
            reader.disconnect(publish)
        case .searching, .connecting:
            reader.reset()
        case .connected, .ended:
            break
        }
        publish(status)
        share(force: false)
    }

    /// Ends the input: a last sentence without a line ending is framed, the epoch in progress becomes a fix, the
    /// gathered raw bytes are published, then an ``ReceiverStatus/State/ended`` status. Nothing may follow.
    /// - Complexity: O(1) plus the records published.
    public func finish(_ reason: ReceiverStatus.Reason = .endOfFile, at time: MonotonicTime = .now()) {
        guard !isFinished else { return }
        now = time
        if configuration.publishesSentences {
            var sentences = SentencePublisher(feeder: self)
            reader.finish(handler: &sentences, publish)
        } else {
            reader.finish(publish)
        }
        flushRaw()
        publish(.ended(reason: reason))
        isFinished = true
        share(force: true)
    }

    // MARK: Publishing

    private func publish(_ fix: Fix) {
        if fix.differentialAgeSeconds == nil, fix.quality == .rtkFixed || fix.quality == .rtkFloat,
            let corrections = shared.corrections.withLock({ $0 })?(), let age = corrections.ageSeconds
        {
            // The receiver did not say (UBX, a GGA without the fields): what was fed to it does. Only such a fix
            // is copied.
            var corrected = fix
            corrected.differentialAgeSeconds = (age * 10).rounded() / 10
            corrected.differentialStationID = corrections.stationID
            return publishAsIs(corrected)
        }
        publishAsIs(fix)
    }

    private func publishAsIs(_ fix: Fix) {
        if configuration.publishesFixes {
            ring.publish(PipelineRecord(time: now, .fix(fix)))
            published.fixes += 1
        }
        latestFix = TimedFix(fix: fix, time: now)
        latestFixChanged = true
    }

    /// Publishes every framed sentence, decoded or not, before the fixes it completes.
    private struct SentencePublisher: FixReader.Handler {
        unowned(unsafe) let feeder: PipelineFeeder

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            feeder.publish(sentence)
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            feeder.publish(sentence)
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            feeder.publish(sentence)
        }
    }

    private func publish(_ sentence: Sentence) {
        sentenceScratch.removeAll()
        sentenceScratch.append(sentence.bytes)
        if let checksum = sentence.checksum { NMEAChecksum.write(checksum) { sentenceScratch.append($0) } }
        ring.publish(PipelineRecord(time: now, .sentence(sentenceScratch)))
        published.sentences += 1
    }

    private func publish(_ status: ReceiverStatus) {
        ring.publish(PipelineRecord(time: now, .status(status)))
        published.statusChanges += 1
        self.status = status
        statusChanged = true
    }

    /// Adds received bytes to the pending raw chunk, publishing each chunk that fills up.
    private func gatherRaw(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            if pendingRaw.isEmpty { pendingRawSince = now }
            let taken = min(bytes.count - offset, pendingRaw.freeCapacity)
            pendingRaw.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + taken)]))
            offset += taken
            if pendingRaw.freeCapacity == 0 { flushRaw() }
        }
    }

    private func flushRaw() {
        guard !pendingRaw.isEmpty else { return }
        ring.publish(PipelineRecord(time: now, .raw(pendingRaw)))
        published.rawChunks += 1
        published.rawBytes += pendingRaw.count
        pendingRaw.removeAll()
    }

    // MARK: Sharing

    /// The statistics as they stand.
    var statistics: PipelineStatistics {
        var statistics = PipelineStatistics()
        let counters = reader.statistics
        statistics.framer = counters.framer
        statistics.decoder = counters.decoder
        statistics.assembler = counters.assembler
        statistics.published = published
        statistics.status = status
        statistics.updated = now
        return statistics
    }

    private func shareIfDue() {
        if latestFixChanged || statusChanged || now - lastShared >= configuration.statisticsInterval {
            share(force: false)
        }
    }

    /// Copies the statistics, status and latest fix where other threads read them. Unless `force`, only if the
    /// lock is free right now: the reader thread never waits for a consumer.
    private func share(force: Bool) {
        let statistics = self.statistics
        let fix = latestFixChanged ? latestFix : nil
        let update = { (state: inout SharedState.Values) in
            state.statistics = statistics
            if let fix { state.latestFix = fix }
        }
        let done: Bool
        if force {
            shared.values.withLock { update(&$0) }
            done = true
        } else {
            done = shared.values.withLockIfAvailable { update(&$0) } != nil
        }
        if done {
            lastShared = now
            latestFixChanged = false
            statusChanged = false
        }
    }
}

/// What the reader thread shares with everyone else.
final class SharedState: Sendable {
    struct Values: Sendable {
        var statistics = PipelineStatistics()
        var latestFix: TimedFix?
    }

    let values = Locked(Values())
    /// The corrections the receiver is fed, when something feeds it (``ReceiverPipeline/setCorrections(_:)``).
    let corrections = Locked<(@Sendable () -> CorrectionSummary?)?>(nil)
}
