import NMEA

/// UBX LOG-BATCH (`21 11`, 100 bytes; u-blox M8 with batching): one stored navigation solution, as NAV-PVT gives it.
///
///     0 U1 version · 1 X1 contentValid · 2 U2 msgCnt · 4 U4 iTOW ms · 8 U2 year · 10 U1 month, day, hour,
///     min, sec · 15 X1 valid · 16 U4 tAcc ns · 20 I4 fracSec ns · 24 U1 fixType · 25 X1 flags · 27 U1 numSV
///     28 I4 lon, 32 I4 lat 1e-7° · 36 I4 height, 40 I4 hMSL mm · 44 U4 hAcc, 48 U4 vAcc mm
///     52 I4 velN, velE, velD, 64 I4 gSpeed mm/s · 68 I4 headMot 1e-5° · 72 U4 sAcc mm/s · 76 U4 headAcc
///     80 U2 pDOP 0.01 · 84 U4 distance, 88 U4 totalDistance, 92 U4 distanceStd m
public struct LOGBATCH: UBXMessageBody {
    public static let id = UBXMessageID.logBATCH
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        // A fix type past 5 is none a receiver sends: damage with a valid checksum, not a message.
        guard payload.count >= 100, payload.u1(24) <= 5 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(4) }
    public var fixType: UInt8 { payload.u1(24) }
    public var flags: UInt8 { payload.u1(25) }
    public var longitude: Double { Double(payload.i4(28)) / 1e7 }
    public var latitude: Double { Double(payload.i4(32)) / 1e7 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("version", Int64(payload.u1(0)))
        sink.integer("contentValid", Int64(payload.u1(1)))
        sink.integer("msgCnt", Int64(payload.u2(2)))
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("year", Int64(payload.u2(8)))
        sink.integer("month", Int64(payload.u1(10)))
        sink.integer("day", Int64(payload.u1(11)))
        sink.integer("hour", Int64(payload.u1(12)))
        sink.integer("min", Int64(payload.u1(13)))
        sink.integer("sec", Int64(payload.u1(14)))
        sink.integer("valid", Int64(payload.u1(15)))
        sink.integer("tAcc", Int64(payload.u4(16)))
        sink.integer("fracSec", Int64(payload.i4(20)))
        sink.integer("fixType", Int64(fixType))
        sink.integer("flags", Int64(flags))
        sink.integer("flags2", Int64(payload.u1(26)))
        sink.integer("numSV", Int64(payload.u1(27)))
        sink.number("lon", longitude, decimals: 7)
        sink.number("lat", latitude, decimals: 7)
        sink.number("height", Double(payload.i4(36)) / 1000, decimals: 3)
        sink.number("hMSL", Double(payload.i4(40)) / 1000, decimals: 3)
        sink.number("hAcc", Double(payload.u4(44)) / 1000, decimals: 3)
        sink.number("vAcc", Double(payload.u4(48)) / 1000, decimals: 3)
        sink.number("velN", Double(payload.i4(52)) / 1000, decimals: 3)
        sink.number("velE", Double(payload.i4(56)) / 1000, decimals: 3)
        sink.number("velD", Double(payload.i4(60)) / 1000, decimals: 3)
        sink.number("gSpeed", Double(payload.i4(64)) / 1000, decimals: 3)
        sink.number("headMot", Double(payload.i4(68)) / 1e5, decimals: 5)
        sink.number("sAcc", Double(payload.u4(72)) / 1000, decimals: 3)
        sink.number("headAcc", Double(payload.u4(76)) / 1e5, decimals: 5)
        sink.number("pDOP", Double(payload.u2(80)) / 100, decimals: 2)
        sink.integer("distance", Int64(payload.u4(84)))
        sink.integer("totalDistance", Int64(payload.u4(88)))
        sink.integer("distanceStd", Int64(payload.u4(92)))
    }

    /// The stored fix, at its own time (a batch read back is a track of its own).
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        if payload.u1(15) & 3 == 3 {
            UBXTime.utc(
                iTOW: iTOW, year: Int(payload.u2(8)), month: payload.u1(10), day: payload.u1(11),
                hour: payload.u1(12), minute: payload.u1(13), second: payload.u1(14), nano: payload.i4(20),
                into: &report)
        }
        guard UBXFixType.report(fixType, differential: flags & 2 != 0, into: &report) else { return report }
        report.setPosition(
            latitude: latitude, longitude: longitude, height: Double(payload.i4(36)) / 1000,
            heightMSL: Double(payload.i4(40)) / 1000, horizontalAccuracy: Double(payload.u4(44)) / 1000,
            verticalAccuracy: Double(payload.u4(48)) / 1000)
        report.speed = Double(payload.i4(64)) / 1000
        report.courseDegrees = Double(payload.i4(68)) / 1e5
        report.climb = -Double(payload.i4(60)) / 1000
        report.pdop = Double(payload.u2(80)) / 100
        report.satellitesUsed = Int(payload.u1(27))
        return report
    }
}
