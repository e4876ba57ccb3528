import System
import TestSupport
import Testing

@testable import SerialPort

/// Autobaud against a fake device that is garbage until the right rate is set.
@Suite struct AutobaudTests {
    @Test func settlesOnTheRightRateAfterTryingTheOthersInOrder() throws {
        let device = FakeReceiver(rightRate: .b38400, burstInterval: .milliseconds(50))
        let autobaud = Autobaud(window: .milliseconds(300))
        var announced: [BaudRate] = []
        let outcome = try autobaud.run(on: device) { announced.append($0) }
        guard case .locked(let rate, let bytes, _) = outcome else {
            Issue.record("no lock: \(outcome)")
            return
        }
        #expect(rate == .b38400)
        #expect(device.baudRate == .b38400)
        #expect(announced == [.b9600, .b4800, .b115200, .b38400])
        #expect(device.ratesSet == announced)
        #expect(String(decoding: bytes, as: UTF8.self).contains("$GPRMC"))
    }

    @Test func everyRateCanBeFound() throws {
        for right in BaudRate.all {
            let device = FakeReceiver(rightRate: right, burstInterval: .milliseconds(20), garbagePerBurst: 400)
            let outcome = try Autobaud(window: .milliseconds(100)).run(on: device)
            guard case .locked(let rate, _, _) = outcome else {
                Issue.record("\(right): \(outcome)")
                continue
            }
            #expect(rate == right)
        }
    }

    @Test func rememberedRateIsTriedFirst() throws {
        let autobaud = Autobaud(remembered: .b57600)
        #expect(
            autobaud.candidates == [
                .b57600, .b9600, .b4800, .b115200, .b38400, .b19200, .b230400, .b460800,
                .b921600,
            ])
        #expect(Autobaud(remembered: .b9600).candidates == BaudRate.autobaudOrder)
        let device = FakeReceiver(rightRate: .b57600, burstInterval: .milliseconds(100))
        let outcome = try autobaud.run(on: device)
        guard case .locked(.b57600, _, let elapsed) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(device.ratesSet == [.b57600])
        #expect(elapsed < .milliseconds(500))
    }

    @Test func locksInUnderTwoSecondsOnAOneHertzReceiverAtItsDefaultRate() throws {
        // Default windows; a 1 Hz receiver whose next burst is up to a second away.
        let device = FakeReceiver(rightRate: .b9600, burstInterval: .seconds(1), phase: .milliseconds(900))
        let outcome = try Autobaud().run(on: device)
        guard case .locked(.b9600, _, let elapsed) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        print("autobaud lock, 1 Hz receiver at 9600, burst 0.9 s away: \(elapsed)")
        #expect(elapsed < .seconds(2))
    }

    @Test func noisyWrongRatesAreAbandonedEarly() throws {
        // 115200 data read at slower rates: a lot of noise. Each wrong rate ends after `garbageLimit` bytes.
        let device = FakeReceiver(rightRate: .b115200, burstInterval: .milliseconds(10), garbagePerBurst: 400)
        let outcome = try Autobaud(window: .seconds(5), garbageLimit: 1200).run(on: device)
        guard case .locked(.b115200, _, let elapsed) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(elapsed < .seconds(2))
    }

    @Test func silentDeviceGivesNoNMEAAfterEveryRate() throws {
        let device = FakeReceiver(rightRate: nil)
        let outcome = try Autobaud(window: .milliseconds(40)).run(on: device)
        guard case .noNMEA(let tried, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(tried == BaudRate.autobaudOrder)
    }

    @Test func totalLimitBoundsTheSearch() throws {
        let device = FakeReceiver(rightRate: nil)
        let started = MonotonicTime.now()
        let outcome = try Autobaud(window: .milliseconds(200), totalLimit: .milliseconds(500)).run(on: device)
        guard case .noNMEA(let tried, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(tried.count == 3)
        #expect(started.elapsed < .milliseconds(900))
    }

    @Test func stopsWhenSignalled() throws {
        let device = FakeReceiver(rightRate: nil)
        let stop = StopSignal()
        stop.signal()
        #expect(try Autobaud().run(on: device, stop: stop) == .stopped)
    }

    @Test func unplugWhileSearchingIsReported() throws {
        let device = FakeReceiver(rightRate: .b921600, burstInterval: .milliseconds(10))
        device.unplugAfterBursts = 3
        #expect(try Autobaud(window: .milliseconds(100)).run(on: device) == .disconnected(.hangUp))
    }
}
