import NMEA
import UBX

/// UBX frames made here, with known values, for the decoding tests.
enum UBXSamples {
    /// A NAV-PVT at 2026-12-06 10:20:30.400 UTC (GPS week 2448, 18 leap seconds), 3D fix with DGPS, over Munich.
    static func navPVT(
        iTOW: UInt32 = UBXSamples.sundayTimeOfWeek,
        second: UInt8 = 30, nano: Int32 = 400_000_000, fixType: UInt8 = 3, flags: UInt8 = 0b11,
        latitude: Int32 = 481_374_000, longitude: Int32 = 115_755_000
    ) -> [UInt8] {
        var payload = UBXPayloadBuilder()
        payload.u4(iTOW)
        payload.u2(2026)
        payload.u1(12)
        payload.u1(6)
        payload.u1(10)
        payload.u1(20)
        payload.u1(second)
        payload.u1(0b111)  // valid date, time, fully resolved
        payload.u4(25)  // tAcc ns
        payload.i4(nano)
        payload.u1(fixType)
        payload.u1(flags)
        payload.u1(0)
        payload.u1(14)  // numSV
        payload.i4(longitude)
        payload.i4(latitude)
        payload.i4(567_800)  // height mm
        payload.i4(520_100)  // hMSL mm
        payload.u4(1_250)  // hAcc mm
        payload.u4(2_100)  // vAcc mm
        payload.i4(2_500)  // velN mm/s
        payload.i4(-2_500)  // velE
        payload.i4(-100)  // velD
        payload.i4(3_536)  // gSpeed
        payload.i4(31_500_000)  // headMot 1e-5°: 315°
        payload.u4(300)  // sAcc mm/s
        payload.u4(120_000)  // headAcc
        payload.u2(145)  // pDOP
        payload.u1(0)  // flags3
        payload.zeros(5)
        payload.i4(0)  // headVeh
        payload.i2(350)  // magDec 3.5°
        payload.u2(50)
        return payload.frame(.navPVT)
    }

    /// The GPS time of week of 2026-12-06 (a Sunday: the week's first day) 10:20:30.400 UTC with 18 leap seconds.
    static let sundayTimeOfWeek: UInt32 = (10 * 3600 + 20 * 60 + 30 + 18) * 1000 + 400

    /// A NAV-SOL with an Earth-centred position and velocity.
    static func navSOL(iTOW: UInt32, week: Int16, x: Int32, y: Int32, z: Int32, vx: Int32, vy: Int32, vz: Int32)
        -> [UInt8]
    {
        var payload = UBXPayloadBuilder()
        payload.u4(iTOW)
        payload.i4(0)
        payload.i2(week)
        payload.u1(3)  // 3D
        payload.u1(0b1101)  // fix OK, week and time of week set
        payload.i4(x)
        payload.i4(y)
        payload.i4(z)
        payload.u4(250)  // pAcc cm
        payload.i4(vx)
        payload.i4(vy)
        payload.i4(vz)
        payload.u4(10)  // sAcc cm/s
        payload.u2(180)  // pDOP
        payload.u1(0)
        payload.u1(9)
        payload.zeros(4)
        return payload.frame(.navSOL)
    }

    /// A NAV-TIMEGPS with valid week and leap seconds.
    static func navTIMEGPS(iTOW: UInt32, week: Int16, leapSeconds: Int8) -> [UInt8] {
        var payload = UBXPayloadBuilder()
        payload.u4(iTOW)
        payload.i4(0)
        payload.i2(week)
        payload.i1(leapSeconds)
        payload.u1(0b111)
        payload.u4(20)
        return payload.frame(.navTIMEGPS)
    }

    /// NAV-EOE.
    static func navEOE(iTOW: UInt32) -> [UInt8] {
        var payload = UBXPayloadBuilder()
        payload.u4(iTOW)
        return payload.frame(.navEOE)
    }
}
