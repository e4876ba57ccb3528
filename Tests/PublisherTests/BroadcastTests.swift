import System
import TestSupport
import Testing

@testable import Publisher

/// The broadcast behind the streams: latest value, bounded buffers, ends and cancellation.
@Suite struct BroadcastTests {
    @Test func aBusySubscriberGetsTheNewestValueOnly() async {
        let broadcast = Broadcast<Int>(bufferLimit: 1)
        let sequence = BroadcastSequence(broadcast)
        var iterator = sequence.makeAsyncIterator()
        for value in 1...1000 { broadcast.send(value) }
        #expect(await iterator.next() == 1000)
        #expect(iterator.dropped == 999)
        broadcast.send(1001)
        broadcast.finish()
        #expect(await iterator.next() == 1001)
        #expect(await iterator.next() == nil)
    }

    @Test func aLargerBufferKeepsTheNewestValuesInOrder() async {
        let broadcast = Broadcast<Int>(bufferLimit: 3)
        var iterator = BroadcastSequence(broadcast).makeAsyncIterator()
        for value in 1...10 { broadcast.send(value) }
        broadcast.finish()
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        #expect(received == [8, 9, 10])
    }

    @Test func aNewSubscriberStartsWithTheLatestValue() async {
        let broadcast = Broadcast<String>(bufferLimit: 1)
        broadcast.send("old")
        broadcast.send("latest")
        var iterator = BroadcastSequence(broadcast).makeAsyncIterator()
        #expect(await iterator.next() == "latest")
        // Then live values, handed over to a waiting subscriber.
        async let next = iterator.next()
        #expect(await suspendUntil(timeout: .seconds(10)) { broadcast.waitingCount == 1 })
        broadcast.send("live")
        #expect(await next == "live")
        // After the end, a newcomer still gets the last value, then the end.
        broadcast.finish()
        var late = BroadcastSequence(broadcast).makeAsyncIterator()
        #expect(await late.next() == "live")
        #expect(await late.next() == nil)
    }

    @Test func cancellingTheTaskEndsItsIterationAndUnsubscribes() async {
        let broadcast = Broadcast<Int>(bufferLimit: 1)
        let task = Task {
            var count = 0
            for await _ in BroadcastSequence(broadcast) { count += 1 }
            return count
        }
        #expect(await suspendUntil(timeout: .seconds(10)) { broadcast.subscriberCount == 1 })
        broadcast.send(1)
        // Waiting again: it has taken the 1 and asks for the next value.
        #expect(await suspendUntil(timeout: .seconds(10)) { broadcast.waitingCount == 1 })
        task.cancel()
        let count = await task.value
        #expect(count == 1)
        #expect(broadcast.subscriberCount == 0)
        // The sender carries on unaffected.
        broadcast.send(2)
        #expect(broadcast.latest == 2)
    }

    @Test func manySubscribersEachGetTheValues() async {
        let broadcast = Broadcast<Int>(bufferLimit: 1)
        let tasks = (0..<50).map { _ in
            Task {
                var last = 0
                for await value in BroadcastSequence(broadcast) { last = value }
                return last
            }
        }
        #expect(await suspendUntil(timeout: .seconds(10)) { broadcast.subscriberCount == 50 })
        for value in 1...100 { broadcast.send(value) }
        broadcast.finish()
        for task in tasks { #expect(await task.value == 100) }
        #expect(broadcast.subscriberCount == 0)
    }
}
