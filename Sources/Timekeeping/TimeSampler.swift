import NMEA

/// Decides, fix by fix, whether the receiver's time may be handed to a clock, and counts every refusal by reason.
///
/// A sample goes out only for a complete fix with a position (GGA quality or GSA mode says there is a fix; an RMC
/// with status `V` carries none), a date of the epoch's own (an RMC or ZDA date after the week-rollover checks, not
/// one carried over or taken from the system clock), a receive time (``Fix/receivedNanoseconds``), a moment not
/// before the program's build day, and a time that moves with the system clock: a receiver whose time jumps by more
/// than ``maximumJumpNanoseconds`` against it is refused until ``jumpConfirmations`` epochs in a row agree on the
/// new offset (a receiver that restarted with a bad almanac, a replay spliced in).
///
/// The receiver's time is UTC already: NMEA sentences carry GPS time less the GPS−UTC leap seconds (18 s since
/// 2017) the receiver learned from the navigation message; until it has learned them (a cold start) many receivers
/// report status `V`, which is refused. A leap second inserted shows as `23:59:60`, which reads as the next day's
/// midnight; NMEA 0183 announces no leap second in advance, so samples carry ``TimeSample/Leap/none``.
public struct TimeSampler: Sendable {
    /// Why a fix gave no sample.
    public enum Refusal: String, Sendable, CaseIterable {
        /// No position, or the receiver says it has no fix (status V, quality 0, mode 1).
        case noFix = "no fix"
        /// A position published before its epoch was complete.
        case provisional
        /// No date from the receiver in this epoch (only a carried-over or system-clock date).
        case dateNotTrusted = "date not trusted"
        /// No receive time for the epoch (the reader was not told its read times).
        case noReceiveTime = "no receive time"
        /// The receiver's time jumped against the system clock.
        case timeJump = "time jump"
        /// A time before the day the program was built.
        case beforeBuildDate = "before build date"
    }

    /// Added to every reference time: the receiver's known delay from the second it names to its first byte
    /// (`--time-offset`), so that the samples' offset is near zero for a good clock.
    public var delayNanoseconds: Int64
    /// The earliest acceptable reference time (``BuildDate/nanoseconds`` by default).
    public var earliestNanoseconds: Int64
    public var maximumJumpNanoseconds: Int64 = 1_000_000_000
    public var jumpConfirmations = 3
    /// Refusals so far, by reason.
    public private(set) var refusals: [Refusal: Int] = [:]
    public private(set) var accepted = 0
    /// The offset (reference less receive) of the last sample accepted.
    private var lastOffset: Int64?
    /// A new offset seen after a jump, and how many epochs in a row agreed with it.
    private var candidateOffset: Int64?
    private var candidateCount = 0

    public init(delayNanoseconds: Int64 = 0, earliestNanoseconds: Int64? = BuildDate.nanoseconds) {
        self.delayNanoseconds = delayNanoseconds
        self.earliestNanoseconds = earliestNanoseconds ?? 0
    }

    /// Total refusals, all reasons.
    public var refused: Int { refusals.values.reduce(0, +) }

    /// The sample `fix` gives, or `nil` (and the refusal counted).
    public mutating func sample(_ fix: Fix) -> TimeSample? {
        switch check(fix) {
        case .success(let sample):
            accepted += 1
            return sample
        case .failure(let error):
            refusals[error.refusal, default: 0] += 1
            return nil
        }
    }

    /// What ``sample(_:)`` decides, without counting.
    private mutating func check(_ fix: Fix) -> Result<TimeSample, RefusalError> {
        guard fix.hasPosition, fix.quality != .none else { return .failure(RefusalError(.noFix)) }
        guard !fix.isProvisional else { return .failure(RefusalError(.provisional)) }
        guard fix.dateIsFromEpoch, let timestamp = fix.timestamp else {
            return .failure(RefusalError(.dateNotTrusted))
        }
        guard let received = fix.receivedNanoseconds else { return .failure(RefusalError(.noReceiveTime)) }
        let reference = timestamp + delayNanoseconds
        guard reference >= earliestNanoseconds else { return .failure(RefusalError(.beforeBuildDate)) }
        let offset = reference - received
        if let last = lastOffset, abs(offset - last) > maximumJumpNanoseconds {
            if let candidate = candidateOffset, abs(offset - candidate) <= maximumJumpNanoseconds {
                candidateCount += 1
            } else {
                candidateOffset = offset
                candidateCount = 1
            }
            guard candidateCount >= jumpConfirmations else { return .failure(RefusalError(.timeJump)) }
        }
        lastOffset = offset
        candidateOffset = nil
        candidateCount = 0
        return .success(TimeSample(referenceNanoseconds: reference, receivedNanoseconds: received))
    }

    private struct RefusalError: Error {
        let refusal: Refusal
        init(_ refusal: Refusal) { self.refusal = refusal }
    }
}
