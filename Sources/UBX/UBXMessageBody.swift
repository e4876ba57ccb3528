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

/// The fix type UBX messages share (NAV-PVT fixType, NAV-SOL and NAV-STATUS gpsFix, HNR-PVT, LOG-BATCH,
/// LOG-RETRIEVEPOS).
enum UBXFixType {
    /// Says in `report` whether there is a fix: its mode, and its quality when there is one; `false` for none.
    ///
    /// Fix types: 0 no fix, 1 dead reckoning only, 2 2D, 3 3D, 4 GNSS and dead reckoning, 5 time only (a timing
    /// receiver's surveyed position: gpsd reports it as a 3D fix, status "time", and so do we). The quality: dead
    /// reckoning for type 1, RTK from the carrier solution (NAV-PVT's), else differential when corrections were
    /// applied. As gpsd, the receiver's "fix OK" flag does not take a fix away.
    static func report(
        _ type: UInt8, differential: Bool, carrier: UInt8 = 0, into report: inout EpochReport
    ) -> Bool {
        report.reportsFix = true
        switch type {
        case 1, 3, 4, 5: report.mode = .threeD
        case 2: report.mode = .twoD
        default:
            report.mode = FixMode.none
            return false
        }
        report.quality =
            type == 1
            ? .deadReckoning : carrier == 1 ? .rtkFloat : carrier == 2 ? .rtkFixed : differential ? .differential : .gps
        return true
    }
}

extension EpochReport {
    /// A geodetic position with its heights (metres) and the receiver's accuracy estimates (metres).
    mutating func setPosition(
        latitude: Double, longitude: Double, height: Double?, heightMSL: Double?, horizontalAccuracy: Double?,
        verticalAccuracy: Double?
    ) {
        self.latitude = latitude
        self.longitude = longitude
        ellipsoidHeightMeters = height
        altitudeMeters = heightMSL
        horizontalAccuracyMeters = horizontalAccuracy
        verticalAccuracyMeters = verticalAccuracy
    }
}
