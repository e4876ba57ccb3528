/// What one reader of a pipeline's records does with them: write tracks, capture the raw bytes, detect trips,
/// publish to MQTT, draw a status line, serve gpsd clients.
///
/// A ``RingConsumerLoop`` reads the ring and calls its consumer, always from the loop's own thread and in the order
/// the records were published, so a consumer needs no lock for its own state:
///
///     final class FixCounter: RecordConsumer {
///         let fixes = Atomic<Int>(0)                                   // read by other threads
///         func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
///             for record in records where record.fix != nil { fixes.add(1, ordering: .relaxed) }
///         }
///     }
public protocol RecordConsumer: AnyObject {
    /// Records read in one go, oldest first (possibly none, when only a loss is reported). `lost` records were
    /// overwritten before the first of them could be read: the consumer fell more than a ring behind (a track
    /// starts a new segment there).
    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int)

    /// Nothing new arrived for ``RingConsumerLoop/Options/idleInterval`` (a status line redraws its clock).
    func idle()

    /// The last call: the ring was closed and read to its end, or the loop was stopped. Finish files here.
    func finish()
}

extension RecordConsumer {
    /// Does nothing.
    public func idle() {}

    /// Does nothing.
    public func finish() {}
}
