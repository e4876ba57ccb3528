import NMEA

/// UBX NAV-POSLLH (`01 02`, 28 bytes): geodetic position.
///
///     0 U4 iTOW ms · 4 I4 lon, 8 I4 lat 1e-7° · 12 I4 height, 16 I4 hMSL mm · 20 U4 hAcc, 24 U4 vAcc mm
public struct NAVPOSLLH: UBXMessageBody {
    public static let id = UBXMessageID.navPOSLLH
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 28 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var longitude: Double { Double(payload.i4(4)) / 1e7 }
    public var latitude: Double { Double(payload.i4(8)) / 1e7 }
    public var heightMeters: Double { Double(payload.i4(12)) / 1000 }
    public var heightMSLMeters: Double { Double(payload.i4(16)) / 1000 }
    public var horizontalAccuracyMeters: Double { Double(payload.u4(20)) / 1000 }
    public var verticalAccuracyMeters: Double { Double(payload.u4(24)) / 1000 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.number("lon", longitude, decimals: 7)
        sink.number("lat", latitude, decimals: 7)
        sink.number("height", heightMeters, decimals: 3)
        sink.number("hMSL", heightMSLMeters, decimals: 3)
        sink.number("hAcc", horizontalAccuracyMeters, decimals: 3)
        sink.number("vAcc", verticalAccuracyMeters, decimals: 3)
    }

    /// The position, without a fix type of its own (NAV-STATUS, NAV-SOL or NAV-PVT say whether it is one).
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        guard payload.i4(4) != 0 || payload.i4(8) != 0 else { return report }
        report.setPosition(
            latitude: latitude, longitude: longitude, height: heightMeters, heightMSL: heightMSLMeters,
            horizontalAccuracy: horizontalAccuracyMeters, verticalAccuracy: verticalAccuracyMeters)
        return report
    }
}
