import NMEA

/// UBX NAV-VELECEF (`01 11`, 20 bytes): Earth-centred velocity.
///
///     0 U4 iTOW ms · 4 I4 ecefVX, 8 I4 ecefVY, 12 I4 ecefVZ cm/s · 16 U4 sAcc cm/s
public struct NAVVELECEF: UBXMessageBody {
    public static let id = UBXMessageID.navVELECEF
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 20 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var ecefVX: Double { Double(payload.i4(4)) / 100 }
    public var ecefVY: Double { Double(payload.i4(8)) / 100 }
    public var ecefVZ: Double { Double(payload.i4(12)) / 100 }
    public var speedAccuracy: Double { Double(payload.u4(16)) / 100 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.number("ecefVX", ecefVX, decimals: 2)
        sink.number("ecefVY", ecefVY, decimals: 2)
        sink.number("ecefVZ", ecefVZ, decimals: 2)
        sink.number("sAcc", speedAccuracy, decimals: 2)
    }

    /// The velocity, turned into speed, course and climb in the frame of the epoch's position.
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.earthCentredVelocity = (ecefVX, ecefVY, ecefVZ)
        report.speedAccuracyMetersPerSecond = speedAccuracy
        return report
    }
}
