import NMEA

/// UBX NAV-VELNED (`01 12`, 36 bytes): velocity north, east, down.
///
///     0 U4 iTOW ms · 4 I4 velN, 8 I4 velE, 12 I4 velD cm/s · 16 U4 speed (3D), 20 U4 gSpeed cm/s
///     24 I4 heading 1e-5° · 28 U4 sAcc cm/s · 32 U4 cAcc 1e-5°
public struct NAVVELNED: UBXMessageBody {
    public static let id = UBXMessageID.navVELNED
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 36 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var velocityNorth: Double { Double(payload.i4(4)) / 100 }
    public var velocityEast: Double { Double(payload.i4(8)) / 100 }
    public var velocityDown: Double { Double(payload.i4(12)) / 100 }
    public var speed: Double { Double(payload.u4(16)) / 100 }
    public var groundSpeed: Double { Double(payload.u4(20)) / 100 }
    public var headingDegrees: Double { Double(payload.i4(24)) / 1e5 }
    public var speedAccuracy: Double { Double(payload.u4(28)) / 100 }
    public var courseAccuracyDegrees: Double { Double(payload.u4(32)) / 1e5 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.number("velN", velocityNorth, decimals: 2)
        sink.number("velE", velocityEast, decimals: 2)
        sink.number("velD", velocityDown, decimals: 2)
        sink.number("speed", speed, decimals: 2)
        sink.number("gSpeed", groundSpeed, decimals: 2)
        sink.number("heading", headingDegrees, decimals: 5)
        sink.number("sAcc", speedAccuracy, decimals: 2)
        sink.number("cAcc", courseAccuracyDegrees, decimals: 5)
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.speed = groundSpeed
        report.courseDegrees = headingDegrees
        report.climb = -velocityDown
        report.speedAccuracyMetersPerSecond = speedAccuracy
        return report
    }
}
