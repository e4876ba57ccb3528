import GPSDFixtures
import JSON
import NMEA
import Pipeline
import System
import Testing

@testable import Publisher

/// gpsd's objects, field by field: what a fix of each kind becomes, satellite numbering, times, addresses.
@Suite struct GPSDReportsTests {
    func tpv(_ fix: Fix) -> String {
        var json = JSONWriter()
        GPSDReports.writeTPV(fix, device: "/dev/ttyACM0", into: &json)
        return json.string
    }

    func sampleFix() -> Fix {
        var fix = Fix(
            date: UTCDate(year: 2026, month: 11, day: 30),
            time: UTCTime(hour: 8, minute: 0, second: 1, nanoseconds: 250_000_000, fractionDigits: 2),
            latitude: -33.856_784, longitude: 151.215_297, altitudeMeters: 12.3, geoidSeparationMeters: 22.1,
            speed: 1.5, courseDegrees: 271.25, quality: .differential, mode: .threeD)
        fix.horizontalErrorMeters = 0.8
        fix.verticalErrorMeters = 1.6
        fix.latitudeErrorMeters = 0.5
        fix.longitudeErrorMeters = 0.6
        fix.differentialAgeSeconds = 3
        fix.differentialStationID = 17
        fix.climb = -0.25
        return fix
    }

    @Test func aDGPSFixIsATPVWithGpsdsFieldsAndFormats() {
        #expect(
            tpv(sampleFix()) == """
                {"class":"TPV","device":"/dev/ttyACM0","mode":3,"status":2,"time":"2026-11-30T08:00:01.250Z",\
                "lat":-33.856784000,"lon":151.215297000,"altHAE":34.4000,"altMSL":12.3000,"alt":12.3000,"epx":0.600,\
                "epy":0.500,"epv":1.600,"track":271.2500,"speed":1.500,"climb":-0.250,"geoidSep":22.100,"eph":0.800,\
                "dgpsAge":3.0,"dgpsSta":17}
                """)
    }

    /// Issue 16: depth in the TPV, headings in an ATT, with gpsd's names (gpsd_json(5): TPV `depth`; ATT `heading`,
    /// true, `mheading`, magnetic, and `rot`; gpsd's own output for pypilot.log and bundg_zeus_9.log in the corpus).
    @Test func depthInTheTPVAndHeadingsInAnATT() {
        var fix = sampleFix()
        #expect(!GPSDReports.hasAttitude(fix))
        fix.depthMeters = 2.4
        fix.headingDegrees = 274.07
        fix.magneticHeadingDegrees = 262.5
        fix.rateOfTurnDegreesPerMinute = 0.013
        #expect(tpv(fix).hasSuffix(#""dgpsAge":3.0,"dgpsSta":17,"depth":2.400}"#))
        #expect(GPSDReports.hasAttitude(fix))
        var json = JSONWriter()
        GPSDReports.writeATT(fix, device: "/dev/ttyACM0", into: &json)
        #expect(
            json.string == """
                {"class":"ATT","device":"/dev/ttyACM0","time":"2026-11-30T08:00:01.250Z","heading":274.0700,\
                "mheading":262.5000,"rot":0.013}
                """)
    }

    /// Issue 16, group 4: pitch and roll from attitude sentences (`$PASHR`…) in the ATT, with gpsd's names and order
    /// (gpsd_json(5) ATT `pitch`, `roll`; gpsd writes them before `rot`, three decimals, as in pypilot.log's `.chk`).
    /// gpsd's ATT has no heave, so none is written.
    @Test func pitchAndRollInTheATT() {
        var fix = sampleFix()
        fix.pitchDegrees = 0.31
        #expect(GPSDReports.hasAttitude(fix))
        fix.rollDegrees = -0.3
        fix.headingDegrees = 158.09
        fix.rateOfTurnDegreesPerMinute = 0.013
        var json = JSONWriter()
        GPSDReports.writeATT(fix, device: "/dev/ttyACM0", into: &json)
        #expect(
            json.string == """
                {"class":"ATT","device":"/dev/ttyACM0","time":"2026-11-30T08:00:01.250Z","heading":158.0900,\
                "pitch":0.310,"roll":-0.300,"rot":0.013}
                """)
    }

    @Test func statusNamesTheCorrectionAndModeTheDimension() {
        var fix = sampleFix()
        for (quality, status) in [
            (FixQuality.gps, nil), (.differential, "2"), (.rtkFixed, "3"), (.rtkFloat, "4"),
            (.deadReckoning, "5"), (.manual, "7"), (.simulator, "8"), (.precise, "9"),
        ]
            as [(FixQuality, String?)]
        {
            fix.quality = quality
            #expect(jsonField(tpv(fix), "status") == status, "\(quality)")
        }
        fix.mode = .twoD
        let twoD = tpv(fix)
        #expect(jsonField(twoD, "mode") == "2")
        #expect(jsonField(twoD, "altMSL") == nil && jsonField(twoD, "epv") == nil && jsonField(twoD, "climb") == nil)
        // No position: mode 1, the time still, nothing else.
        var none = Fix(date: fix.date, time: fix.time, mode: .none)
        none.satellites = FixedList()
        #expect(
            tpv(none) == """
                {"class":"TPV","device":"/dev/ttyACM0","mode":1,"time":"2026-11-30T08:00:01.250Z"}
                """)
        // No date: no time (gpsd leaves out what it does not know).
        var undated = sampleFix()
        undated.date = nil
        #expect(jsonField(tpv(undated), "time") == nil)
    }

    @Test func satellitesAreNumberedAsGpsdNumbersThem() {
        func number(_ system: GNSSSystem?, _ prn: UInt16) -> SatelliteNumber {
            SatelliteNumber(SatelliteInView(system: system, prn: prn))
        }
        #expect(number(.gps, 7) == SatelliteNumber(prn: 7, gnssID: 0, svID: 7))
        #expect(number(.gps, 46) == SatelliteNumber(prn: 133, gnssID: 1, svID: 133))  // NMEA's SBAS 33–64
        #expect(number(.gps, 131) == SatelliteNumber(prn: 131, gnssID: 1, svID: 131))
        #expect(number(.glonass, 65) == SatelliteNumber(prn: 65, gnssID: 6, svID: 1))
        #expect(number(.glonass, 3) == SatelliteNumber(prn: 67, gnssID: 6, svID: 3))
        #expect(number(.galileo, 26) == SatelliteNumber(prn: 326, gnssID: 2, svID: 26))
        #expect(number(.galileo, 326) == SatelliteNumber(prn: 326, gnssID: 2, svID: 26))
        #expect(number(.beidou, 6) == SatelliteNumber(prn: 406, gnssID: 3, svID: 6))
        #expect(number(.beidou, 211) == SatelliteNumber(prn: 411, gnssID: 3, svID: 11))
        #expect(number(.qzss, 195) == SatelliteNumber(prn: 195, gnssID: 5, svID: 3))
        #expect(number(.qzss, 2) == SatelliteNumber(prn: 194, gnssID: 5, svID: 2))
        #expect(number(nil, 250) == SatelliteNumber(prn: 250, gnssID: nil, svID: nil))
    }

    @Test func skyCarriesTheDOPsAndEverySatellite() {
        var fix = sampleFix()
        fix.hdop = 0.9
        fix.pdop = 1.6
        var satellites = FixedList<64, SatelliteInView>()
        satellites.append(
            SatelliteInView(
                system: .gps, prn: 5, elevationDegrees: 40, azimuthDegrees: 120, snr: 38,
                isUsed: true))
        satellites.append(SatelliteInView(system: .galileo, prn: 11, elevationDegrees: 5, azimuthDegrees: 300))
        fix.satellites = satellites
        var json = JSONWriter()
        GPSDReports.writeSKY(fix, device: "/dev/ttyACM0", into: &json)
        #expect(
            json.string == """
                {"class":"SKY","device":"/dev/ttyACM0","hdop":0.90,"pdop":1.60,"nSat":2,"uSat":1,"satellites":[\
                {"PRN":5,"el":40.0,"az":120.0,"ss":38.0,"used":true,"gnssid":0,"svid":5},\
                {"PRN":311,"el":5.0,"az":300.0,"used":false,"gnssid":2,"svid":11}]}
                """)
    }

    /// Issue 25: `ss` keeps the decimals the receiver sent (gpsd itself reads an NMEA SNR with `atoi` and would write
    /// 24.0), with at least one as gpsd writes it; a whole SNR is written as gpsd writes it.
    @Test func skyKeepsTheDecimalsOfAnSNR() {
        var fix = sampleFix()
        var satellites = FixedList<64, SatelliteInView>()
        for (prn, snr) in [
            (5, SignalToNoise(hundredths: 2450)), (7, SignalToNoise(hundredths: 3925)), (9, 0), (12, 41),
        ] {
            satellites.append(
                SatelliteInView(system: .gps, prn: UInt16(prn), elevationDegrees: 40, azimuthDegrees: 120, snr: snr))
        }
        fix.satellites = satellites
        var json = JSONWriter()
        GPSDReports.writeSKY(fix, device: "", into: &json)
        #expect(
            json.string == """
                {"class":"SKY","nSat":4,"uSat":0,"satellites":[\
                {"PRN":5,"el":40.0,"az":120.0,"ss":24.5,"used":false,"gnssid":0,"svid":5},\
                {"PRN":7,"el":40.0,"az":120.0,"ss":39.25,"used":false,"gnssid":0,"svid":7},\
                {"PRN":9,"el":40.0,"az":120.0,"ss":0.0,"used":false,"gnssid":0,"svid":9},\
                {"PRN":12,"el":40.0,"az":120.0,"ss":41.0,"used":false,"gnssid":0,"svid":12}]}
                """)
    }

    @Test func timesAreISO8601WithMilliseconds() {
        var text = ""
        GPSDReports.writeISO8601(nanosecondsSinceEpoch: 1_796_025_601_987_654_321) {
            text.unicodeScalars.append(.init($0))
        }
        #expect(text == "2026-11-30T08:00:01.987Z")
        text = ""
        GPSDReports.writeISO8601(nanosecondsSinceEpoch: 0) { text.unicodeScalars.append(.init($0)) }
        #expect(text == "1970-01-01T00:00:00.000Z")
    }

    @Test func theServerListensOnIPv6LoopbackToo() throws {
        let pipeline = ReceiverPipeline(configuration: .positionAtOnce)
        let server = GPSDServer(pipeline: pipeline, listen: ListenAddress(host: "::1", port: 0))
        do {
            try server.start()
        } catch {
            // A machine without IPv6 cannot bind ::1; that is the only acceptable failure.
            #expect(error.operation == "bind" || error.operation == "resolve" || error.operation == "socket")
            return
        }
        defer { server.stop() }
        #expect(server.boundAddress?.host == "::1")
        #expect((server.boundAddress?.port ?? 0) > 0)
        // A port in use is an error thrown by start(), not a crash.
        let second = GPSDServer(pipeline: pipeline, listen: server.boundAddress!)
        #expect(throws: ListenError.self) { try second.start() }
    }
}
