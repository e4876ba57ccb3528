import NMEA

/// UBX LOG-RETRIEVEPOS (`21 0B`, 40 bytes): a position read back from the receiver's log.
///
///     0 U4 entryIndex · 4 I4 lon, 8 I4 lat 1e-7° · 12 I4 hMSL mm · 16 U4 hAcc mm · 20 U4 gSpeed mm/s
///     24 U4 heading 1e-5° · 28 U1 version · 29 U1 fixType · 30 U2 year · 32 U1 month, day, hour, minute, second
///     38 U1 numSV
public struct LOGRETRIEVEPOS: UBXMessageBody {
    public static let id = UBXMessageID.logRETRIEVEPOS
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 40 else { return nil }
        self.payload = payload
    }

    public var fixType: UInt8 { payload.u1(29) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("entryIndex", Int64(payload.u4(0)))
        sink.number("lon", Double(payload.i4(4)) / 1e7, decimals: 7)
        sink.number("lat", Double(payload.i4(8)) / 1e7, decimals: 7)
        sink.number("hMSL", Double(payload.i4(12)) / 1000, decimals: 3)
        sink.number("hAcc", Double(payload.u4(16)) / 1000, decimals: 3)
        sink.number("gSpeed", Double(payload.u4(20)) / 1000, decimals: 3)
        sink.number("heading", Double(payload.u4(24)) / 1e5, decimals: 5)
        sink.integer("version", Int64(payload.u1(28)))
        sink.integer("fixType", Int64(fixType))
        sink.integer("year", Int64(payload.u2(30)))
        sink.integer("month", Int64(payload.u1(32)))
        sink.integer("day", Int64(payload.u1(33)))
        sink.integer("hour", Int64(payload.u1(34)))
        sink.integer("minute", Int64(payload.u1(35)))
        sink.integer("second", Int64(payload.u1(36)))
        sink.integer("numSV", Int64(payload.u1(38)))
    }

    /// The logged fix, keyed by the GPS time of week its UTC time falls on (the message carries no iTOW).
    public func report() -> EpochReport? {
        var probe = emptyReport(timeOfWeek: 0)
        UBXTime.utc(
            iTOW: nil, year: Int(payload.u2(30)), month: payload.u1(32), day: payload.u1(33), hour: payload.u1(34),
            minute: payload.u1(35), second: payload.u1(36), nano: 0, into: &probe)
        guard let date = probe.date, let time = probe.time else { return nil }
        let milliseconds = Int64(date.daysSinceEpoch) * 86_400_000 + time.nanosecondsSinceMidnight / 1_000_000
        var report = emptyReport(
            timeOfWeek: UInt32(GPSTime.week(unixMilliseconds: milliseconds).timeOfWeekMilliseconds))
        report.date = date
        report.time = time
        guard UBXFixType.report(fixType, differential: false, into: &report) else { return report }
        report.setPosition(
            latitude: Double(payload.i4(8)) / 1e7, longitude: Double(payload.i4(4)) / 1e7, height: nil,
            heightMSL: Double(payload.i4(12)) / 1000, horizontalAccuracy: Double(payload.u4(16)) / 1000,
            verticalAccuracy: nil)
        report.speed = Double(payload.u4(20)) / 1000
        report.courseDegrees = Double(payload.u4(24)) / 1e5
        report.satellitesUsed = Int(payload.u1(38))
        report.endsEpoch = true
        return report
    }
}
