import NMEA
import Pipeline
import Synchronization
import System
import TestSupport
import Testing

/// The one read loop: every record in order, each batch with the loss before it, idle calls while nothing comes,
/// one finish at the end (the ring closed, or the loop stopped).
@Suite struct RingConsumerLoopTests {
    final class Collector: RecordConsumer, @unchecked Sendable {
        var seen: [UInt32] = []
        var lostReported = 0
        var idles = 0
        var finishes = 0
        var batches = 0
        /// What another thread may watch while the loop runs: records consumed, idle calls, a batch held at the gate.
        let consumed = Atomic<Int>(0)
        let idleCalls = Atomic<Int>(0)
        let isHeldAtTheGate = Atomic<Bool>(false)
        /// Closed (`blocked`): the first batch waits in `consume` until ``release()``.
        private let gate = WakeUp()
        private let isBlocked: Bool

        init(blocked: Bool = false) { isBlocked = blocked }

        func release() { gate.signal() }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            if isBlocked {
                isHeldAtTheGate.store(true, ordering: .releasing)
                _ = gate.wait(timeout: .seconds(30))  // until release(); never longer, should the test fail first
                isHeldAtTheGate.store(false, ordering: .releasing)
            }
            batches += 1
            lostReported += lost
            for record in records { if let status = record.status { seen.append(status.baudRate) } }
            consumed.add(records.count, ordering: .releasing)
        }

        func idle() {
            idles += 1
            idleCalls.add(1, ordering: .releasing)
        }

        func finish() { finishes += 1 }
    }

    static func record(_ number: UInt32) -> PipelineRecord {
        PipelineRecord(time: .now(), .status(.connected(device: "test", baudRate: number)))
    }

    @Test func everyRecordInOrderIdleWhileNothingComesAndOneFinishAfterTheRingCloses() {
        let ring = BroadcastRing<PipelineRecord>(capacity: 256)
        let collector = Collector()
        let loop = RingConsumerLoop(
            collector, reading: ring.makeConsumer(name: "collector"),
            options: .init(batchSize: 8, idleInterval: .milliseconds(20)))
        loop.start()
        for number in 1...100 { ring.publish(Self.record(UInt32(number))) }
        // Nothing more comes for a while: the loop has read the hundred and calls idle.
        #expect(
            waitUntil(timeout: .seconds(10)) {
                collector.consumed.load(ordering: .acquiring) == 100
                    && collector.idleCalls.load(ordering: .acquiring) >= 1
            })
        for number in 101...200 { ring.publish(Self.record(UInt32(number))) }
        ring.close()
        loop.join()
        #expect(collector.seen == Array(1...200))
        #expect(collector.batches >= 25)  // at most 8 a batch
        #expect(collector.idles >= 1)
        #expect(collector.finishes == 1)
        #expect(collector.lostReported == 0)
        #expect(loop.lost == 0)
        #expect(loop.name == "collector")
    }

    @Test func aConsumerThatFallsARingBehindIsToldHowManyItLostAndTheCountIsKept() {
        let ring = BroadcastRing<PipelineRecord>(capacity: 8)
        let collector = Collector(blocked: true)
        let loop = RingConsumerLoop(
            collector, reading: ring.makeConsumer(name: "slow"),
            options: .init(batchSize: 4, idleInterval: .milliseconds(20)))
        loop.start()
        ring.publish(Self.record(0))
        // The loop holds record 0 and waits at the gate while the ring laps it.
        #expect(waitUntil(timeout: .seconds(10)) { collector.isHeldAtTheGate.load(ordering: .acquiring) })
        for number in 1...100 { ring.publish(Self.record(UInt32(number))) }
        collector.release()
        ring.close()
        loop.join()
        #expect(collector.lostReported > 0)
        #expect(UInt64(collector.lostReported) == loop.lost)
        #expect(collector.seen.count + collector.lostReported == 101)
        #expect(collector.seen.suffix(8) == Array(93...100))
        #expect(collector.finishes == 1)
    }

    @Test func stopEndsTheLoopWithoutTheRingClosing() {
        let ring = BroadcastRing<PipelineRecord>(capacity: 16)
        let collector = Collector()
        let loop = RingConsumerLoop(
            collector, reading: ring.makeConsumer(name: "leaving"),
            options: .init(batchSize: 4, idleInterval: .seconds(10)))
        loop.start()
        ring.publish(Self.record(1))
        let started = MonotonicTime.now()
        #expect(waitUntil(timeout: .seconds(10)) { collector.consumed.load(ordering: .acquiring) == 1 })
        loop.stop()
        #expect(started.elapsed < .seconds(5))
        #expect(collector.seen == [1])
        #expect(collector.finishes == 1)
        #expect(!ring.isClosed)
    }
}
