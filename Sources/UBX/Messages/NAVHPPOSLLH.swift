import NMEA

/// UBX NAV-HPPOSLLH (`01 14`, 36 bytes; protocol 20+): geodetic position to 0.1 mm.
///
///     0 U1 version · 3 X1 flags (invalidLlh) · 4 U4 iTOW ms · 8 I4 lon, 12 I4 lat 1e-7°
///     16 I4 height, 20 I4 hMSL mm · 24 I1 lonHp, 25 I1 latHp 1e-9° · 26 I1 heightHp, 27 I1 hMSLHp 0.1 mm
///     28 U4 hAcc, 32 U4 vAcc 0.1 mm
public struct NAVHPPOSLLH: UBXMessageBody {
    public static let id = UBXMessageID.navHPPOSLLH
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 36 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(4) }
    public var invalidLlh: Bool { payload.u1(3) & 1 != 0 }
    public var longitude: Double { Double(payload.i4(8)) / 1e7 + Double(payload.i1(24)) / 1e9 }
    public var latitude: Double { Double(payload.i4(12)) / 1e7 + Double(payload.i1(25)) / 1e9 }
    public var heightMeters: Double { Double(payload.i4(16)) / 1000 + Double(payload.i1(26)) / 10_000 }
    public var heightMSLMeters: Double { Double(payload.i4(20)) / 1000 + Double(payload.i1(27)) / 10_000 }
    public var horizontalAccuracyMeters: Double { Double(payload.u4(28)) / 10_000 }
    public var verticalAccuracyMeters: Double { Double(payload.u4(32)) / 10_000 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("version", Int64(payload.u1(0)))
        sink.integer("flags", Int64(payload.u1(3)))
        sink.integer("iTOW", Int64(iTOW))
        sink.number("lon", longitude, decimals: 9)
        sink.number("lat", latitude, decimals: 9)
        sink.number("height", heightMeters, decimals: 4)
        sink.number("hMSL", heightMSLMeters, decimals: 4)
        sink.number("hAcc", horizontalAccuracyMeters, decimals: 4)
        sink.number("vAcc", verticalAccuracyMeters, decimals: 4)
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        guard !invalidLlh, payload.i4(8) != 0 || payload.i4(12) != 0 else { return report }
        report.setPosition(
            latitude: latitude, longitude: longitude, height: heightMeters, heightMSL: heightMSLMeters,
            horizontalAccuracy: horizontalAccuracyMeters, verticalAccuracy: verticalAccuracyMeters)
        return report
    }
}
