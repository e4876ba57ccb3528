import Glibc
import NMEA
import UBX

extension UBloxReceiver {
    /// The satellites it "sees": eight per system, in view of every system it tracks.
    private static let sky: [(ReceiverSettings.Constellation, UInt8)] = [
        (.gps, 2), (.gps, 5), (.gps, 12), (.gps, 15), (.gps, 18), (.gps, 24), (.gps, 25), (.gps, 29),
        (.glonass, 65), (.glonass, 71), (.glonass, 72), (.galileo, 4), (.galileo, 9), (.galileo, 11),
        (.beidou, 6), (.beidou, 14), (.sbas, 120), (.qzss, 193),
    ]

    /// Its output for the epoch at `nanoseconds` since 1970 (UTC), `index` epochs after it started: NMEA GGA and
    /// RMC when NMEA is on, and the UBX messages turned on (NAV-PVT, NAV-SAT, NAV-DOP, NAV-STATUS, NAV-POSLLH,
    /// NAV-TIMEGPS; NAV-EOE last) when UBX is.
    public func epoch(atNanoseconds nanoseconds: Int64, index: Int) -> [UInt8] {
        let seconds = Double(index) * Double(settings.rateMilliseconds) / 1000
        let latitude = startLatitude
        let longitude = startLongitude + 10 * seconds / (111_320 * cos(startLatitude * .pi / 180))
        let (date, time) = UTCDate.moment(nanosecondsSinceEpoch: nanoseconds, fractionDigits: 2)
        let used = Self.sky.filter { settings.systems.contains($0.0) }
        let rtk = corrections.solution(atNanoseconds: nanoseconds)
        var out: [UInt8] = []
        if settings.nmea {
            out += EmulatorNMEA.ggaAndRMC(
                date, time, latitude, longitude, used: used.count,
                talker: settings.systems == [.gps] || settings.systems == [.gps, .sbas] ? "GP" : "GN", rtk: rtk)
        }
        guard settings.ubxProtocol else { return out }
        let gps = GPSTime.week(unixMilliseconds: nanoseconds / 1_000_000, leapSeconds: 18)
        let iTOW = UInt32(gps.timeOfWeekMilliseconds)
        let week = Int16(gps.week)
        for id in UBXConfigurationKey.configurableMessages where settings.ubxMessages.contains(id) {
            var payload = UBXPayloadBuilder()
            switch id {
            case .navPVT: navPVT(&payload, iTOW, nanoseconds, latitude, longitude, used: used.count, rtk: rtk)
            case .navSAT:
                payload.u4(iTOW)
                payload.u1(1)
                payload.u1(UInt8(used.count))
                payload.zeros(2)
                for (index, (system, number)) in used.enumerated() {
                    payload.u1(system.gnssID)
                    payload.u1(number > 64 && system == .glonass ? number - 64 : number)
                    payload.u1(UInt8(30 + index % 15))
                    payload.i1(Int8(10 + (index * 7) % 70))
                    payload.i2(Int16((index * 41) % 360))
                    payload.i2(0)
                    payload.u4(0x0000_0008 | 7)  // used, quality 7
                }
            case .navDOP:
                payload.u4(iTOW)
                for value: UInt16 in [180, 160, 90, 130, 90, 70, 60] { payload.u2(value) }
            case .navSTATUS:
                payload.u4(iTOW)
                payload.u1(3)
                payload.u1(0b1101)
                payload.zeros(2)
                payload.u4(25_000)
                payload.u4(UInt32(truncatingIfNeeded: index * settings.rateMilliseconds + 30_000))
            case .navPOSLLH:
                payload.u4(iTOW)
                payload.i4(Int32((longitude * 1e7).rounded()))
                payload.i4(Int32((latitude * 1e7).rounded()))
                payload.i4(567_800)
                payload.i4(520_100)
                payload.u4(1_500)
                payload.u4(2_500)
            case .navTIMEGPS:
                payload.u4(iTOW)
                payload.i4(0)
                payload.i2(week)
                payload.i1(18)
                payload.u1(0b111)
                payload.u4(20)
            default:
                continue  // turned on, but not made here (NAV-EOE comes last, below)
            }
            out += payload.frame(id)
        }
        if settings.ubxMessages.contains(.navEOE) {
            var payload = UBXPayloadBuilder()
            payload.u4(iTOW)
            out += payload.frame(.navEOE)
        }
        return out
    }

    private func navPVT(
        _ payload: inout UBXPayloadBuilder, _ iTOW: UInt32, _ nanoseconds: Int64, _ latitude: Double,
        _ longitude: Double, used: Int, rtk: RTKSolution
    ) {
        let (date, time) = UTCDate.moment(nanosecondsSinceEpoch: nanoseconds)
        payload.u4(iTOW)
        payload.u2(UInt16(date.year))
        for value in [date.month, date.day, time.hour, time.minute, time.second, 0b111] { payload.u1(value) }
        payload.u4(30)  // tAcc ns
        payload.i4(Int32(time.nanoseconds))
        payload.u1(3)  // 3D
        payload.u1(rtk == .none ? 0b1 : 0b11 | rtk.carrierSolution << 6)  // fix OK, differential, carrier phase
        payload.u1(0)
        payload.u1(UInt8(used))
        payload.i4(Int32((longitude * 1e7).rounded()))
        payload.i4(Int32((latitude * 1e7).rounded()))
        payload.i4(567_800)
        payload.i4(520_100)
        payload.u4(rtk == .fixed ? 14 : rtk == .float ? 300 : 1_500)  // hAcc mm
        payload.u4(rtk == .fixed ? 21 : rtk == .float ? 450 : 2_500)  // vAcc mm
        payload.i4(0)  // velN
        payload.i4(10_000)  // velE mm/s
        payload.i4(0)
        payload.i4(10_000)  // gSpeed
        payload.i4(9_000_000)  // headMot 90°
        payload.u4(200)  // sAcc
        payload.u4(500_000)
        payload.u2(180)  // pDOP
        payload.zeros(6)
        payload.i4(0)
        payload.i2(0)
        payload.u2(0)
    }
}
