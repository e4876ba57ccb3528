import NMEA
import Synchronization
import System
import Testing
import Timekeeping

/// `--set-clock`: once, at the first trusted 3D fix, only when off by more than a second, never to before the
/// build date. The clock setter is a stand-in that records what it was asked: a test never sets the real clock.
struct ClockStepperTests {
    final class Recorder: Sendable {
        let targets = Mutex<[Int64]>([])
        func set(_ nanoseconds: Int64) -> Errno? {
            targets.withLock { $0.append(nanoseconds) }
            return nil
        }
    }

    static let second = TimeSamplerTests.second

    @Test("A clock an hour slow is stepped once, to the receiver's time now")
    func stepsOnce() {
        let recorder = Recorder()
        var stepper = ClockStepper(setClock: { recorder.set($0) })
        // The system clock reads an hour behind the receiver: the epoch's first byte arrived at second − 3600.
        var fix = TimeSamplerTests.fix()
        fix.receivedNanoseconds = (Self.second - 3_600) * 1_000_000_000 + 50_000_000
        let now = (Self.second - 3_600) * 1_000_000_000 + 150_000_000
        let outcome = stepper.consider(fix, now: now)
        #expect(outcome == .stepped(offsetSeconds: 3_599.95))
        // 100 ms after the first byte, the receiver's time is second + 0.1 (it names the second, not the byte).
        #expect(recorder.targets.withLock { $0 } == [Self.second * 1_000_000_000 + 100_000_000])
        var next = TimeSamplerTests.fix(at: Self.second + 1)
        next.receivedNanoseconds = (Self.second - 3_599) * 1_000_000_000
        let again = stepper.consider(next, now: now + 1_000_000_000)
        #expect(again == nil)
        #expect(recorder.targets.withLock { $0.count } == 1)
    }

    @Test("A clock within a second is left alone; a 2D fix or no fix never decides")
    func leavesAGoodClockAndRefuses2D() {
        let recorder = Recorder()
        var stepper = ClockStepper(setClock: { recorder.set($0) })
        var flat = TimeSamplerTests.fix()
        flat.mode = .twoD
        let refused = stepper.consider(flat, now: Self.second * 1_000_000_000)
        #expect(refused == nil)
        var none = TimeSamplerTests.fix()
        none.latitude = nil
        none.mode = .none
        let noFix = stepper.consider(none, now: Self.second * 1_000_000_000)
        #expect(noFix == nil)
        #expect(stepper.refusals == [.not3D: 2])
        let outcome = stepper.consider(TimeSamplerTests.fix(), now: Self.second * 1_000_000_000 + 60_000_000)
        #expect(outcome == .withinThreshold(offsetSeconds: -0.05))
        #expect(recorder.targets.withLock { $0.isEmpty })
    }

    @Test("A receiver's time before the build date never sets the clock")
    func neverBeforeTheBuildDate() throws {
        let recorder = Recorder()
        var stepper = ClockStepper(setClock: { recorder.set($0) })
        let build = try #require(BuildDate.nanoseconds)
        let old = TimeSamplerTests.fix(at: build / 1_000_000_000 - 30 * 86_400)
        let outcome = stepper.consider(old, now: Self.second * 1_000_000_000)
        #expect(outcome == nil)
        #expect(stepper.sampler.refusals == [.beforeBuildDate: 1])
        #expect(recorder.targets.withLock { $0.isEmpty })
        #expect(!stepper.isDone)
    }

    @Test("A failed clock_settime (no CAP_SYS_TIME) is the outcome, said once")
    func failureIsTheOutcome() {
        var stepper = ClockStepper(setClock: { _ in Errno(rawValue: 1) })
        var fix = TimeSamplerTests.fix()
        fix.receivedNanoseconds = (Self.second - 10) * 1_000_000_000
        let outcome = stepper.consider(fix, now: (Self.second - 10) * 1_000_000_000)
        #expect(outcome == .failed(Errno(rawValue: 1), offsetSeconds: 10))
        #expect(stepper.isDone)
    }
}
