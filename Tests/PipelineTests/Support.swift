import Glibc
import Pipeline

/// A record for ring tests: its index, a check word derived from it, and an odd-sized tail (23 bytes in all) so the
/// copy's last, partial word is exercised.
struct Probe: BitwiseCopyable, Equatable, CustomStringConvertible {
    var index: UInt64
    var check: UInt64
    var small: UInt32
    var smaller: UInt16
    var tiny: UInt8

    init(_ index: UInt64) {
        self.index = index
        check = index &* 0x9E37_79B9_7F4A_7C15 ^ 0x5555
        small = UInt32(truncatingIfNeeded: index &* 31)
        smaller = UInt16(truncatingIfNeeded: index &* 7)
        tiny = UInt8(truncatingIfNeeded: index &* 3)
    }

    /// `true` when every field agrees with the index (no torn copy).
    var isIntact: Bool { self == Probe(index) }

    var description: String { "Probe(\(index))" }
}

/// A wide record for stress tests: 32 words, each derived from the index, so a copy torn between two records shows.
struct WideProbe: BitwiseCopyable {
    var index: UInt64
    var words: InlineArray<31, UInt64>

    init(_ index: UInt64) {
        self.index = index
        words = InlineArray { position in index &* 0x0100_0000_01B3 &+ UInt64(position) }
    }

    var isIntact: Bool {
        for position in 0..<31 where words[position] != index &* 0x0100_0000_01B3 &+ UInt64(position) { return false }
        return true
    }
}

/// A plain POSIX thread for tests (no pool, so blocking waits cannot starve one).
final class TestThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let this = Unmanaged<TestThread>.fromOpaque(context!).takeRetainedValue()
                this.body()
                return nil
            }, context)
        precondition(result == 0)
    }

    func join() { pthread_join(thread, nil) }
}

/// Reads everything available from `consumer` (no waiting), in buffers of `batch`.
func drain<Record>(_ consumer: RingConsumer<Record>, batch: Int = 1024) -> (records: [Record], lost: Int) {
    var records: [Record] = []
    var lost = 0
    while true {
        let read = consumer.poll(maximumCount: batch)
        records += read.records
        lost += read.lost
        if read.records.isEmpty { return (records, lost) }
    }
}

/// A value behind a `pthread_mutex_t`, for collecting results from test threads. (Not `Synchronization.Mutex`:
/// Thread Sanitizer cannot see its futex-based locking on Linux and reports every value it guards as a race.)
final class Shared<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
