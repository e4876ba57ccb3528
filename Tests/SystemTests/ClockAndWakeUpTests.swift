import Glibc
import System
import TestSupport
import Testing
import Threading

@Suite struct MonotonicTimeTests {
    @Test func arithmeticAndSaturation() {
        let start = MonotonicTime(nanoseconds: 1_000)
        #expect((start + .microseconds(2)).nanoseconds == 3_000)
        #expect((start + .microseconds(2)) - start == .microseconds(2))
        #expect((MonotonicTime(nanoseconds: .max - 1) + .seconds(1)).nanoseconds == .max)
        #expect((MonotonicTime(nanoseconds: .min + 1) + .seconds(-1)).nanoseconds == .min)
        #expect(MonotonicTime(nanoseconds: 2_500_000_000).seconds == 2.5)
    }

    @Test func sleepWaitsAtLeastTheDuration() {
        let start = MonotonicTime.now()
        sleep(for: .milliseconds(30))  // the sleep under test
        #expect(start.elapsed >= .milliseconds(30))
        #expect(MonotonicTime.now() > start)
    }

    @Test func pollTimeoutsRoundUpAndNeverWaitForever() {
        #expect(Duration.nanoseconds(1).pollMilliseconds == 1)
        #expect(Duration.milliseconds(5).pollMilliseconds == 5)
        #expect(Duration.zero.pollMilliseconds == 0)
        #expect(Duration.seconds(-3).pollMilliseconds == 0)
        #expect(Duration.seconds(1 << 40).pollMilliseconds == Int32.max)
        #expect((MonotonicTime.now() + .seconds(-1)).millisecondsFromNow == 0)
        #expect((MonotonicTime.now() + .seconds(10)).millisecondsFromNow > 9_000)
    }
}

@Suite struct WakeUpTests {
    @Test func aSignalStaysUntilDrained() {
        let wake = WakeUp()
        #expect(!wake.isSignaled)
        #expect(!wake.wait(timeout: .milliseconds(5)))
        wake.signal()
        wake.signal()
        #expect(wake.isSignaled)
        #expect(wake.wait(timeout: .zero))
        wake.drain()
        #expect(!wake.isSignaled)
    }

    @Test func anotherThreadWakesAPollAtOnce() throws {
        let wake = WakeUp()
        let started = MonotonicTime.now()
        let poller = Threads.currentID
        let signaller = NativeThread {
            // Once this thread's test is blocked in its poll.
            waitUntil(timeout: .seconds(10)) { Threads.isBlocked(poller) }
            wake.signal()
        }
        let events = try wake.fileDescriptor.poll(.readable, timeoutMilliseconds: 5_000)
        signaller.join()
        #expect(events == .readable)
        #expect(started.elapsed < .seconds(2))
    }
}
