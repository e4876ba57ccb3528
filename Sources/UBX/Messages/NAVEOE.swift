import NMEA

/// UBX NAV-EOE (`01 61`, 4 bytes; protocol 18+): the receiver's end of the navigation epoch.
///
///     0 U4 iTOW ms
public struct NAVEOE: UBXMessageBody {
    public static let id = UBXMessageID.navEOE
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 4 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.endsEpoch = true
        return report
    }
}
