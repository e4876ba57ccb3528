import NMEA

/// UBX NAV-STATUS (`01 03`, 16 bytes): the fix type and flags.
///
///     0 U4 iTOW ms · 4 U1 gpsFix · 5 X1 flags (gpsFixOk, diffSoln, wknSet, towSet) · 6 X1 fixStat
///     7 X1 flags2 · 8 U4 ttff ms · 12 U4 msss ms
public struct NAVSTATUS: UBXMessageBody {
    public static let id = UBXMessageID.navSTATUS
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        // A fix type past 5 is none a receiver sends: damage with a valid checksum, not a message.
        guard payload.count >= 16, payload.u1(4) <= 5 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var gpsFix: UInt8 { payload.u1(4) }
    public var flags: UInt8 { payload.u1(5) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("gpsFix", Int64(gpsFix))
        sink.integer("flags", Int64(flags))
        sink.integer("fixStat", Int64(payload.u1(6)))
        sink.integer("flags2", Int64(payload.u1(7)))
        sink.integer("ttff", Int64(payload.u4(8)))
        sink.integer("msss", Int64(payload.u4(12)))
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        _ = UBXFixType.report(gpsFix, differential: flags & 2 != 0, into: &report)
        return report
    }
}
