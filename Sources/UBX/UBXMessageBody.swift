import NMEA

/// One UBX message type: its class and ID, how its payload reads, its fields for output (named as the interface
/// description names them, in units: degrees, metres, m/s; times of week in ms, fractions in ns), and what it tells
/// the epoch it belongs to. Each type lives in its own file under `Messages/`, and ``UBXMessage`` lists them once.
public protocol UBXMessageBody {
    /// The message's class and ID.
    static var id: UBXMessageID { get }
    /// Reads the payload; `nil` when it is shorter than the message's fixed part.
    init?(_ payload: UBXPayload)
    /// Hands each field to `sink`, in the interface description's order.
    func write<Sink: UBXFieldSink>(to sink: inout Sink)
    /// What the message tells its epoch; `nil` for a message of no epoch.
    func report() -> EpochReport?
}

extension UBXMessageBody {
    /// Nothing: most messages tell no epoch anything.
    public func report() -> EpochReport? { nil }

    /// A report signed with this message's class and ID.
    func emptyReport(timeOfWeek: UInt32) -> EpochReport {
        var report = EpochReport(signature: SentenceSignature(binaryMessage: 0xB562_0000 | UInt64(Self.id.rawValue)))
        report.timeOfWeekMilliseconds = Int64(timeOfWeek)
        return report
    }
}

/// Receives a message's fields (``UBXMessageBody/write(to:)``): the JSON writer, a table, a test.
public protocol UBXFieldSink {
    /// A whole number in the message's own unit.
    mutating func integer(_ name: StaticString, _ value: Int64)
    /// A number in units (degrees, metres, m/s), with at most `decimals` decimals worth writing.
    mutating func number(_ name: StaticString, _ value: Double, decimals: Int)
    /// Text (MON-VER's versions).
    mutating func text(_ name: StaticString, _ value: String)
    /// A list of texts (MON-VER's extensions).
    mutating func texts(_ name: StaticString, _ values: [String])
    /// A repeated group (NAV-SAT's satellites): ``beginItem()`` and ``endItem()`` around each, then ``endList()``.
    mutating func beginList(_ name: StaticString)
    mutating func beginItem()
    mutating func endItem()
    mutating func endList()
}

/// The fix type UBX messages share (NAV-PVT fixType, NAV-SOL and NAV-STATUS gpsFix, HNR-PVT, LOG-BATCH).
enum UBXFixType {
    /// 0 no fix, 1 dead reckoning only, 2 2D, 3 3D, 4 GNSS and dead reckoning, 5 time only (a timing receiver's
    /// surveyed position: gpsd reports it as a 3D fix, status "time", and so do we). A fix whose "fix OK" flag is
    /// clear (outside the receiver's accuracy limits) is no fix.
    static func mode(_ type: UInt8, fixOK: Bool) -> FixMode {
        guard fixOK else { return .none }
        switch type {
        case 1, 3, 4, 5: return .threeD
        case 2: return .twoD
        default: return .none
        }
    }

    /// The quality: dead reckoning for types 1 (and 4 without satellites), RTK from the carrier solution, else
    /// differential when corrections were applied.
    static func quality(_ type: UInt8, differential: Bool, carrier: UInt8 = 0) -> FixQuality {
        if type == 1 { return .deadReckoning }
        switch carrier {
        case 1: return .rtkFloat
        case 2: return .rtkFixed
        default: return differential ? .differential : .gps
        }
    }
}
