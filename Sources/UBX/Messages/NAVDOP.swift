import NMEA

/// UBX NAV-DOP (`01 04`, 18 bytes): dilutions of precision, 0.01 each.
///
///     0 U4 iTOW ms · 4 U2 gDOP · 6 pDOP · 8 tDOP · 10 vDOP · 12 hDOP · 14 nDOP · 16 eDOP
public struct NAVDOP: UBXMessageBody {
    public static let id = UBXMessageID.navDOP
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 18 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var gDOP: Double { Double(payload.u2(4)) / 100 }
    public var pDOP: Double { Double(payload.u2(6)) / 100 }
    public var tDOP: Double { Double(payload.u2(8)) / 100 }
    public var vDOP: Double { Double(payload.u2(10)) / 100 }
    public var hDOP: Double { Double(payload.u2(12)) / 100 }
    public var nDOP: Double { Double(payload.u2(14)) / 100 }
    public var eDOP: Double { Double(payload.u2(16)) / 100 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.number("gDOP", gDOP, decimals: 2)
        sink.number("pDOP", pDOP, decimals: 2)
        sink.number("tDOP", tDOP, decimals: 2)
        sink.number("vDOP", vDOP, decimals: 2)
        sink.number("hDOP", hDOP, decimals: 2)
        sink.number("nDOP", nDOP, decimals: 2)
        sink.number("eDOP", eDOP, decimals: 2)
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.hdop = hDOP
        report.vdop = vDOP
        report.pdop = pDOP
        return report
    }
}
