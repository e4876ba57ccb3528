/// One reading of the receiver's time against the system clock: what a reference clock (chrony, ntpd) is fed.
///
/// `referenceNanoseconds` is the time the receiver says it was (the second an epoch names, plus the receiver's
/// known delay `--time-offset`); `receivedNanoseconds` is the system clock when that epoch's first byte arrived.
/// Both count nanoseconds since 1970-01-01 00:00:00 UTC. NMEA times are UTC (GPS time less the leap seconds the
/// receiver has learned from the almanac), so no GPS−UTC correction is applied here.
public struct TimeSample: Sendable, Hashable {
    /// Leap-second warning, as chrony's SOCK `leap` and NTP's SHM `leap` fields carry it.
    public enum Leap: Int32, Sendable, Hashable {
        case none = 0
        case insert = 1
        case delete = 2
    }

    public var referenceNanoseconds: Int64
    public var receivedNanoseconds: Int64
    public var leap: Leap
    /// `true` for a PPS edge (the reference is the top of a second, only the fraction counts).
    public var isPulse: Bool

    public init(referenceNanoseconds: Int64, receivedNanoseconds: Int64, leap: Leap = .none, isPulse: Bool = false) {
        self.referenceNanoseconds = referenceNanoseconds
        self.receivedNanoseconds = receivedNanoseconds
        self.leap = leap
        self.isPulse = isPulse
    }

    /// The reference less the system clock, in seconds: chrony's `offset` (negative when the bytes arrive after the
    /// second they name, as they always do over a serial line). `chronyc sources` prints the opposite sign: the
    /// system clock less the reference.
    public var offsetSeconds: Double {
        Double(referenceNanoseconds &- receivedNanoseconds) / 1e9
    }
}
