import NMEA

/// UBX NAV-TIMEGPS (`01 20`, 16 bytes): GPS time and the leap seconds.
///
///     0 U4 iTOW ms · 4 I4 fTOW ns · 8 I2 week · 10 I1 leapS s · 11 X1 valid (tow, week, leapS) · 12 U4 tAcc ns
public struct NAVTIMEGPS: UBXMessageBody {
    public static let id = UBXMessageID.navTIMEGPS
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 16 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var week: Int16 { payload.i2(8) }
    public var leapSeconds: Int8 { payload.i1(10) }
    public var valid: UInt8 { payload.u1(11) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("fTOW", Int64(payload.i4(4)))
        sink.integer("week", Int64(week))
        sink.integer("leapS", Int64(leapSeconds))
        sink.integer("valid", Int64(valid))
        sink.integer("tAcc", Int64(payload.u4(12)))
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        if valid & 3 == 3 { report.week = Int(week) }
        if valid & 4 != 0 { report.leapSeconds = Int(leapSeconds) }
        report.timeAccuracySeconds = Double(payload.u4(12)) / 1e9
        return report
    }
}
