import NMEA

/// UBX NAV-POSECEF (`01 01`, 20 bytes): Earth-centred position.
///
///     0 U4 iTOW ms · 4 I4 ecefX, 8 I4 ecefY, 12 I4 ecefZ cm · 16 U4 pAcc cm
public struct NAVPOSECEF: UBXMessageBody {
    public static let id = UBXMessageID.navPOSECEF
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 20 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var ecefX: Double { Double(payload.i4(4)) / 100 }
    public var ecefY: Double { Double(payload.i4(8)) / 100 }
    public var ecefZ: Double { Double(payload.i4(12)) / 100 }
    public var positionAccuracyMeters: Double { Double(payload.u4(16)) / 100 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.number("ecefX", ecefX, decimals: 2)
        sink.number("ecefY", ecefY, decimals: 2)
        sink.number("ecefZ", ecefZ, decimals: 2)
        sink.number("pAcc", positionAccuracyMeters, decimals: 2)
    }

    /// The position, without a fix type of its own.
    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        UBXEarthCentred.position(ecefX, ecefY, ecefZ, into: &report)
        return report
    }
}
