import Glibc
import NMEA
import System

/// Steps the system clock once to the receiver's time (`nmea record --set-clock`): for a machine with no real-time
/// clock and no network, whose clock is wrong at every boot.
///
/// At the first fix the ``TimeSampler`` trusts that is also a 3D fix, the clock is set (`clock_settime(2)` on
/// `CLOCK_REALTIME`, which needs `CAP_SYS_TIME`) when it is off by more than ``threshold``; after that, never again
/// (keeping it right is chrony's job: `--chrony`). It is never set to before the day the program was built, and a
/// fix without a 3D position never sets it.
public struct ClockStepper: Sendable {
    /// What the first decisive fix led to.
    public enum Outcome: Sendable, Equatable {
        /// The clock was off by `offsetSeconds` (receiver less system clock) and was stepped.
        case stepped(offsetSeconds: Double)
        /// The clock was within the threshold: left alone.
        case withinThreshold(offsetSeconds: Double)
        /// `clock_settime` failed (`EPERM` without `CAP_SYS_TIME`).
        case failed(Errno, offsetSeconds: Double)
    }

    /// Why a fix did not decide (counted in ``refusals``, beside the sampler's own).
    public enum Refusal: String, Sendable, CaseIterable {
        case not3D = "not a 3D fix"
        case beforeBuildDate = "before build date"
    }

    public var threshold: Int64 = 1_000_000_000
    public private(set) var sampler: TimeSampler
    public private(set) var outcome: Outcome?
    public private(set) var refusals: [Refusal: Int] = [:]
    /// Sets the clock; `clock_settime` unless a test gives another.
    private let setClock: @Sendable (Int64) -> Errno?

    public init(sampler: TimeSampler = TimeSampler(), setClock: (@Sendable (Int64) -> Errno?)? = nil) {
        self.sampler = sampler
        self.setClock = setClock ?? ClockStepper.setSystemClock
    }

    /// `true` once the clock was stepped, found right, or could not be set.
    public var isDone: Bool { outcome != nil }

    /// Considers `fix`, read `now` on the system clock (nanoseconds since 1970); returns the outcome when this fix
    /// decided it.
    public mutating func consider(_ fix: Fix, now: Int64 = WallClock.nanosecondsSinceEpoch()) -> Outcome? {
        guard outcome == nil else { return nil }
        guard fix.mode == .threeD else {
            refusals[.not3D, default: 0] += 1
            return nil
        }
        guard let sample = sampler.sample(fix) else { return nil }
        // The receiver's time now: its reference plus the time elapsed since the epoch's first byte arrived.
        let target = sample.referenceNanoseconds + (now - sample.receivedNanoseconds)
        guard target >= sampler.earliestNanoseconds else {
            refusals[.beforeBuildDate, default: 0] += 1
            return nil
        }
        let offset = sample.referenceNanoseconds - sample.receivedNanoseconds
        let seconds = Double(offset) / 1e9
        if abs(offset) <= threshold {
            outcome = .withinThreshold(offsetSeconds: seconds)
        } else if let error = setClock(target) {
            outcome = .failed(error, offsetSeconds: seconds)
        } else {
            outcome = .stepped(offsetSeconds: seconds)
        }
        return outcome
    }

    /// `clock_settime(CLOCK_REALTIME, target)`; the errno on failure.
    @Sendable
    static func setSystemClock(_ nanoseconds: Int64) -> Errno? {
        var spec = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        return clock_settime(CLOCK_REALTIME, &spec) == 0 ? nil : Errno(rawValue: errno)
    }
}
