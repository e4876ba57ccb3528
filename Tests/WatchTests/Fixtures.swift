import NMEA
import Watch

/// A fixed state for the screen tests: a DGPS 3D fix in Sydney (south and east, a three-digit longitude), eight
/// satellites in four systems (one not tracked, one without a position in the sky, a four-character name).
enum Fixtures {
    static var fix: Fix {
        var fix = Fix(
            date: UTCDate(year: 2026, month: 11, day: 30),
            time: UTCTime(hour: 8, minute: 15, second: 42), latitude: -33.856784, longitude: 151.215297,
            altitudeMeters: 58.3, speed: 13.8889, courseDegrees: 271.5, quality: .differential,
            mode: .threeD)
        fix.hdop = 0.9
        fix.vdop = 1.4
        fix.pdop = 1.7
        fix.satellitesUsed = 5
        let satellites: [SatelliteInView] = [
            SatelliteInView(system: .gps, prn: 5, elevationDegrees: 62, azimuthDegrees: 40, snr: 47, isUsed: true),
            SatelliteInView(system: .gps, prn: 12, elevationDegrees: 8, azimuthDegrees: 300, snr: nil),
            SatelliteInView(system: .gps, prn: 25, elevationDegrees: 35, azimuthDegrees: 135, snr: 38, isUsed: true),
            SatelliteInView(system: .gps, prn: 29, elevationDegrees: 20, azimuthDegrees: 225, snr: 21),
            SatelliteInView(
                system: .glonass, prn: 70, elevationDegrees: 45, azimuthDegrees: 270, snr: 33,
                isUsed: true),
            SatelliteInView(
                system: .galileo, prn: 11, elevationDegrees: 85, azimuthDegrees: 10, snr: 50,
                isUsed: true),
            SatelliteInView(system: .galileo, prn: 4, elevationDegrees: nil, azimuthDegrees: nil, snr: 12),
            SatelliteInView(
                system: .qzss, prn: 193, elevationDegrees: 70, azimuthDegrees: 180, snr: 41,
                isUsed: true),
        ]
        for satellite in satellites { _ = fix.satellites.append(satellite) }
        return fix
    }

    static var state: WatchState {
        WatchState(
            source: .device("auto"), device: "/dev/ttyACM0", baudRate: 9600, fix: fix, fixAgeSeconds: 0.43,
            fixRateHz: 1, fixCount: 1234, rejectedLines: 2, place: "Sydney, New South Wales, AU",
            status: "connected")
    }
}
