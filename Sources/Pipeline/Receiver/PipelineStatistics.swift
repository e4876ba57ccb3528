import NMEA
import System

/// What a pipeline's reader thread has done, as of ``updated``: every counter of the framer, the decoders and the fix
/// assembler, and what was published.
///
/// The reader thread refreshes this copy at most every ``ReceiverPipeline/Configuration/statisticsInterval`` (and at
/// every status change and at the end), under a lock it only ever *tries* to take — if a reader holds it, the
/// refresh waits for the next chunk — so reading statistics never slows the reader thread.
public struct PipelineStatistics: Sendable, Hashable {
    /// The framer's counters, summed over every connection.
    public var framer = FramerStatistics()
    /// Sentences decoded per type, unknown types, decode failures.
    public var decoder = DecoderStatistics()
    /// The fix assembler's counters (summed over connections; the assembler is reset after a disconnection).
    public var assembler = FixAssembler.Statistics()
    /// Records published, by kind.
    public var published = PublishedCounts()
    /// The connection's state, as last reported.
    public var status = ReceiverStatus.searching()
    /// When the reader thread last refreshed these figures.
    public var updated = MonotonicTime(nanoseconds: 0)

    public init() {}
}

/// Records published into the ring, by kind.
public struct PublishedCounts: Sendable, Hashable {
    public var fixes = 0
    public var sentences = 0
    public var rawChunks = 0
    /// Bytes carried by the raw chunks (every byte received, when raw chunks are published).
    public var rawBytes = 0
    public var statusChanges = 0

    public init() {}

    /// Every record published.
    public var total: Int { fixes + sentences + rawChunks + statusChanges }
}

/// A fix and when it was published.
public struct TimedFix: Sendable, Hashable {
    public var fix: Fix
    /// When the bytes that completed it were read.
    public var time: MonotonicTime

    /// How long ago it was received.
    public var age: Duration { time.elapsed }
}
