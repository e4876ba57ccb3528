import Glibc
import Synchronization
import System

/// One reader of a ``BroadcastRing``: its own cursor, its own loss count. Made by
/// ``BroadcastRing/makeConsumer(name:startingAt:)``; it leaves the ring when ``leave()`` is called or when it is
/// released.
///
///     let consumer = ring.makeConsumer(name: "raw", startingAt: .oldest)
///     let buffer = UnsafeMutableBufferPointer<PipelineRecord>.allocate(capacity: 64)   // once
///     while true {
///         let read = consumer.read(into: buffer, timeout: .milliseconds(500))
///         for record in buffer.prefix(read.count) { … }
///         if read.lost > 0 { … }     // records overwritten before we got to them
///         if read.isFinished { break }
///     }
///
/// Read from one thread at a time (the consumer's own). The counters (``position``, ``lost``, ``delivered``,
/// ``statistics``) and ``leave()`` may be used from any thread.
public final class RingConsumer<Record: BitwiseCopyable>: Sendable {
    /// The ring read from.
    public let ring: BroadcastRing<Record>
    /// The label given when joining.
    public let name: String
    /// The sequence number of the next record to read.
    @usableFromInline let next: Atomic<UInt64>
    @usableFromInline let lostTotal = Atomic<UInt64>(0)
    @usableFromInline let deliveredTotal = Atomic<UInt64>(0)
    @usableFromInline let left = Atomic<Bool>(false)
    private let registration = Atomic<Int>(0)

    init(ring: BroadcastRing<Record>, name: String, start: RingStart) {
        self.ring = ring
        self.name = name
        next = Atomic(ring.startSequence(start))
        registration.store(ring.register(self), ordering: .relaxed)
    }

    deinit {
        ring.unregister(registration.load(ordering: .relaxed))
    }

    // MARK: Counters

    /// The sequence number of the next record this consumer will read.
    /// - Complexity: O(1).
    public var position: UInt64 { next.load(ordering: .relaxed) }

    /// Records published that this consumer has not read yet (may exceed the capacity: those are being lost).
    /// - Complexity: O(1).
    public var lag: UInt64 { BroadcastRing<Record>.distance(from: position, to: ring.head) }

    /// Records this consumer lost in all (overwritten before it read them).
    /// - Complexity: O(1).
    public var lost: UInt64 { lostTotal.load(ordering: .relaxed) }

    /// Records this consumer has read in all.
    /// - Complexity: O(1).
    public var delivered: UInt64 { deliveredTotal.load(ordering: .relaxed) }

    /// `true` once ``leave()`` was called.
    /// - Complexity: O(1).
    public var hasLeft: Bool { left.load(ordering: .acquiring) }

    /// The counters together, for reports.
    /// - Complexity: O(1).
    public var statistics: RingConsumerStatistics {
        RingConsumerStatistics(name: name, position: position, lag: lag, delivered: delivered, lost: lost)
    }

    // MARK: Leaving

    /// Stops reading: a consumer blocked in ``wait(timeout:)`` or `read` returns at once, and every later read
    /// reports ``RingRead/isFinished``. Callable from any thread (a server closing a client's connection).
    /// - Complexity: O(*c*) in the number of consumers, and one `futex` system call.
    public func leave() {
        guard !left.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ring.unregister(registration.load(ordering: .relaxed))
        ring.wakeWaiters()
    }

    // MARK: Reading

    /// Copies the records published since the last read into `buffer`, up to its size, without waiting.
    ///
    /// Records overwritten before this consumer got to them are skipped and counted in ``RingRead/lost`` (exactly:
    /// each counted record was overwritten). Elements of `buffer` past ``RingRead/count`` hold unspecified bytes
    /// afterwards; read only the first `count`.
    /// - Complexity: O(*n* × *s*) for *n* records of size *s* copied; no allocation, no system call.
    @inlinable
    public func poll(into buffer: UnsafeMutableBufferPointer<Record>) -> RingRead {
        if left.load(ordering: .relaxed) { return RingRead(count: 0, lost: 0, isFinished: true) }
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return RingRead(count: 0, lost: 0, isFinished: false)
        }
        let capacity = UInt64(ring.capacity)
        var sequence = next.load(ordering: .relaxed)
        var head = ring.head
        var count = 0
        var lost: UInt64 = 0
        while count < buffer.count {
            if sequence == head {
                head = ring.head
                if sequence == head { break }
            }
            let behind = BroadcastRing<Record>.distance(from: sequence, to: head)
            if behind > capacity {
                // Lapped: everything older than the last `capacity` records is gone.
                lost &+= behind &- capacity
                sequence = head &- capacity
            }
            if ring.copy(sequence, to: UnsafeMutableRawPointer(base + count)) {
                count &+= 1
            } else {
                // Overwritten while (or just before) we copied it: the producer is ahead of the `head` we hold, so
                // look again, and the lap check above skips whatever else it overwrote in one step.
                lost &+= 1
                head = ring.head
            }
            sequence &+= 1
        }
        next.store(sequence, ordering: .relaxed)
        if lost > 0 { lostTotal.wrappingAdd(lost, ordering: .relaxed) }
        if count > 0 { deliveredTotal.wrappingAdd(UInt64(count), ordering: .relaxed) }
        let finished = count == 0 && ring.isClosed && sequence == ring.head
        return RingRead(count: count, lost: Int(lost), isFinished: finished)
    }

    /// Waits until a record is available, the ring is closed, this consumer leaves, or `timeout` passes. Does not
    /// spin: after a couple of `sched_yield()`s it sleeps in `futex(2)` until the producer publishes.
    /// - Complexity: O(1) when a record is available; otherwise a few system calls.
    public func wait(timeout: Duration) -> RingWait {
        if let outcome = readiness() { return outcome }
        // A couple of yields first: on a busy machine the producer is often about to publish, and a yield is
        // cheaper than a futex round trip.
        for _ in 0..<2 {
            _ = sched_yield()
            if let outcome = readiness() { return outcome }
        }
        let deadline = MonotonicTime.now() + timeout
        let control = ring.control
        while true {
            control.waiters.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
            let word = control.wakeWord.pointee.load(ordering: .sequentiallyConsistent)
            // Checked again after announcing ourselves: a record published before this point is seen here; one
            // published after it makes the producer bump the word we are about to sleep on.
            if let outcome = readiness() {
                control.waiters.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                return outcome
            }
            let remaining = deadline.nanoseconds &- MonotonicTime.now().nanoseconds
            if remaining <= 0 {
                control.waiters.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                return .timedOut
            }
            control.sleep(whileWakeWordIs: word, nanoseconds: remaining)
            control.waiters.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// `.available`, `.finished`, or `nil` when there is nothing to read yet.
    private func readiness() -> RingWait? {
        if left.load(ordering: .sequentiallyConsistent) { return .finished }
        // `closed` before `head`: once closed is seen, the head read after it is final.
        let closed = ring.control.closed.pointee.load(ordering: .sequentiallyConsistent)
        let head = ring.control.head.pointee.load(ordering: .sequentiallyConsistent)
        if head != next.load(ordering: .relaxed) { return .available }
        return closed ? .finished : nil
    }

    /// Waits up to `timeout` for records (see ``wait(timeout:)``), then reads what is there (see ``poll(into:)``).
    /// - Complexity: O(*n* × *s*) for *n* records of size *s* copied, plus the wait.
    @inlinable
    public func read(into buffer: UnsafeMutableBufferPointer<Record>, timeout: Duration) -> RingRead {
        let read = poll(into: buffer)
        if read.count > 0 || read.lost > 0 || read.isFinished { return read }
        switch wait(timeout: timeout) {
        case .available, .finished: return poll(into: buffer)
        case .timedOut: return read
        }
    }

    /// Reads up to `maximumCount` records without waiting, into a new array.
    /// - Complexity: O(*n* × *s*); allocates the array (use ``poll(into:)`` to allocate nothing).
    public func poll(maximumCount: Int = 64) -> RingBatch<Record> {
        batch(maximumCount) { poll(into: $0) }
    }

    /// Waits up to `timeout` for records, then reads up to `maximumCount` of them into a new array.
    /// - Complexity: O(*n* × *s*) plus the wait; allocates the array (use ``read(into:timeout:)`` to allocate
    ///   nothing).
    public func read(maximumCount: Int = 64, timeout: Duration) -> RingBatch<Record> {
        batch(maximumCount) { read(into: $0, timeout: timeout) }
    }

    /// Waits up to `timeout` for one record.
    /// - Returns: the record and the number of records lost just before it; `nil` on timeout or when finished
    ///   (tell them apart with ``RingRead/isFinished`` from a `poll`, or ``hasLeft``/``BroadcastRing/isClosed``).
    /// - Complexity: O(*s*) plus the wait; no allocation.
    public func next(timeout: Duration) -> (record: Record, lost: Int)? {
        withUnsafeTemporaryAllocation(of: Record.self, capacity: 1) { buffer in
            let read = read(into: buffer, timeout: timeout)
            return read.count == 1 ? (buffer[0], read.lost) : nil
        }
    }

    private func batch(_ maximumCount: Int, _ body: (UnsafeMutableBufferPointer<Record>) -> RingRead)
        -> RingBatch<Record>
    {
        var read = RingRead(count: 0, lost: 0, isFinished: false)
        let records = [Record](unsafeUninitializedCapacity: max(maximumCount, 0)) { buffer, initialized in
            read = body(buffer)
            initialized = read.count
        }
        return RingBatch(records: records, lost: read.lost, isFinished: read.isFinished)
    }
}

/// What one read of a ``RingConsumer`` brought.
public struct RingRead: Sendable, Hashable {
    /// Records copied into the buffer.
    public var count: Int
    /// Records skipped because the producer overwrote them before this consumer read them.
    public var lost: Int
    /// The ring is closed (or the consumer left) and nothing is left to read: stop reading.
    public var isFinished: Bool

    public init(count: Int, lost: Int, isFinished: Bool) {
        self.count = count
        self.lost = lost
        self.isFinished = isFinished
    }
}

/// Records read into an array, with the loss before them.
public struct RingBatch<Record: BitwiseCopyable> {
    public var records: [Record]
    /// Records skipped because they were overwritten before this consumer read them.
    public var lost: Int
    /// The ring is closed (or the consumer left) and nothing is left to read.
    public var isFinished: Bool
}

extension RingBatch: Sendable where Record: Sendable {}

/// What ``RingConsumer/wait(timeout:)`` ended with.
public enum RingWait: Sendable, Hashable {
    /// A record is there to read.
    case available
    /// The timeout passed with nothing new.
    case timedOut
    /// The ring is closed and fully read, or the consumer left.
    case finished
}

/// One consumer's counters, for a status line or a report.
public struct RingConsumerStatistics: Sendable, Hashable {
    public var name: String
    /// The sequence number of its next record.
    public var position: UInt64
    /// Records published that it has not read yet.
    public var lag: UInt64
    /// Records it has read.
    public var delivered: UInt64
    /// Records it lost (overwritten before it read them).
    public var lost: UInt64
}
