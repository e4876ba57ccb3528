import Geodesy
import Glibc
import NMEA

/// Earth-centred positions of UBX messages (NAV-POSECEF, NAV-SOL) as WGS 84 positions in a report.
enum UBXEarthCentred {
    /// Puts the position `x`, `y`, `z` (metres) into `report` as latitude, longitude and ellipsoidal height, with
    /// its local frame for a velocity of the same epoch. The origin (what receivers send without a fix) is none.
    static func position(_ x: Double, _ y: Double, _ z: Double, into report: inout EpochReport) {
        guard x != 0 || y != 0 || z != 0 else { return }
        let (latitude, longitude, height) = Geodesy.geodetic(x: x, y: y, z: z)
        report.latitude = latitude
        report.longitude = longitude
        report.ellipsoidHeightMeters = height
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        report.localFrame = (sin(phi), cos(phi), sin(lambda), cos(lambda))
    }
}

/// UTC times of UBX messages (NAV-PVT, NAV-TIMEUTC, HNR-PVT, LOG-BATCH) into a report.
enum UBXTime {
    /// Puts the UTC date and time into `report` (the second plus `nano`, -1e9…1e9 ns, rounded to the millisecond),
    /// and the leap seconds that GPS time of week `iTOW` shows against it. Nothing for an impossible date.
    static func utc(
        iTOW: UInt32?, year: Int, month: UInt8, day: UInt8, hour: UInt8, minute: UInt8, second: UInt8,
        nano: Int32, into report: inout EpochReport
    ) {
        guard (1980...2200).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second <= 60
        else { return }
        let days = Int64(UTCDate(year: Int16(year), month: month, day: day).daysSinceEpoch)
        let ofDay =
            Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1000
            + (Int64(nano) + 500_000).flooredDivision(by: 1_000_000).quotient
        let moment = UTCDate.moment(
            nanosecondsSinceEpoch: (days * 86_400_000 + ofDay) * 1_000_000, fractionDigits: ofDay % 10 == 0 ? 2 : 3)
        report.date = moment.date
        report.time = moment.time
        guard let iTOW else { return }
        // GPS time of day against UTC time of day, within half a day: the leap seconds.
        let gps = Int64(iTOW).flooredDivision(by: 86_400_000).remainder
        let utc = (days * 86_400_000 + ofDay).flooredDivision(by: 86_400_000).remainder
        let difference = (gps - utc + 43_200_000).flooredDivision(by: 86_400_000).remainder - 43_200_000
        if (0...40_000).contains(difference) { report.leapSeconds = Int((difference + 500) / 1000) }
    }
}
