import Geodesy
import NMEA

/// UBX NAV-SOL (`01 06`, 52 bytes; u-blox 5 to 8): the solution in Earth-centred coordinates, with the GPS week.
///
///     0 U4 iTOW ms · 4 I4 fTOW ns · 8 I2 week · 10 U1 gpsFix · 11 X1 flags (GPSfixOK, DiffSoln, WKNSET, TOWSET)
///     12 I4 ecefX, ecefY, ecefZ cm · 24 U4 pAcc cm · 28 I4 ecefVX, VY, VZ cm/s · 40 U4 sAcc cm/s
///     44 U2 pDOP 0.01 · 47 U1 numSV
public struct NAVSOL: UBXMessageBody {
    public static let id = UBXMessageID.navSOL
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        // A fix type past 5 is none a receiver sends: damage with a valid checksum, not a message.
        guard payload.count >= 52, payload.u1(10) <= 5 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var fTOW: Int32 { payload.i4(4) }
    public var week: Int16 { payload.i2(8) }
    public var gpsFix: UInt8 { payload.u1(10) }
    public var flags: UInt8 { payload.u1(11) }
    public var ecefX: Double { Double(payload.i4(12)) / 100 }
    public var ecefY: Double { Double(payload.i4(16)) / 100 }
    public var ecefZ: Double { Double(payload.i4(20)) / 100 }
    public var positionAccuracyMeters: Double { Double(payload.u4(24)) / 100 }
    public var ecefVX: Double { Double(payload.i4(28)) / 100 }
    public var ecefVY: Double { Double(payload.i4(32)) / 100 }
    public var ecefVZ: Double { Double(payload.i4(36)) / 100 }
    public var speedAccuracy: Double { Double(payload.u4(40)) / 100 }
    public var pDOP: Double { Double(payload.u2(44)) / 100 }
    public var numSV: UInt8 { payload.u1(47) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("fTOW", Int64(fTOW))
        sink.integer("week", Int64(week))
        sink.integer("gpsFix", Int64(gpsFix))
        sink.integer("flags", Int64(flags))
        sink.number("ecefX", ecefX, decimals: 2)
        sink.number("ecefY", ecefY, decimals: 2)
        sink.number("ecefZ", ecefZ, decimals: 2)
        sink.number("pAcc", positionAccuracyMeters, decimals: 2)
        sink.number("ecefVX", ecefVX, decimals: 2)
        sink.number("ecefVY", ecefVY, decimals: 2)
        sink.number("ecefVZ", ecefVZ, decimals: 2)
        sink.number("sAcc", speedAccuracy, decimals: 2)
        sink.number("pDOP", pDOP, decimals: 2)
        sink.integer("numSV", Int64(numSV))
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        if flags & 0x0C == 0x0C { report.week = Int(week) }
        guard UBXFixType.report(gpsFix, differential: flags & 2 != 0, into: &report) else { return report }
        UBXEarthCentred.position(ecefX, ecefY, ecefZ, into: &report)
        report.earthCentredVelocity = (ecefVX, ecefVY, ecefVZ)
        report.pdop = pDOP
        report.satellitesUsed = Int(numSV)
        report.horizontalAccuracyMeters = positionAccuracyMeters
        report.speedAccuracyMetersPerSecond = speedAccuracy
        return report
    }
}
