import NMEA
import Pipeline
import Synchronization
import Testing

/// Single-threaded behaviour of the ring: contents at every wrap offset, exact loss, consumers joining and leaving.
@Suite struct BroadcastRingTests {
    /// Start sequences around the first slot wraps and around the 64-bit counter's own wrap.
    static func starts(capacity: Int) -> [UInt64] {
        let span = UInt64(capacity)
        return Array(0...(3 * span)) + (0...(2 * span)).map { UInt64.max - $0 }
    }

    @Test(arguments: [2, 4, 8, 16])
    func everyStartOffsetAndFillLevel(capacity: Int) {
        var checked = 0
        for start in Self.starts(capacity: capacity) {
            for count in 0...(2 * capacity + 1) {
                let ring = BroadcastRing<Probe>(capacity: capacity, initialSequence: start)
                let early = ring.makeConsumer(name: "early")
                for index in 0..<count { ring.publish(Probe(UInt64(index))) }
                #expect(ring.head == start &+ UInt64(count))
                #expect(ring.publishedCount == UInt64(count))

                let held = min(count, capacity)
                let expected = ((count - held)..<count).map { Probe(UInt64($0)) }
                let oldest = ring.makeConsumer(name: "oldest", startingAt: .oldest)
                let latest = ring.makeConsumer(name: "latest", startingAt: .latest)
                let next = ring.makeConsumer(name: "next", startingAt: .next)
                #expect(early.lag == UInt64(count))
                #expect(oldest.lag == UInt64(held))

                // Read in threes so that batches straddle the wrap too.
                let fromEarly = drain(early, batch: 3)
                #expect(fromEarly.records == expected, "start \(start), \(count) published")
                #expect(fromEarly.lost == count - held)
                #expect(early.lost == UInt64(count - held))
                #expect(early.delivered == UInt64(held))
                let fromOldest = drain(oldest)
                #expect(fromOldest.records == expected)
                #expect(fromOldest.lost == 0)
                #expect(drain(latest).records == (count > 0 ? [Probe(UInt64(count - 1))] : []))
                #expect(drain(next).records.isEmpty)

                // One more record reaches every consumer, whichever slot it lands in.
                ring.publish(Probe(UInt64(count)))
                for consumer in [early, oldest, latest, next] {
                    let more = drain(consumer)
                    #expect(more.records == [Probe(UInt64(count))])
                    #expect(more.lost == 0)
                    #expect(consumer.lag == 0)
                }
                checked += 1
            }
        }
        #expect(checked == Self.starts(capacity: capacity).count * (2 * capacity + 2))
    }

    /// Publishing `step` records between reads, with buffers smaller than, equal to and larger than the ring, at
    /// every start offset: each read returns exactly the records since the last one, in order, none lost.
    @Test(arguments: [1, 3, 8, 9])
    func interleavedPublishAndReadAcrossWraps(buffer: Int) {
        let capacity = 8
        for start in Self.starts(capacity: capacity) {
            for step in 1...capacity {
                let ring = BroadcastRing<Probe>(capacity: capacity, initialSequence: start)
                let consumer = ring.makeConsumer()
                var published: UInt64 = 0
                for _ in 0..<(3 * capacity / step + 2) {
                    let first = published
                    for _ in 0..<step {
                        ring.publish(Probe(published))
                        published += 1
                    }
                    let read = drain(consumer, batch: buffer)
                    #expect(read.records == (first..<published).map(Probe.init), "start \(start), step \(step)")
                    #expect(read.lost == 0)
                }
                #expect(consumer.delivered == published)
                #expect(consumer.position == start &+ published)
            }
        }
    }

    /// Three consumers at three speeds: the fast and the exactly-keeping-up ones lose nothing; the slow one loses
    /// exactly the records overwritten between its reads, and reads the newest `capacity` each time.
    @Test func consumersAtDifferentSpeeds() {
        let capacity = 16
        let ring = BroadcastRing<Probe>(capacity: capacity, initialSequence: 5)
        let fast = ring.makeConsumer(name: "fast")
        let steady = ring.makeConsumer(name: "steady")
        let slow = ring.makeConsumer(name: "slow")
        var fastRecords: [Probe] = []
        var steadyRecords: [Probe] = []
        var slowRecords: [Probe] = []
        var slowLost: [Int] = []
        for index in 0..<400 {
            ring.publish(Probe(UInt64(index)))
            let read = drain(fast, batch: 2)
            fastRecords += read.records
            #expect(read.lost == 0)
            if (index + 1) % capacity == 0 {
                let read = drain(steady, batch: 5)
                steadyRecords += read.records
                #expect(read.lost == 0)
            }
            if (index + 1) % 40 == 0 {
                let read = drain(slow, batch: 64)
                slowRecords += read.records
                slowLost.append(read.lost)
                #expect(read.records == ((index + 1 - capacity)...index).map { Probe(UInt64($0)) })
            }
        }
        #expect(fastRecords == (0..<400).map { Probe(UInt64($0)) })
        #expect(steadyRecords == fastRecords)
        #expect(slowLost == Array(repeating: 40 - capacity, count: 10))
        #expect(slow.lost == 240)
        #expect(slow.delivered == 160)
        #expect(fast.lost == 0 && steady.lost == 0)
        let statistics = ring.consumerStatistics()
        #expect(statistics.map(\.name) == ["fast", "steady", "slow"])
        #expect(statistics.map(\.lost) == [0, 0, 240])
        #expect(statistics.map(\.delivered) == [400, 400, 160])
        #expect(statistics.map(\.lag) == [0, 0, 0])
    }

    /// A consumer lapped by a few records loses exactly those, even when it reads in small pieces.
    @Test(arguments: [1, 4, 16])
    func partialLapLosesExactlyTheOverwrittenRecords(overrun: Int) {
        let capacity = 16
        let ring = BroadcastRing<Probe>(capacity: capacity)
        let consumer = ring.makeConsumer()
        for index in 0..<(capacity + overrun) { ring.publish(Probe(UInt64(index))) }
        #expect(consumer.lag == UInt64(capacity + overrun))
        var first = consumer.poll(maximumCount: 1)
        #expect(first.lost == overrun)
        #expect(first.records == [Probe(UInt64(overrun))])
        // Lapped again while reading: the rest of the window moves on by 3.
        for index in (capacity + overrun)..<(capacity + overrun + 3) { ring.publish(Probe(UInt64(index))) }
        first = consumer.poll(maximumCount: 100)
        #expect(first.lost == 2)
        #expect(first.records == ((overrun + 3)..<(capacity + overrun + 3)).map { Probe(UInt64($0)) })
        #expect(consumer.lost == UInt64(overrun + 2))
    }

    @Test func consumersJoinAndLeave() {
        let ring = BroadcastRing<Probe>(capacity: 8)
        let first = ring.makeConsumer(name: "first")
        for index in 0..<5 { ring.publish(Probe(UInt64(index))) }
        let second = ring.makeConsumer(name: "second", startingAt: .next)
        let third = ring.makeConsumer(name: "third", startingAt: .latest)
        #expect(ring.consumerCount == 3)
        for index in 5..<7 { ring.publish(Probe(UInt64(index))) }
        #expect(drain(first).records == (0..<7).map { Probe(UInt64($0)) })
        #expect(drain(second).records == [Probe(5), Probe(6)])
        #expect(drain(third).records == [Probe(4), Probe(5), Probe(6)])

        second.leave()
        #expect(second.hasLeft)
        #expect(ring.consumerCount == 2)
        ring.publish(Probe(7))
        let afterLeaving = second.poll(maximumCount: 4)
        #expect(afterLeaving.records.isEmpty)
        #expect(afterLeaving.isFinished)
        #expect(second.wait(timeout: .seconds(5)) == .finished)
        #expect(drain(first).records == [Probe(7)])

        // A consumer that is released leaves by itself.
        do {
            let passing = ring.makeConsumer(name: "passing", startingAt: .oldest)
            #expect(ring.consumerCount == 3)
            #expect(drain(passing).records == (0..<8).map { Probe(UInt64($0)) })
        }
        #expect(ring.consumerCount == 2)
        #expect(ring.consumerStatistics().map(\.name) == ["first", "third"])
    }

    @Test func closingFinishesAfterTheLastRecord() {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let consumer = ring.makeConsumer()
        ring.publish(Probe(0))
        ring.publish(Probe(1))
        ring.close()
        #expect(ring.isClosed)
        let read = consumer.poll(maximumCount: 1)
        #expect(read.records == [Probe(0)])
        #expect(!read.isFinished)
        #expect(consumer.wait(timeout: .seconds(5)) == .available)
        let rest = consumer.read(maximumCount: 8, timeout: .seconds(5))
        #expect(rest.records == [Probe(1)])
        let end = consumer.read(maximumCount: 8, timeout: .seconds(5))
        #expect(end.records.isEmpty && end.isFinished)
        #expect(consumer.wait(timeout: .seconds(5)) == .finished)
        // A consumer joining a closed ring still gets what it holds.
        let late = ring.makeConsumer(startingAt: .oldest)
        #expect(late.poll(maximumCount: 8).records == [Probe(0), Probe(1)])
        #expect(late.poll(maximumCount: 8).isFinished)
    }

    @Test func unbufferedAndSingleRecordReads() {
        let ring = BroadcastRing<Probe>(capacity: 4)
        let consumer = ring.makeConsumer()
        #expect(consumer.next(timeout: .zero) == nil)
        for index in 0..<6 { ring.publish(Probe(UInt64(index))) }
        let one = consumer.next(timeout: .zero)
        #expect(one?.record == Probe(2))
        #expect(one?.lost == 2)
        let buffer = UnsafeMutableBufferPointer<Probe>.allocate(capacity: 2)
        defer { buffer.deallocate() }
        let read = consumer.poll(into: buffer)
        #expect(read == RingRead(count: 2, lost: 0, isFinished: false))
        #expect(Array(buffer) == [Probe(3), Probe(4)])
        #expect(consumer.poll(into: UnsafeMutableBufferPointer(start: nil, count: 0)).count == 0)
    }

    @Test func sizesAndLayout() {
        let ring = BroadcastRing<Probe>(capacity: 1024)
        #expect(MemoryLayout<Probe>.size == 23)
        #expect(ring.slotSize == 64)
        #expect(ring.memorySize == 65_536)
        let wide = BroadcastRing<WideProbe>(capacity: 2)
        #expect(wide.slotSize == 320)
    }

    @Test func fixesRoundTripByteForByte() {
        var fix = Fix(latitude: 48.137_4, longitude: 11.575_5, altitudeMeters: 519.5, quality: .gps, mode: .threeD)
        fix.hdop = 0.9
        fix.satellitesUsed = 11
        for prn in 1...64 {
            fix.satellites.append(SatelliteInView(system: .gps, prn: UInt16(prn), snr: SignalToNoise(UInt8(prn))))
        }
        let ring = BroadcastRing<Fix>(capacity: 2)
        let consumer = ring.makeConsumer()
        for step in 0..<5 {
            fix.speed = Double(step)
            ring.publish(fix)
            #expect(consumer.next(timeout: .zero)?.record == fix)
        }
    }
}
