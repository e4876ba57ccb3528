import NMEA
import Pipeline
import Synchronization
import System
import Testing

/// The one read loop: every record in order, each batch with the loss before it, idle calls while nothing comes,
/// one finish at the end (the ring closed, or the loop stopped).
@Suite struct RingConsumerLoopTests {
    final class Collector: RecordConsumer, @unchecked Sendable {
        let gate = Mutex<Bool>(true)
        var seen: [UInt32] = []
        var lostReported = 0
        var idles = 0
        var finishes = 0
        var batches = 0
        private let isBlocked: Atomic<Bool>

        init(blocked: Bool = false) { isBlocked = Atomic(blocked) }

        func release() { isBlocked.store(false, ordering: .relaxed) }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            while isBlocked.load(ordering: .relaxed) { sleep(for: .milliseconds(1)) }
            batches += 1
            lostReported += lost
            for record in records { if let status = record.status { seen.append(status.baudRate) } }
        }

        func idle() { idles += 1 }

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
        sleep(for: .milliseconds(120))
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
        sleep(for: .milliseconds(50))  // the loop holds record 0 and waits at the gate
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
        sleep(for: .milliseconds(50))
        loop.stop()
        #expect(started.elapsed < .seconds(5))
        #expect(collector.seen == [1])
        #expect(collector.finishes == 1)
        #expect(!ring.isClosed)
    }
}
