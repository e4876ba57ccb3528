import NMEA

/// UBX NAV-TIMEUTC (`01 21`, 20 bytes): UTC time.
///
///     0 U4 iTOW ms · 4 U4 tAcc ns · 8 I4 nano ns · 12 U2 year · 14 U1 month, day, hour, min, sec
///     19 X1 valid (validTOW, validWKN, validUTC)
public struct NAVTIMEUTC: UBXMessageBody {
    public static let id = UBXMessageID.navTIMEUTC
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 20 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var valid: UInt8 { payload.u1(19) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("tAcc", Int64(payload.u4(4)))
        sink.integer("nano", Int64(payload.i4(8)))
        sink.integer("year", Int64(payload.u2(12)))
        sink.integer("month", Int64(payload.u1(14)))
        sink.integer("day", Int64(payload.u1(15)))
        sink.integer("hour", Int64(payload.u1(16)))
        sink.integer("min", Int64(payload.u1(17)))
        sink.integer("sec", Int64(payload.u1(18)))
        sink.integer("valid", Int64(valid))
    }

    /// A valid UTC time dates the epoch and teaches the leap seconds.
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        guard valid & 7 == 7 else { return report }
        UBXTime.utc(
            iTOW: iTOW, year: Int(payload.u2(12)), month: payload.u1(14), day: payload.u1(15),
            hour: payload.u1(16), minute: payload.u1(17), second: payload.u1(18), nano: payload.i4(8),
            into: &report)
        return report
    }
}
