import NMEA

/// UBX NAV-PVT (`01 07`, 92 bytes; 84 before protocol 15): the navigation solution in one message — UTC date and
/// time, fix, position, velocity, accuracies.
///
///     0 U4 iTOW ms · 4 U2 year · 6 U1 month, day, hour, min, sec · 11 X1 valid (date, time, fully resolved)
///     12 U4 tAcc ns · 16 I4 nano ns · 20 U1 fixType · 21 X1 flags (gnssFixOK, diffSoln, carrSoln bits 6–7)
///     22 X1 flags2 · 23 U1 numSV · 24 I4 lon, 28 I4 lat 1e-7° · 32 I4 height, 36 I4 hMSL mm
///     40 U4 hAcc, 44 U4 vAcc mm · 48 I4 velN, velE, velD, 60 I4 gSpeed mm/s · 64 I4 headMot 1e-5°
///     68 U4 sAcc mm/s · 72 U4 headAcc 1e-5° · 76 U2 pDOP 0.01 · 78 X1 flags3 (invalidLlh)
///     84 I4 headVeh 1e-5° · 88 I2 magDec 1e-2° · 90 U2 magAcc 1e-2°
public struct NAVPVT: UBXMessageBody {
    public static let id = UBXMessageID.navPVT
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        // A fix type past 5 is none a receiver sends: damage with a valid checksum, not a message.
        guard payload.count >= 84, payload.u1(20) <= 5 else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var year: Int { Int(payload.u2(4)) }
    public var month: UInt8 { payload.u1(6) }
    public var day: UInt8 { payload.u1(7) }
    public var hour: UInt8 { payload.u1(8) }
    public var minute: UInt8 { payload.u1(9) }
    public var second: UInt8 { payload.u1(10) }
    public var valid: UInt8 { payload.u1(11) }
    public var timeAccuracyNanoseconds: UInt32 { payload.u4(12) }
    public var nano: Int32 { payload.i4(16) }
    public var fixType: UInt8 { payload.u1(20) }
    public var flags: UInt8 { payload.u1(21) }
    public var flags2: UInt8 { payload.u1(22) }
    public var numSV: UInt8 { payload.u1(23) }
    public var longitude: Double { Double(payload.i4(24)) / 1e7 }
    public var latitude: Double { Double(payload.i4(28)) / 1e7 }
    public var heightMeters: Double { Double(payload.i4(32)) / 1000 }
    public var heightMSLMeters: Double { Double(payload.i4(36)) / 1000 }
    public var horizontalAccuracyMeters: Double { Double(payload.u4(40)) / 1000 }
    public var verticalAccuracyMeters: Double { Double(payload.u4(44)) / 1000 }
    public var velocityNorth: Double { Double(payload.i4(48)) / 1000 }
    public var velocityEast: Double { Double(payload.i4(52)) / 1000 }
    public var velocityDown: Double { Double(payload.i4(56)) / 1000 }
    public var groundSpeed: Double { Double(payload.i4(60)) / 1000 }
    public var headingOfMotionDegrees: Double { Double(payload.i4(64)) / 1e5 }
    public var speedAccuracy: Double { Double(payload.u4(68)) / 1000 }
    public var headingAccuracyDegrees: Double { Double(payload.u4(72)) / 1e5 }
    public var pDOP: Double { Double(payload.u2(76)) / 100 }
    /// The fix's position is not valid (protocol 27+: flags3 bit 0).
    public var invalidLlh: Bool { payload.u1(78) & 1 != 0 }
    /// The carrier-phase solution: 0 none, 1 RTK float, 2 RTK fixed.
    public var carrierSolution: UInt8 { flags >> 6 }
    public var gnssFixOK: Bool { flags & 1 != 0 }
    public var differentialSolution: Bool { flags & 2 != 0 }
    public var validDate: Bool { valid & 1 != 0 }
    public var validTime: Bool { valid & 2 != 0 }
    public var fullyResolved: Bool { valid & 4 != 0 }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("year", Int64(year))
        sink.integer("month", Int64(month))
        sink.integer("day", Int64(day))
        sink.integer("hour", Int64(hour))
        sink.integer("min", Int64(minute))
        sink.integer("sec", Int64(second))
        sink.integer("valid", Int64(valid))
        sink.integer("tAcc", Int64(timeAccuracyNanoseconds))
        sink.integer("nano", Int64(nano))
        sink.integer("fixType", Int64(fixType))
        sink.integer("flags", Int64(flags))
        sink.integer("flags2", Int64(flags2))
        sink.integer("numSV", Int64(numSV))
        sink.number("lon", longitude, decimals: 7)
        sink.number("lat", latitude, decimals: 7)
        sink.number("height", heightMeters, decimals: 3)
        sink.number("hMSL", heightMSLMeters, decimals: 3)
        sink.number("hAcc", horizontalAccuracyMeters, decimals: 3)
        sink.number("vAcc", verticalAccuracyMeters, decimals: 3)
        sink.number("velN", velocityNorth, decimals: 3)
        sink.number("velE", velocityEast, decimals: 3)
        sink.number("velD", velocityDown, decimals: 3)
        sink.number("gSpeed", groundSpeed, decimals: 3)
        sink.number("headMot", headingOfMotionDegrees, decimals: 5)
        sink.number("sAcc", speedAccuracy, decimals: 3)
        sink.number("headAcc", headingAccuracyDegrees, decimals: 5)
        sink.number("pDOP", pDOP, decimals: 2)
        if payload.count >= 92 {
            sink.integer("flags3", Int64(payload.u1(78)))
            sink.number("headVeh", Double(payload.i4(84)) / 1e5, decimals: 5)
            sink.number("magDec", Double(payload.i2(88)) / 100, decimals: 2)
            sink.number("magAcc", Double(payload.u2(90)) / 100, decimals: 2)
        }
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        if validDate && validTime && fullyResolved {
            UBXTime.utc(
                iTOW: iTOW, year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                nano: nano, into: &report)
        }
        // A position flagged invalid (protocol 27+) is no fix, whatever the fix type.
        let type = payload.count >= 92 && invalidLlh ? 0 : fixType
        guard UBXFixType.report(type, differential: differentialSolution, carrier: carrierSolution, into: &report)
        else { return report }
        report.setPosition(
            latitude: latitude, longitude: longitude, height: heightMeters, heightMSL: heightMSLMeters,
            horizontalAccuracy: horizontalAccuracyMeters, verticalAccuracy: verticalAccuracyMeters)
        report.speed = groundSpeed
        report.courseDegrees = headingOfMotionDegrees
        report.climb = -velocityDown
        report.pdop = pDOP
        report.satellitesUsed = Int(numSV)
        report.speedAccuracyMetersPerSecond = speedAccuracy
        report.timeAccuracySeconds = Double(timeAccuracyNanoseconds) / 1e9
        return report
    }
}
