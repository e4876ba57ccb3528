/// What every append-only track writer (GPX, KML, CSV) shares: its ``DocumentFile``, the bytes waiting for the next
/// flush, and the flush, finish and discard steps, so the three differ only in the text they write.
struct AppendingDocument {
    private(set) var file: DocumentFile
    let flushPolicy: FlushPolicy
    /// The text written since the last flush.
    var pending: [UInt8] = []
    private(set) var isFinished = false
    private(set) var flushes = 0
    /// What the writer did (its flushes are counted here).
    var counts = TrackStatistics()

    /// ``counts`` with the flushes.
    var statistics: TrackStatistics {
        var statistics = counts
        statistics.flushes = flushes
        return statistics
    }

    init(_ file: DocumentFile, flush: FlushPolicy) {
        self.file = file
        flushPolicy = flush
        pending.reserveCapacity(batchBytes + 4096)
    }

    var path: String { file.path }

    /// Writes the first document; on failure the file is closed (and, not yet in place, removed).
    mutating func start(head: [UInt8], tail: [UInt8]) throws(TrackError) {
        do {
            try file.start(head: head, tail: tail)
        } catch {
            file.closeDescriptor()
            throw error
        }
    }

    /// Flushes when the policy says, after a point was added to ``pending``.
    mutating func pointAdded(tail: [UInt8]) throws(TrackError) {
        if case .everyFix = flushPolicy {
            try flush(tail: tail)
        } else if pending.count >= batchBytes {
            try flush(tail: tail)
        }
    }

    /// Makes ``pending`` part of the document, with `tail` after it.
    mutating func flush(tail: [UInt8]) throws(TrackError) {
        guard !pending.isEmpty else { return }
        try file.append(pending, newTail: tail)
        pending.removeAll(keepingCapacity: true)
        flushes += 1
    }

    /// Flushes and puts the document in place; nothing is accepted after.
    mutating func finish(tail: [UInt8]) throws(TrackError) {
        guard !isFinished else { return }
        isFinished = true
        do {
            try flush(tail: tail)
        } catch {
            file.closeDescriptor()
            throw error
        }
        try file.finish()
        pending = []  // a finished document waiting to be published (a file per day) holds no buffer
    }

    /// Puts a finished document in place (``Publication/onRequest``).
    mutating func publish() throws(TrackError) { try file.publish() }

    /// Puts `bytes` into the finished document at `offset` (see ``DocumentFile/insert(_:at:)``).
    mutating func insert(_ bytes: [UInt8], at offset: Int) throws(TrackError) { try file.insert(bytes, at: offset) }

    /// Gives the document up: one already in place is finished as it stands, one not yet in place is removed.
    mutating func discard(tail: [UInt8]) {
        if file.isPublished && !isFinished {
            try? finish(tail: tail)
        }
        isFinished = true
        file.closeDescriptor()
    }

    mutating func closeDescriptor() { file.closeDescriptor() }

    private var batchBytes: Int {
        if case .batch(let bytes) = flushPolicy { return max(bytes, 1) }
        return 4096
    }
}
