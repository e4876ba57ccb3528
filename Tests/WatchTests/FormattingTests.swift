import NMEA
import Presentation
import Testing
import Watch

@Suite struct FormattingTests {
    @Test func fixedDecimals() {
        #expect(Formatting.fixed(2.5, 0) == "3")
        #expect(Formatting.fixed(-0.04, 1) == "0.0")
        #expect(Formatting.fixed(-1.25, 1) == "-1.3")
        #expect(Formatting.fixed(1234.5678, 3) == "1234.568")
        #expect(Formatting.fixed(0.05, 2) == "0.05")
        #expect(Formatting.fixed(.nan, 2) == "nan")
    }

    @Test func degreesAndMinutes() {
        #expect(Formatting.degreesMinutes(48.1374, positive: "N", negative: "S", glyphs: .unicode) == "48°08.2440' N")
        #expect(Formatting.degreesMinutes(-122.5, positive: "E", negative: "W", glyphs: .unicode) == "122°30.0000' W")
        #expect(
            Formatting.degreesMinutes(-0.999_999_999, positive: "N", negative: "S", glyphs: .unicode)
                == "1°00.0000' S")
        #expect(Formatting.degreesMinutes(5.5, positive: "N", negative: "S", glyphs: .ascii) == "5 30.0000' N")
        #expect(
            Formatting.decimalDegrees(-33.8567844, positive: "N", negative: "S", glyphs: .unicode)
                == "33.856784° S")
    }

    @Test func compassPoints() {
        #expect(Formatting.compassPoint(0) == "N")
        #expect(Formatting.compassPoint(11.2) == "N")
        #expect(Formatting.compassPoint(11.25) == "NNE")
        #expect(Formatting.compassPoint(202.5) == "SSW")
        #expect(Formatting.compassPoint(359) == "N")
        #expect(Formatting.compassPoint(-90) == "W")
    }

    @Test func agesRatesAndSpeeds() {
        #expect(Formatting.age(0.43) == "0.4 s")
        #expect(Formatting.age(9.99) == "9.9 s")
        #expect(Formatting.age(10) == "10 s")
        #expect(Formatting.age(119.9) == "119 s")
        #expect(Formatting.age(120) == "2 min")
        #expect(Formatting.age(7200) == "2 h")
        #expect(Formatting.rate(1) == "1 Hz")
        #expect(Formatting.rate(4.98) == "5 Hz")
        #expect(Formatting.rate(0.5) == "0.5 Hz")
        #expect(Formatting.rate(0.2) == "0.2 Hz")
        #expect(Formatting.speedFactor(1, glyphs: .unicode) == "1×")
        #expect(Formatting.speedFactor(2.5, glyphs: .unicode) == "2.5×")
        #expect(Formatting.speedFactor(0.25, glyphs: .ascii) == "0.25x")
        #expect(Formatting.speedFactor(nil, glyphs: .unicode) == "max")
    }

    @Test func satelliteNames() {
        func name(_ system: GNSSSystem?, _ prn: UInt16) -> String {
            Formatting.satelliteName(SatelliteInView(system: system, prn: prn))
        }
        #expect(name(.gps, 5) == "G05")
        #expect(name(.gps, 33) == "S20" && name(.gps, 131) == "S31")
        #expect(name(.glonass, 65) == "R01" && name(.glonass, 8) == "R08")
        #expect(name(.galileo, 301) == "E01" && name(.galileo, 26) == "E26")
        #expect(name(.beidou, 205) == "C05" && name(.beidou, 437) == "C37" && name(.beidou, 6) == "C06")
        #expect(name(.qzss, 193) == "J01")
        #expect(name(.navic, 3) == "I03")
        #expect(name(nil, 250) == "?250")
        #expect(Formatting.satelliteLetter(SatelliteInView(system: .gps, prn: 40)) == "S")
    }

    @Test func glyphsFollowTheLocale() {
        func glyphs(_ environment: [String: String]) -> Glyphs { Glyphs.forLocale { environment[$0] } }
        #expect(glyphs(["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(glyphs(["LC_CTYPE": "C.utf8", "LANG": "C"]) == .unicode)
        #expect(glyphs(["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(glyphs(["LC_ALL": "", "LANG": "de_DE.UTF-8"]) == .unicode)
        #expect(glyphs([:]) == .ascii)
    }

    @Test func plainLines() {
        #expect(
            PlainLine.format(Fixtures.fix, place: "Sydney, New South Wales, AU")
                == "2026-11-30T08:15:42Z 3D DGPS 33.856784 S 151.215297 E 50.0 km/h course 271.5 alt 58.3 m 5/8 sats "
                + "HDOP 0.90 Sydney, New South Wales, AU")
        var gga = Fix(
            time: UTCTime(hour: 23, minute: 59, second: 59, nanoseconds: 500_000_000, fractionDigits: 1),
            latitude: 1.5, longitude: -0.25, quality: .gps, mode: .twoD)
        gga.satellitesUsed = 4
        #expect(
            PlainLine.format(gga, place: "bad\u{1B}name") == "23:59:59.5Z 2D 1.500000 N 0.250000 W 4/0 sats bad?name")
        #expect(PlainLine.format(Fix(), place: nil) == "- no fix 0/0 sats")
    }

    @Test func fixRate() {
        var meter = FixRateMeter(window: 4)
        #expect(meter.hertz == nil)
        for second in 0..<3 { meter.add(Int64(second) * 1_000_000_000) }
        #expect(meter.hertz == 1)
        for tenth in 30..<40 { meter.add(Int64(tenth) * 100_000_000) }
        #expect(meter.hertz! > 9.999 && meter.hertz! < 10.001)
        meter.add(0)  // back in time: a new file
        #expect(meter.hertz == nil)
    }
}
