import CShims
import Synchronization
import Threading

/// A broadcast ring buffer: one producer publishes fixed-size records, any number of consumers read all of them, each
/// at its own pace with its own cursor (the LMAX Disruptor's single-producer ring, without its back-pressure).
///
///     let ring = BroadcastRing<PipelineRecord>(capacity: 2048)
///     let consumer = ring.makeConsumer(name: "gpx")          // any thread, any time
///     ring.publish(record)                                   // the producer's thread only
///     let batch = consumer.read(maximumCount: 64, timeout: .seconds(1))
///     for record in batch.records { … }
///     if batch.lost > 0 { … }                                // overwritten before this consumer got to them
///
/// **The producer never waits.** Publishing writes the next slot whether or not every consumer has read what was
/// there: a consumer that falls more than ``capacity`` records behind loses the oldest ones. The loss is exact and
/// never silent — each read reports how many records were skipped, and ``RingConsumer/lost`` keeps the total.
///
/// **Memory.** ``capacity`` slots (a power of two) are allocated once, in `init`; publishing and reading allocate
/// nothing. Each slot is one 64-bit stamp followed by the record's bytes, rounded up to a 64-byte cache line:
/// ``slotSize`` bytes, ``memorySize`` in all.
///
/// **Torn records.** A consumer copies a record while the producer may be overwriting the same slot (it lapped the
/// consumer). Each slot carries a sequence stamp, as a seqlock does: the producer marks the slot "being written",
/// writes the record, then stamps it with the record's sequence number; the consumer checks the stamp, copies, and
/// checks the stamp again. A changed stamp means the record was overwritten: it counts as lost, never as a mixture
/// of two records. Record bytes move as relaxed 64-bit atomic loads and stores ordered by fences (the seqlock
/// formulation that is race-free in the C++/Swift memory model), so the copy is no data race and Thread Sanitizer
/// agrees. This is why records must be `BitwiseCopyable`: they are copied as bytes and may be discarded half-read.
///
/// **Waiting.** ``RingConsumer/poll(into:)`` never blocks; ``RingConsumer/wait(timeout:)`` and the `read` methods
/// sleep in `futex(2)` on a word the producer bumps after publishing — only when someone is waiting, so an
/// unwatched producer makes no system call. ``close()`` wakes every waiter; records still in the ring can be
/// read after it.
///
/// **Sequence numbers.** Records are numbered from ``initialSequence`` (0 unless given) by a 64-bit counter; all
/// arithmetic on it wraps, so even a counter that passes `UInt64.max` keeps working.
///
/// Thread safety: ``publish(_:)`` and ``close()`` from one producer thread at a time; everything else from any
/// thread.
public final class BroadcastRing<Record: BitwiseCopyable>: @unchecked Sendable {
    /// The number of slots: how far a consumer may fall behind before it loses records.
    public let capacity: Int
    /// The sequence number of the first record published.
    public let initialSequence: UInt64
    /// `capacity - 1`, to turn a sequence number into a slot index.
    @usableFromInline let mask: UInt64
    /// 64-bit words of record data per slot (the record's size rounded up to 8 bytes, divided by 8).
    @usableFromInline let recordWords: Int
    /// Words per slot: the stamp, the record words, and padding to a whole number of 64-byte cache lines.
    @usableFromInline let slotWords: Int
    /// The slots, `capacity × slotWords` atomic words.
    @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt64>>
    /// The shared counters: published sequence, waiters, wake-up word, closed flag.
    @usableFromInline let control: RingControl
    private let registry = Locked(ConsumerRegistry())

    /// Makes a ring of `capacity` slots, all allocated now.
    /// - Parameters:
    ///   - capacity: a power of two, at least 2.
    ///   - initialSequence: the sequence number of the first record (tests start near a wrap to try every offset).
    /// - Complexity: O(`capacity`).
    public init(capacity: Int, initialSequence: UInt64 = 0) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "ring capacity must be a power of two ≥ 2")
        self.capacity = capacity
        self.initialSequence = initialSequence
        mask = UInt64(capacity - 1)
        recordWords = (MemoryLayout<Record>.size + 7) / 8
        slotWords = (1 + recordWords + 7) / 8 * 8
        let words = capacity * slotWords
        let raw = UnsafeMutableRawPointer.allocate(byteCount: words * 8, alignment: 64)
        slots = raw.bindMemory(to: Atomic<UInt64>.self, capacity: words)
        // Every word starts at 1: an odd stamp ("being written") matches no record, so an unwritten slot is never
        // taken for a published one.
        for index in 0..<words { (slots + index).initialize(to: Atomic(1)) }
        control = RingControl(initialSequence: initialSequence)
    }

    deinit {
        slots.deinitialize(count: capacity * slotWords)
        UnsafeMutableRawPointer(slots).deallocate()
        control.deallocate()
    }

    // MARK: Sizes

    /// Bytes per slot: an 8-byte stamp plus the record, rounded up to 64 bytes.
    /// - Complexity: O(1).
    public var slotSize: Int { slotWords * 8 }

    /// Bytes held by the slots (the fixed cost of the ring).
    /// - Complexity: O(1).
    public var memorySize: Int { capacity * slotSize }

    // MARK: Index arithmetic

    /// The slot that holds record `sequence`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func slot(for sequence: UInt64) -> Int { Int(truncatingIfNeeded: sequence & mask) }

    /// The stamp word of the slot that holds record `sequence`; the record's words follow it.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func stamp(for sequence: UInt64) -> UnsafeMutablePointer<Atomic<UInt64>> {
        slots + slot(for: sequence) &* slotWords
    }

    /// The stamp of a slot holding the complete record `sequence` (even).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func completeStamp(_ sequence: UInt64) -> UInt64 { sequence &<< 1 }

    /// The stamp of a slot while record `sequence` is written into it (odd).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func writingStamp(_ sequence: UInt64) -> UInt64 { sequence &<< 1 | 1 }

    /// How many records a consumer whose next record is `sequence` has yet to read, when `head` is the next
    /// sequence to be published. Wraps correctly across `UInt64.max`.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func distance(from sequence: UInt64, to head: UInt64) -> UInt64 { head &- sequence }

    /// The oldest record still held when `head` is the next sequence to be published.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func oldestSequence(head: UInt64) -> UInt64 {
        let published = BroadcastRing.distance(from: initialSequence, to: head)
        return head &- min(published, UInt64(capacity))
    }

    // MARK: State

    /// The sequence number the next record will get: records `initialSequence..<head` have been published.
    /// - Complexity: O(1).
    @inlinable
    public var head: UInt64 { control.head.pointee.load(ordering: .acquiring) }

    /// The number of records published so far.
    /// - Complexity: O(1).
    @inlinable
    public var publishedCount: UInt64 { BroadcastRing.distance(from: initialSequence, to: head) }

    /// `true` once ``close()`` was called.
    /// - Complexity: O(1).
    @inlinable
    public var isClosed: Bool { control.closed.pointee.load(ordering: .acquiring) }

    // MARK: Producing

    /// Publishes `record` in the next slot, overwriting the oldest record once the ring is full. Never waits.
    ///
    /// Call from one thread at a time (the single producer), and not after ``close()``.
    /// - Complexity: O(*s*) in the record's size; one `futex` wake-up system call when a consumer is waiting.
    @inlinable
    public func publish(_ record: Record) {
        let sequence = control.head.pointee.load(ordering: .relaxed)
        let stamp = self.stamp(for: sequence)
        stamp.pointee.store(BroadcastRing.writingStamp(sequence), ordering: .relaxed)
        // Orders the "being written" stamp before every record word: a consumer that sees any new word then sees
        // the new stamp when it checks again.
        atomicMemoryFence(ordering: .releasing)
        BroadcastRing.store(record, into: stamp + 1)
        stamp.pointee.store(BroadcastRing.completeStamp(sequence), ordering: .releasing)
        // Sequentially consistent with the waiter count below and the consumers' own pair (`waiters` up, then
        // `head` again): either a consumer about to sleep sees the new head, or the producer sees the consumer.
        control.head.pointee.store(sequence &+ 1, ordering: .sequentiallyConsistent)
        if control.waiters.pointee.load(ordering: .sequentiallyConsistent) != 0 { control.wakeAll() }
    }

    /// Marks the ring closed and wakes every waiting consumer. Consumers still read what is left, then see
    /// ``RingRead/isFinished``. Publishing after closing is a programming error.
    /// - Complexity: O(1) and one `futex` system call.
    public func close() {
        control.closed.pointee.store(true, ordering: .sequentiallyConsistent)
        control.wakeAll()
    }

    /// Wakes every consumer waiting on this ring, so it looks again at what changed (used when a consumer is
    /// cancelled from another thread).
    /// - Complexity: O(1) and one `futex` system call.
    func wakeWaiters() { control.wakeAll() }

    // MARK: Copying records

    /// Writes `record` as relaxed atomic words at `words`.
    /// - Complexity: O(*s*) in the record's size.
    @inlinable @inline(__always)
    static func store(_ record: Record, into words: UnsafeMutablePointer<Atomic<UInt64>>) {
        withUnsafeBytes(of: record) { bytes in
            let whole = bytes.count / 8
            for index in 0..<whole {
                words[index].store(bytes.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self), ordering: .relaxed)
            }
            let tail = bytes.count - whole * 8
            if tail > 0 {
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) { word in
                    word.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(whole * 8)...]))
                }
                words[whole].store(last, ordering: .relaxed)
            }
        }
    }

    /// Copies record `sequence` to `destination` if the slot still holds it from start to end of the copy.
    ///
    /// Call only for `sequence < head` (as read with acquiring order). On `false` the record was overwritten and
    /// `destination` holds meaningless bytes.
    /// - Complexity: O(*s*) in the record's size.
    @inlinable @inline(__always)
    func copy(_ sequence: UInt64, to destination: UnsafeMutableRawPointer) -> Bool {
        let stamp = self.stamp(for: sequence)
        let expected = BroadcastRing.completeStamp(sequence)
        guard stamp.pointee.load(ordering: .acquiring) == expected else { return false }
        let words = stamp + 1
        let size = MemoryLayout<Record>.size
        let whole = size / 8
        for index in 0..<whole {
            destination.storeBytes(of: words[index].load(ordering: .relaxed), toByteOffset: index &* 8, as: UInt64.self)
        }
        let tail = size - whole * 8
        if tail > 0 {
            let last = words[whole].load(ordering: .relaxed)
            withUnsafeBytes(of: last) { bytes in
                (destination + whole * 8).copyMemory(from: bytes.baseAddress!, byteCount: tail)
            }
        }
        // Orders the record loads before the second look at the stamp.
        atomicMemoryFence(ordering: .acquiring)
        return stamp.pointee.load(ordering: .relaxed) == expected
    }

    // MARK: Consumers

    /// Adds a consumer, which reads from `start` on. Any thread, any time.
    /// - Parameters:
    ///   - name: a label for reports (``consumerStatistics()``), such as `"gpx"` or `"gpsd"`.
    ///   - start: where it begins: ``RingStart/next`` (the default), ``RingStart/latest`` or ``RingStart/oldest``.
    /// - Complexity: O(*c*) in the number of consumers (the registry for reports; the producer never looks at it).
    public func makeConsumer(name: String = "", startingAt start: RingStart = .next) -> RingConsumer<Record> {
        RingConsumer(ring: self, name: name, start: start)
    }

    /// The position where a consumer joining now at `start` begins.
    /// - Complexity: O(1).
    func startSequence(_ start: RingStart) -> UInt64 {
        let head = self.head
        switch start {
        case .next: return head
        case .latest: return head == initialSequence ? head : head &- 1
        case .oldest: return oldestSequence(head: head)
        }
    }

    /// Per-consumer counters for every consumer still reading, in the order they joined.
    /// - Complexity: O(*c*) in the number of consumers.
    public func consumerStatistics() -> [RingConsumerStatistics] {
        let consumers = registry.withLock { $0.entries.compactMap { $0.consumer } }
        return consumers.map { $0.statistics }
    }

    /// The number of consumers still reading.
    /// - Complexity: O(1).
    public var consumerCount: Int { registry.withLock { $0.entries.count } }

    func register(_ consumer: RingConsumer<Record>) -> Int {
        registry.withLock { registry in
            registry.lastID += 1
            registry.entries.append(ConsumerRegistry.Entry(id: registry.lastID, consumer: consumer))
            return registry.lastID
        }
    }

    func unregister(_ id: Int) {
        registry.withLock { registry in registry.entries.removeAll { $0.id == id } }
    }

    /// The consumers, weakly held (a consumer that is dropped leaves the ring).
    private struct ConsumerRegistry {
        struct Entry {
            var id: Int
            weak var consumer: RingConsumer<Record>?
        }
        var entries: [Entry] = []
        var lastID = 0
    }
}

/// Where a new consumer starts reading.
public enum RingStart: Sendable, Hashable {
    /// With the first record published after it joined.
    case next
    /// With the most recently published record (when there is one), then everything after it.
    case latest
    /// With the oldest record the ring still holds (at most ``BroadcastRing/capacity`` back).
    case oldest
}

/// The ring's shared words, each in stable memory (the futex needs an address): the published sequence on a cache
/// line of its own (the producer writes it for every record), then the waiter count, the wake-up word and the
/// closed flag, which change rarely.
@usableFromInline
struct RingControl: @unchecked Sendable {
    /// The sequence of the next record to publish.
    @usableFromInline let head: UnsafeMutablePointer<Atomic<UInt64>>
    /// Consumers inside `futex` wait (or about to be).
    @usableFromInline let waiters: UnsafeMutablePointer<Atomic<UInt32>>
    /// Bumped before every wake-up; waiters sleep on it.
    @usableFromInline let wakeWord: UnsafeMutablePointer<Atomic<UInt32>>
    @usableFromInline let closed: UnsafeMutablePointer<Atomic<Bool>>

    init(initialSequence: UInt64) {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 64)
        head = raw.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
        head.initialize(to: Atomic(initialSequence))
        waiters = (raw + 64).bindMemory(to: Atomic<UInt32>.self, capacity: 1)
        waiters.initialize(to: Atomic(0))
        wakeWord = (raw + 68).bindMemory(to: Atomic<UInt32>.self, capacity: 1)
        wakeWord.initialize(to: Atomic(0))
        closed = (raw + 72).bindMemory(to: Atomic<Bool>.self, capacity: 1)
        closed.initialize(to: Atomic(false))
    }

    func deallocate() {
        head.deinitialize(count: 1)
        waiters.deinitialize(count: 1)
        wakeWord.deinitialize(count: 1)
        closed.deinitialize(count: 1)
        UnsafeMutableRawPointer(head).deallocate()
    }

    /// Bumps the wake-up word and wakes every thread sleeping on it (`futex(FUTEX_WAKE)`).
    /// - Complexity: O(1) and one system call.
    @usableFromInline @inline(never)
    func wakeAll() {
        wakeWord.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        _ = nmea_futex_wake(UnsafeMutableRawPointer(wakeWord).assumingMemoryBound(to: UInt32.self), Int32.max)
    }

    /// Sleeps while the wake-up word is still `expected`, at most `nanoseconds` (`futex(FUTEX_WAIT)`); returns on a
    /// wake-up, a changed word, a signal, the timeout, or spuriously.
    /// - Complexity: one system call.
    func sleep(whileWakeWordIs expected: UInt32, nanoseconds: Int64) {
        let word = UnsafeMutableRawPointer(wakeWord).assumingMemoryBound(to: UInt32.self)
        _ = nmea_futex_wait(word, expected, nanoseconds)
    }
}
