import NMEA
import Threading

/// Fixes handed from the thread that assembles them to a thread of their own that takes them (a command's cleaning,
/// writing, trip finding), in order: with a file read in pieces (``SentenceInput/readInPieces``), assembling and
/// what is done with each fix then run side by side instead of in turn on one thread.
///
/// The fixes go over in batches of ``batchSize`` (one lock and one wake-up a batch, not a fix), and the batches'
/// buffers go back to be filled again. Memory: at most ``batches`` batches filled and waiting, the one being taken,
/// and the one being filled: `(batches + 2) × batchSize × MemoryLayout<Fix>.stride` (about 2.7 MB).
final class FixHandOff: @unchecked Sendable {
    static let batchSize = 256
    static let batches = 4

    private struct Queue {
        /// Batches filled, oldest first.
        var full: [[Fix]] = []
        /// Batches taken, emptied, to be filled again.
        var spare: [[Fix]] = []
    }

    private let queue = Locked(Queue())
    /// Signalled for each batch handed over, and once at the end.
    private let ready = Semaphore()
    /// Signalled for each batch taken: the assembling thread waits for one before handing over a batch more.
    private let slots = Semaphore()
    /// What is done with each fix; set while the taking thread runs.
    private var take: ((Fix) -> Void)?

    private init() {
        for _ in 0..<Self.batches { slots.signal() }
    }

    /// Runs `body` on this thread, handing it a function that passes each fix to `take` on a thread of its own, in
    /// the order given; returns once `take` has had every fix (also when `body` throws).
    static func run<R>(_ take: (Fix) -> Void, _ body: (_ send: (Fix) -> Void) throws -> R) rethrows -> R {
        try withoutActuallyEscaping(take) { take in
            let handOff = FixHandOff()
            handOff.take = take
            let thread = NativeThread(name: "fixes") { handOff.takeAll() }
            var filling: [Fix] = []
            filling.reserveCapacity(batchSize)
            defer {
                handOff.end(filling)
                thread.join()
                handOff.take = nil  // the closure does not outlive this call
            }
            return try body { fix in
                filling.append(fix)
                if filling.count == batchSize { filling = handOff.handOver(filling) }
            }
        }
    }

    /// Queues a full batch (waiting while ``batches`` are queued) and returns an empty one to fill.
    private func handOver(_ batch: [Fix]) -> [Fix] {
        slots.wait()
        let next = queue.withLock { queue -> [Fix]? in
            queue.full.append(batch)
            return queue.spare.popLast()
        }
        ready.signal()
        guard let next else {
            var fresh: [Fix] = []
            fresh.reserveCapacity(Self.batchSize)
            return fresh
        }
        return next
    }

    /// Queues the last batch, then the end.
    private func end(_ batch: [Fix]) {
        if !batch.isEmpty {
            queue.withLock { $0.full.append(batch) }
            ready.signal()
        }
        ready.signal()
    }

    /// The taking thread: each batch in turn, to the end.
    private func takeAll() {
        while true {
            ready.wait()
            guard var batch = queue.withLock({ $0.full.isEmpty ? nil : $0.full.removeFirst() }) else { return }
            for fix in batch { take!(fix) }
            batch.removeAll(keepingCapacity: true)
            queue.withLock { $0.spare.append(batch) }
            slots.signal()
        }
    }
}
