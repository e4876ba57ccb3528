import Glibc
import Pipeline
import Synchronization
import System
import TestSupport
import Testing

/// Blocking waits and many threads. The stress test is the one to run under `swift test --sanitize thread`.
@Suite struct RingThreadingTests {
    @Test func waitTimesOutWithoutSpinning() {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let consumer = ring.makeConsumer()
        let cpuBefore = threadCPUTime()
        let start = MonotonicTime.now()
        #expect(consumer.wait(timeout: .milliseconds(200)) == .timedOut)
        let waited = start.elapsed
        #expect(waited >= .milliseconds(195))
        #expect(waited < .seconds(5))
        // Blocked in futex, not spinning: well under a tenth of the wait on the CPU.
        #expect(threadCPUTime() - cpuBefore < .milliseconds(20))
        let read = consumer.read(maximumCount: 4, timeout: .milliseconds(20))
        #expect(read.records.isEmpty && !read.isFinished && read.lost == 0)
    }

    @Test func blockedReadWakesOnPublish() throws {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let consumer = ring.makeConsumer()
        let thread = Shared<pid_t?>(nil)
        let result = Shared<(records: [Probe], waited: Duration, returned: MonotonicTime)?>(nil)
        let waiter = TestThread {
            thread.withLock { $0 = Threads.currentID }
            let start = MonotonicTime.now()
            let read = consumer.read(maximumCount: 8, timeout: .seconds(20))
            let returned = MonotonicTime.now()
            result.withLock { $0 = (read.records, returned - start, returned) }
        }
        // The read is blocked in futex, nothing returned yet: only the publish can wake it.
        let id = try #require(waitFor(timeout: .seconds(10)) { thread.withLock { $0 } })
        #expect(waitUntil(timeout: .seconds(10)) { Threads.isBlocked(id) })
        #expect(result.withLock { $0 } == nil)
        let published = MonotonicTime.now()
        ring.publish(Probe(42))
        waiter.join()
        let outcome = result.withLock { $0 }
        #expect(outcome?.records == [Probe(42)])
        #expect(outcome.map { $0.returned >= published && $0.waited < .seconds(10) } == true)
    }

    @Test func everyWaiterWakesOnClose() {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let outcomes = Shared<[RingWait]>([])
        let threads = Shared<[pid_t]>([])
        let waiters = (0..<3).map { _ in
            let consumer = ring.makeConsumer()
            return TestThread {
                threads.withLock { $0.append(Threads.currentID) }
                let outcome = consumer.wait(timeout: .seconds(20))
                outcomes.withLock { $0.append(outcome) }
            }
        }
        // All three blocked in their waits.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                let ids = threads.withLock { $0 }
                return ids.count == 3 && ids.allSatisfy { Threads.isBlocked($0) }
            })
        #expect(outcomes.withLock { $0 } == [])
        let start = MonotonicTime.now()
        ring.close()
        for waiter in waiters { waiter.join() }
        #expect(start.elapsed < .seconds(10))
        #expect(outcomes.withLock { $0 } == [.finished, .finished, .finished])
    }

    @Test func leavingWakesTheConsumersOwnWait() throws {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let consumer = ring.makeConsumer()
        let other = ring.makeConsumer()
        let outcome = Shared<RingBatch<Probe>?>(nil)
        let thread = Shared<pid_t?>(nil)
        let waiter = TestThread {
            thread.withLock { $0 = Threads.currentID }
            let read = consumer.read(maximumCount: 4, timeout: .seconds(20))
            outcome.withLock { $0 = read }
        }
        // Blocked in its read when it leaves.
        let id = try #require(waitFor(timeout: .seconds(10)) { thread.withLock { $0 } })
        #expect(waitUntil(timeout: .seconds(10)) { Threads.isBlocked(id) })
        #expect(outcome.withLock { $0 == nil })
        consumer.leave()
        waiter.join()
        #expect(outcome.withLock { $0?.isFinished } == true)
        // The other consumer is unaffected.
        #expect(other.wait(timeout: .milliseconds(10)) == .timedOut)
    }

    /// One producer, four consumers at different speeds, and a fifth that keeps joining and leaving: every record
    /// read is whole (no torn copies), in order, and each consumer's gaps add up exactly to the loss it reported.
    ///
    /// Under `swift test --sanitize thread` this also shows the seqlock copy is free of data races: a variant that
    /// reads slot words with plain loads is reported by Thread Sanitizer here (checked by hand).
    @Test func stress() {
        let total: UInt64 = 150_000
        let ring = BroadcastRing<WideProbe>(capacity: 64)
        let failures = Shared<[String]>([])
        let tallies = Shared<[String: (delivered: UInt64, lost: UInt64)]>([:])

        func check(
            _ name: String, _ consumer: RingConsumer<WideProbe>, batch: Int, polling: Bool = false,
            pause: @escaping @Sendable (Int) -> Void
        ) -> TestThread {
            TestThread {
                let buffer = UnsafeMutableBufferPointer<WideProbe>.allocate(capacity: batch)
                defer { buffer.deallocate() }
                var expected: UInt64 = 0
                var gaps: UInt64 = 0
                var reads = 0
                while true {
                    let read = polling ? consumer.poll(into: buffer) : consumer.read(into: buffer, timeout: .seconds(1))
                    for record in buffer.prefix(read.count) {
                        if !record.isIntact { failures.withLock { $0.append("\(name): torn record \(record.index)") } }
                        if record.index < expected {
                            failures.withLock { $0.append("\(name): \(record.index) after \(expected - 1)") }
                        }
                        gaps += record.index - expected
                        expected = record.index + 1
                    }
                    if read.isFinished { break }
                    reads += 1
                    pause(reads)
                }
                gaps += total - expected
                if gaps != consumer.lost {
                    failures.withLock { $0.append("\(name): gaps \(gaps) but lost \(consumer.lost)") }
                }
                tallies.withLock { $0[name] = (consumer.delivered, consumer.lost) }
            }
        }

        let threads = [
            check("fast", ring.makeConsumer(name: "fast"), batch: 64) { _ in },
            check("slow", ring.makeConsumer(name: "slow"), batch: 8) { reads in
                // A slow consumer, falling behind and catching up.
                if reads % 4 == 0 { sleep(for: .milliseconds(1)) } else { _ = sched_yield() }  // pacing under test
            },
            check("single", ring.makeConsumer(name: "single"), batch: 1) { _ in },
            // Never waits, so nothing it does happens-before the producer's next write (a waiting consumer's
            // futex bookkeeping would order it): Thread Sanitizer sees any plain access to a slot as a race.
            check("polling", ring.makeConsumer(name: "polling"), batch: 16, polling: true) { _ in _ = sched_yield() },
        ]
        let stop = Atomic<Bool>(false)
        let churn = TestThread {
            var rounds = 0
            while !stop.load(ordering: .acquiring) {
                let consumer = ring.makeConsumer(name: "churn", startingAt: rounds % 2 == 0 ? .oldest : .latest)
                var expected = consumer.position
                var gaps: UInt64 = 0
                for _ in 0..<3 {
                    let read = consumer.read(maximumCount: 16, timeout: .milliseconds(5))
                    for record in read.records {
                        if !record.isIntact { failures.withLock { $0.append("churn: torn record \(record.index)") } }
                        gaps += record.index &- expected
                        expected = record.index + 1
                    }
                }
                if gaps != consumer.lost {
                    failures.withLock { $0.append("churn: gaps \(gaps), lost \(consumer.lost)") }
                }
                consumer.leave()
                rounds += 1
            }
        }

        for index in 0..<total {
            ring.publish(WideProbe(index))
            // Pause now and then so consumers catch up, block, and are woken by the futex.
            if index % 4096 == 0 {
                sleep(for: .milliseconds(2))  // pacing under test
            } else if index % 256 == 0 {
                _ = sched_yield()
            }
        }
        ring.close()
        for thread in threads { thread.join() }
        stop.store(true, ordering: .releasing)
        churn.join()

        #expect(failures.withLock { $0 } == [])
        let results = tallies.withLock { $0 }
        for name in ["fast", "slow", "single", "polling"] {
            let tally = results[name]
            #expect(tally.map { $0.delivered + $0.lost } == total, "\(name)")
        }
        print(
            "stress: \(total) records;",
            results.sorted { $0.key < $1.key }.map { "\($0.key) delivered \($0.value.delivered) lost \($0.value.lost)" }
                .joined(separator: ", "))
    }
}

/// CPU time used by the calling thread.
func threadCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}
