import NMEA
import Testing
import Watch

/// gpsd's JSON reports, as gpsd 3.22 sent them for a simulated multi-GNSS drive (`gpsfake` of `nmea simulate`).
@Suite struct GpsdSessionTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices =
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/3","#
        + #""activated":"2026-11-30T16:41:25.362Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#
    static let tpv2D =
        #"{"class":"TPV","device":"/dev/pts/3","mode":2,"lat":48.137559000,"lon":11.575738167,"#
        + #""magvar":3.3}"#
    static let tpv =
        #"{"class":"TPV","device":"/dev/pts/3","mode":3,"time":"2026-11-30T08:00:03.000Z","#
        + #""ept":0.005,"lat":48.137638500,"lon":11.575857333,"altHAE":567.4000,"altMSL":520.1000,"alt":520.1000,"#
        + #""epx":9.093,"epy":7.577,"epv":23.920,"track":45.0000,"magtrack":48.3414,"magvar":3.3,"speed":12.500,"#
        + #""epd":71.9683,"geoidSep":47.300,"eph":9.500,"sep":24.320}"#
    static let sky =
        #"{"class":"SKY","device":"/dev/pts/3","xdop":0.61,"ydop":0.51,"vdop":2.60,"tdop":0.79,"#
        + #""hdop":2.00,"gdop":1.50,"pdop":3.20,"nSat":4,"uSat":2,"satellites":["#
        + #"{"PRN":2,"el":77.0,"az":226.0,"ss":40.0,"used":true,"gnssid":0,"svid":2},"#
        + #"{"PRN":303,"el":38.0,"az":279.0,"ss":32.0,"used":false,"gnssid":2,"svid":3},"#
        + #"{"PRN":72,"el":63.0,"az":170.0,"ss":0.0,"used":false,"gnssid":6,"svid":8},"#
        + #"{"PRN":406,"el":89.0,"az":78.0,"ss":43.0,"used":true,"gnssid":3,"svid":6}]}"#

    static func handle(_ session: inout GpsdSession, _ line: String) -> GpsdSession.Report {
        session.handle(line: Array(line.utf8))
    }

    @Test func aSessionOfReports() {
        var session = GpsdSession()
        #expect(Self.handle(&session, Self.version) == .version)
        #expect(session.release == "3.22")
        #expect(Self.handle(&session, Self.devices) == .device)
        #expect(session.device == "/dev/pts/3" && session.baudRate == 4800)
        #expect(Self.handle(&session, Self.tpv2D) == .fix)
        #expect(session.fix.mode == .twoD && session.fix.latitude == 48.137559 && session.fix.time == nil)
        #expect(session.fix.altitudeMeters == nil && session.fix.quality == .gps)
        #expect(Self.handle(&session, Self.sky) == .sky)
        #expect(Self.handle(&session, Self.tpv) == .fix)
        let fix = session.fix
        #expect(fix.mode == .threeD && fix.hasPosition)
        #expect(fix.date == UTCDate(year: 2026, month: 11, day: 30))
        #expect(fix.time == UTCTime(hour: 8, minute: 0, second: 3) && fix.time?.fractionDigits == 3)
        #expect(fix.latitude == 48.1376385 && fix.longitude == 11.575857333)
        #expect(fix.altitudeMeters == 520.1 && fix.geoidSeparationMeters == 47.3)
        #expect(fix.speed == 12.5 && fix.courseDegrees == 45 && fix.magneticVariationDegrees == 3.3)
        #expect(fix.horizontalErrorMeters == 9.5 && fix.verticalErrorMeters == 23.92)
        // Satellites and DOPs carry over from the SKY before.
        #expect(fix.hdop == 2 && fix.vdop == 2.6 && fix.pdop == 3.2 && fix.satellitesUsed == 2)
        #expect(
            Array(fix.satellites) == [
                SatelliteInView(system: .gps, prn: 2, elevationDegrees: 77, azimuthDegrees: 226, snr: 40, isUsed: true),
                SatelliteInView(system: .galileo, prn: 3, elevationDegrees: 38, azimuthDegrees: 279, snr: 32),
                SatelliteInView(system: .glonass, prn: 8, elevationDegrees: 63, azimuthDegrees: 170, snr: nil),
                SatelliteInView(
                    system: .beidou, prn: 6, elevationDegrees: 89, azimuthDegrees: 78, snr: 43, isUsed: true),
            ])
    }

    @Test func skyWithoutSatellitesKeepsThem() {
        var session = GpsdSession()
        _ = Self.handle(&session, Self.sky)
        _ = Self.handle(&session, #"{"class":"SKY","hdop":1.1,"uSat":1}"#)
        #expect(session.fix.satellites.count == 4 && session.fix.hdop == 1.1 && session.fix.satellitesUsed == 1)
        // Without gnssid, the system comes from the PRN's range.
        _ = Self.handle(&session, #"{"class":"SKY","satellites":[{"PRN":70,"el":10,"az":20,"ss":30,"used":true}]}"#)
        #expect(
            Array(session.fix.satellites) == [
                SatelliteInView(
                    system: .glonass, prn: 70, elevationDegrees: 10, azimuthDegrees: 20, snr: 30, isUsed: true)
            ])
        #expect(session.fix.satellitesUsed == 1)
    }

    @Test func statusNoFixAndOtherReports() {
        var session = GpsdSession()
        _ = Self.handle(&session, #"{"class":"TPV","mode":3,"status":2,"lat":1,"lon":2,"alt":3}"#)
        #expect(session.fix.quality == .differential && session.fix.altitudeMeters == 3)
        _ = Self.handle(&session, #"{"class":"TPV","mode":1,"time":"2026-11-30T08:00:04Z","lat":1,"lon":2}"#)
        #expect(!session.fix.hasPosition && session.fix.latitude == nil && session.fix.quality == .none)
        #expect(session.fix.time == UTCTime(hour: 8, minute: 0, second: 4))
        #expect(
            Self.handle(&session, #"{"class":"ERROR","message":"unrecognized request"}"#)
                == .error("unrecognized request"))
        #expect(Self.handle(&session, #"{"class":"WATCH","enable":true}"#) == .other)
        #expect(Self.handle(&session, "not json") == .malformed)
        #expect(Self.handle(&session, "[1,2]") == .malformed)
        _ = Self.handle(&session, #"{"class":"DEVICE","path":"/dev/ttyUSB0","bps":9600}"#)
        _ = Self.handle(&session, #"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":0}"#)
        #expect(session.device == "/dev/ttyUSB0" && session.baudRate == 9600)
    }

    @Test func times() {
        #expect(GpsdSession.parseTime("2026-02-29T00:00:00Z") == nil)
        #expect(GpsdSession.parseTime("2028-02-29T23:59:60.5Z")?.1.fractionDigits == 1)
        #expect(GpsdSession.parseTime("2026-11-30 08:00:00Z") == nil)
    }
}
