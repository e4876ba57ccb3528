/// What an emulated receiver's carrier-phase solution is: none, float or fixed.
public enum RTKSolution: Sendable, Hashable {
    case none
    case float
    case fixed

    /// GGA's quality indicator: 1 (a plain fix), 5 (RTK float), 4 (RTK fixed).
    var ggaQuality: String {
        switch self {
        case .none: "1"
        case .float: "5"
        case .fixed: "4"
        }
    }

    /// RMC's mode indicator: A (autonomous), F (float), R (fixed).
    var modeLetter: String {
        switch self {
        case .none: "A"
        case .float: "F"
        case .fixed: "R"
        }
    }

    /// NAV-PVT's `carrSoln` (flags bits 6–7): 0, 1 (float), 2 (fixed).
    var carrierSolution: UInt8 {
        switch self {
        case .none: 0
        case .float: 1
        case .fixed: 2
        }
    }
}

/// The RTCM 3 corrections an emulated receiver was sent, and the solution they give it, as a ZED-F9P behaves: fresh
/// corrections give RTK float at the next epoch and fixed once they have kept coming for ``fixAfterNanoseconds``;
/// when none has come for ``timeoutNanoseconds`` it falls back to a plain fix (and starts from float again).
public struct RTKCorrections: Sendable {
    /// How long the solution holds without a new correction.
    public var timeoutNanoseconds: Int64 = 5_000_000_000
    /// How long fresh corrections take to fix the ambiguities.
    public var fixAfterNanoseconds: Int64 = 3_000_000_000
    /// Every CRC-valid RTCM 3 frame received, whole, in order.
    public private(set) var frames: [[UInt8]] = []
    private var pending = 0
    private var lastArrival: Int64?
    private var freshSince: Int64?

    public init() {}

    /// A CRC-valid frame arrived on the port.
    mutating func received(_ frame: [UInt8]) {
        frames.append(frame)
        pending += 1
    }

    /// The solution for the epoch at `nanoseconds`: the frames that came since the last epoch count as arriving now.
    mutating func solution(atNanoseconds nanoseconds: Int64) -> RTKSolution {
        if pending > 0 {
            pending = 0
            lastArrival = nanoseconds
            if freshSince == nil { freshSince = nanoseconds }
        }
        guard let lastArrival, nanoseconds - lastArrival <= timeoutNanoseconds, let freshSince else {
            freshSince = nil
            return .none
        }
        return nanoseconds - freshSince >= fixAfterNanoseconds ? .fixed : .float
    }
}
