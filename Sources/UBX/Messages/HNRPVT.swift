import NMEA

/// UBX HNR-PVT (`28 00`, 72 bytes; u-blox M8 ADR/UDR): the high-rate navigation solution, between the
/// navigation epochs.
///
///     0 U4 iTOW ms · 4 U2 year · 6 U1 month, day, hour, min, sec · 11 X1 valid · 12 I4 nano ns
///     16 U1 gpsFix · 17 X1 flags (GPSfixOK, DiffSoln, WKNSET, TOWSET, headVehValid) · 20 I4 lon, 24 I4 lat 1e-7°
///     28 I4 height, 32 I4 hMSL mm · 36 I4 gSpeed, 40 I4 speed mm/s · 44 I4 headMot, 48 I4 headVeh 1e-5°
///     52 U4 hAcc, 56 U4 vAcc mm · 60 U4 sAcc mm/s · 64 U4 headAcc 1e-5°
public struct HNRPVT: UBXMessageBody {
    public static let id = UBXMessageID.hnrPVT
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        // A fix type past 5 is none a receiver sends: damage with a valid checksum, not a message.
        guard payload.count >= 72, payload.u1(16) <= 5 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var gpsFix: UInt8 { payload.u1(16) }
    public var flags: UInt8 { payload.u1(17) }
    public var longitude: Double { Double(payload.i4(20)) / 1e7 }
    public var latitude: Double { Double(payload.i4(24)) / 1e7 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("year", Int64(payload.u2(4)))
        sink.integer("month", Int64(payload.u1(6)))
        sink.integer("day", Int64(payload.u1(7)))
        sink.integer("hour", Int64(payload.u1(8)))
        sink.integer("min", Int64(payload.u1(9)))
        sink.integer("sec", Int64(payload.u1(10)))
        sink.integer("valid", Int64(payload.u1(11)))
        sink.integer("nano", Int64(payload.i4(12)))
        sink.integer("gpsFix", Int64(gpsFix))
        sink.integer("flags", Int64(flags))
        sink.number("lon", longitude, decimals: 7)
        sink.number("lat", latitude, decimals: 7)
        sink.number("height", Double(payload.i4(28)) / 1000, decimals: 3)
        sink.number("hMSL", Double(payload.i4(32)) / 1000, decimals: 3)
        sink.number("gSpeed", Double(payload.i4(36)) / 1000, decimals: 3)
        sink.number("speed", Double(payload.i4(40)) / 1000, decimals: 3)
        sink.number("headMot", Double(payload.i4(44)) / 1e5, decimals: 5)
        sink.number("headVeh", Double(payload.i4(48)) / 1e5, decimals: 5)
        sink.number("hAcc", Double(payload.u4(52)) / 1000, decimals: 3)
        sink.number("vAcc", Double(payload.u4(56)) / 1000, decimals: 3)
        sink.number("sAcc", Double(payload.u4(60)) / 1000, decimals: 3)
        sink.number("headAcc", Double(payload.u4(64)) / 1e5, decimals: 5)
    }

    /// A fix of its own, at its own time of week (between the navigation epochs).
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        if payload.u1(11) & 3 == 3 {
            UBXTime.utc(
                iTOW: iTOW, year: Int(payload.u2(4)), month: payload.u1(6), day: payload.u1(7),
                hour: payload.u1(8), minute: payload.u1(9), second: payload.u1(10), nano: payload.i4(12),
                into: &report)
        }
        guard UBXFixType.report(gpsFix, differential: flags & 2 != 0, into: &report) else { return report }
        report.setPosition(
            latitude: latitude, longitude: longitude, height: Double(payload.i4(28)) / 1000,
            heightMSL: Double(payload.i4(32)) / 1000, horizontalAccuracy: Double(payload.u4(52)) / 1000,
            verticalAccuracy: Double(payload.u4(56)) / 1000)
        report.speed = Double(payload.i4(36)) / 1000
        report.courseDegrees = Double(payload.i4(44)) / 1e5
        report.speedAccuracyMetersPerSecond = Double(payload.u4(60)) / 1000
        return report
    }
}
