import NMEA
import System

/// One record of the pipeline's ring: what the reader thread hands every consumer, in the order it happened.
///
/// | content | what | inline capacity |
/// | --- | --- | --- |
/// | ``Content/fix(_:)`` | one epoch's merged ``Fix`` (provisional first fixes included) | the whole `Fix` |
/// | ``Content/sentence(_:)`` | one checksum-valid sentence, `$` to checksum, no line ending | ``sentenceCapacity`` |
/// | ``Content/raw(_:)`` | received bytes exactly as read, garbage and all, in order | ``rawCapacity`` |
/// | ``Content/status(_:)`` | a connection change: searching, connecting, connected, disconnected, ended | path + text |
///
/// **Size.** Every record takes one ring slot whatever its kind, so the largest — a `Fix` (1,227 bytes, its 64
/// satellites inline) — sets it: a record is 1,235 bytes (8 for the time, the tag in a spare byte) and a ring slot
/// 1,280 (an 8-byte stamp, then padding to whole 64-byte cache lines). The raw and sentence capacities (1 KiB each,
/// 1,027 bytes with their count and flag) and a status (723 bytes) fit inside a fix's footprint, so they cost
/// nothing extra. The default ring of 2,048 slots (``ReceiverPipeline/Configuration/capacity``) is 2.5 MiB
/// (2,621,440 bytes): about 10 seconds of a 10 Hz multi-GNSS receiver with every kind published (16 sentences, a
/// fix and one or two raw chunks per epoch), about 4 minutes of a 1 Hz GPS puck (6 sentences).
///
/// **Sentences.** The pipeline's framer accepts at most ``sentenceCapacity`` bytes per sentence (its limit is
/// clamped to this), so every accepted sentence fits and none is ever cut. The checksum is written as two
/// upper-case hex digits (a receiver's lower-case digits are the only bytes that can differ from the input; the
/// raw records keep those).
///
/// **Raw chunks.** Received bytes are gathered into chunks of up to ``rawCapacity`` bytes; a chunk is published when
/// full, when input pauses, on a status change, and at least every
/// ``ReceiverPipeline/Configuration/rawFlushInterval``. The chunks' bytes, concatenated, are exactly the input.
@frozen
public struct PipelineRecord: Sendable, BitwiseCopyable {
    /// What a record carries.
    @frozen
    public enum Content: Sendable, BitwiseCopyable {
        case fix(Fix)
        case sentence(InlineBytes<1024>)
        case raw(InlineBytes<1024>)
        case status(ReceiverStatus)
    }

    /// The longest sentence carried (from `$` to the last checksum digit): the framer's default limit.
    public static let sentenceCapacity = 1024
    /// The most received bytes one raw record carries.
    public static let rawCapacity = 1024

    /// When the bytes that completed this record were read (for a status, when it changed).
    public var time: MonotonicTime
    public var content: Content

    /// - Complexity: O(1) plus the copy of `content`.
    @inlinable
    public init(time: MonotonicTime, _ content: Content) {
        self.time = time
        self.content = content
    }

    /// The fix, when this record carries one.
    @inlinable
    public var fix: Fix? {
        if case .fix(let fix) = content { return fix }
        return nil
    }

    /// The sentence's bytes (`$` to checksum, no line ending), when this record carries one.
    @inlinable
    public var sentence: InlineBytes<1024>? {
        if case .sentence(let bytes) = content { return bytes }
        return nil
    }

    /// The received bytes, when this record carries a raw chunk.
    @inlinable
    public var raw: InlineBytes<1024>? {
        if case .raw(let bytes) = content { return bytes }
        return nil
    }

    /// The status, when this record carries one.
    @inlinable
    public var status: ReceiverStatus? {
        if case .status(let status) = content { return status }
        return nil
    }
}
