import NMEA
import Presentation
import Testing
import Watch

/// The screen as a pure function of state and size: exact lines for the fixed state at a roomy and a tiny size,
/// in Unicode and ASCII, and every size from 1 × 1 up drawing exactly its cells.
@Suite struct WatchScreenTests {
    @Test func twoColumnsAt100By30() {
        let lines = WatchScreen.render(Fixtures.state, columns: 100, rows: 30, glyphs: .unicode).lines
        #expect(
            lines == [
                " nmea watch · /dev/ttyACM0 · 9600 baud · 1 Hz                                                q quit ",
                "┌─ Fix ────────────────────────────────────┐┌─ Satellites ─────────────────────────────────────────┐",
                "│ Fix        3D fix (DGPS) · 0.4 s ago     ││ GPS 2/4 used                                         │",
                "│ Time       2026-11-30 08:15:42 UTC       ││ G05 ██████████████████▊░ 47 ✓                        │",
                "│ Latitude    33.856784° S   33°51.4070' S ││ G12 ░░░░░░░░░░░░░░░░░░░░ --                          │",
                "│ Longitude  151.215297° E  151°12.9178' E ││ G25 ███████████████▎░░░░ 38 ✓                        │",
                "│ Place      Sydney, New South Wales, AU   ││ G29 ████████▍░░░░░░░░░░░ 21                          │",
                "│ Speed      50.0 km/h  27.0 kn            ││ GLONASS 1/1 used                                     │",
                "│ Course     271.5° W                      ││ R06 █████████████▎░░░░░░ 33 ✓                        │",
                "│ Altitude   58.3 m                        ││ Galileo 1/2 used                                     │",
                "│ DOP        H 0.90  V 1.40  P 1.70        ││ E04 ████▊░░░░░░░░░░░░░░░ 12                          │",
                "│ Satellites 5 used of 8 in view           ││ E11 ████████████████████ 50 ✓                        │",
                "└──────────────────────────────────────────┘│ QZSS 1/1 used                                        │",
                "┌─ Sky ────────────────────────────────────┐│ J01 ████████████████▍░░░ 41 ✓                        │",
                "│               ·····N·····                ││                                                      │",
                "│            ····         ····             ││                                                      │",
                "│          ···               ···           ││                                                      │",
                "│         ··g                  ··          ││                                                      │",
                "│        ··                     ··         ││                                                      │",
                "│        ·             G         ·         ││                                                      │",
                "│        W     R     E           E         ││                                                      │",
                "│        ·           J           ·         ││                                                      │",
                "│        ··                     ··         ││                                                      │",
                "│         ··  g           G    ··          ││                                                      │",
                "│          ···               ···           ││                                                      │",
                "│            ····         ····             ││                                                      │",
                "│               ·····S·····                ││                                                      │",
                "│         upper case: used in fix          ││                                                      │",
                "└──────────────────────────────────────────┘└──────────────────────────────────────────────────────┘",
                " connected · 1234 fixes · 2 rejected                                                                ",
            ])
    }

    /// 40 × 10: no room for a panel: the fix's most important lines, degrees-minutes dropped, the header cut.
    @Test func tinyTerminalDropsThePanels() {
        let canvas = WatchScreen.render(Fixtures.state, columns: 40, rows: 10, glyphs: .unicode)
        #expect(
            canvas.lines == [
                " nmea watch · /dev/ttyACM0 · 96… q quit ",
                " Fix        3D fix (DGPS) · 0.4 s ago   ",
                " Time       2026-11-30 08:15:42 UTC     ",
                " Latitude    33.856784° S               ",
                " Longitude  151.215297° E               ",
                " Place      Sydney, New South Wales, AU ",
                " Speed      50.0 km/h  27.0 kn          ",
                " Course     271.5° W                    ",
                " Altitude   58.3 m                      ",
                " connected · 1234 fixes · 2 rejected    ",
            ])
        #expect(canvas.inverseRows == [0, 9])
    }

    /// 60 × 20: the panels stack; the satellites that do not fit are counted.
    @Test func narrowTerminalStacksPanels() {
        let lines = WatchScreen.render(Fixtures.state, columns: 60, rows: 20, glyphs: .unicode).lines
        #expect(
            Array(lines[12...]) == [
                "└──────────────────────────────────────────────────────────┘",
                "┌─ Satellites ─────────────────────────────────────────────┐",
                "│ GPS 2/4 used                                             │",
                "│ G05 ███████▌ 47 ✓  G25 ██████▏░ 38 ✓                     │",
                "│ G12 ░░░░░░░░ --    G29 ███▍░░░░ 21                       │",
                "│ +4 more                                                  │",
                "└──────────────────────────────────────────────────────────┘",
                " connected · 1234 fixes · 2 rejected                        ",
            ])
    }

    @Test func asciiAt80By24() {
        let lines = WatchScreen.render(Fixtures.state, columns: 80, rows: 24, glyphs: .ascii).lines
        #expect(
            lines == [
                " nmea watch | /dev/ttyACM0 | 9600 baud | 1 Hz                            q quit ",
                "+- Fix ------------------------------------++- Satellites ---------------------+",
                "| Fix        3D fix (DGPS) | 0.4 s ago     || GPS 2/4 used                     |",
                "| Time       2026-11-30 08:15:42 UTC       || G05 ###################. 47 *    |",
                "| Latitude    33.856784 S   33 51.4070' S  || G12 .................... --      |",
                "| Longitude  151.215297 E  151 12.9178' E  || G25 ###############..... 38 *    |",
                "| Place      Sydney, New South Wales, AU   || G29 ########............ 21      |",
                "| Speed      50.0 km/h  27.0 kn            || GLONASS 1/1 used                 |",
                "| Course     271.5 W                       || R06 #############....... 33 *    |",
                "| Altitude   58.3 m                        || Galileo 1/2 used                 |",
                "| DOP        H 0.90  V 1.40  P 1.70        || E04 #####............... 12      |",
                "| Satellites 5 used of 8 in view           || E11 #################### 50 *    |",
                "+------------------------------------------+| QZSS 1/1 used                    |",
                "+- Sky ------------------------------------+| J01 ################.... 41 *    |",
                "|                 ...N...                  ||                                  |",
                "|               ...     ...                ||                                  |",
                "|              .g     G   ..               ||                                  |",
                "|              W  R  E     E               ||                                  |",
                "|              ..    J  G ..               ||                                  |",
                "|               ..g     ...                ||                                  |",
                "|                 ...S...                  ||                                  |",
                "|         upper case: used in fix          ||                                  |",
                "+------------------------------------------++----------------------------------+",
                " connected | 1234 fixes | 2 rejected                                            ",
            ])
    }

    @Test func waitingForTheFirstFix() {
        var state = WatchState(source: .replay(name: "-", speed: 2.5), status: "replaying")
        state.placeNote = "no place file"
        #expect(
            WatchScreen.render(state, columns: 50, rows: 14, glyphs: .unicode).lines == [
                " nmea watch · standard input · replay 2.5× q quit ",
                "┌─ Fix ──────────────────────────────────────────┐",
                "│ Fix        waiting for data                    │",
                "│ Time       -                                   │",
                "│ Latitude   -                                   │",
                "│ Longitude  -                                   │",
                "│ Place      - (no place file)                   │",
                "│ Speed      -                                   │",
                "│ Course     -                                   │",
                "│ Altitude   -                                   │",
                "│ DOP        -                                   │",
                "│ Satellites -                                   │",
                "└────────────────────────────────────────────────┘",
                " replaying · 0 fixes                              ",
            ])
    }

    @Test func endedInputShowsNoAge() {
        var state = Fixtures.state
        state.fixAgeSeconds = nil
        let fields = WatchScreen.fixFields(state, valueWidth: 29, glyphs: .unicode)
        #expect(fields[0].value == "3D fix (DGPS)")
        var noFix = Fixtures.fix
        noFix.mode = .none
        state.fix = noFix
        let withoutPosition = WatchScreen.fixFields(state, valueWidth: 29, glyphs: .unicode)
        #expect(withoutPosition[0].value == "no fix")
        #expect(withoutPosition[2].value == "-" && withoutPosition[3].value == "-")
    }

    @Test func headerNamesEachKindOfSource() {
        var state = WatchState(
            source: .gpsd(host: "::1", port: 2947), device: "/dev/ttyUSB0", baudRate: 4800,
            fixRateHz: 5)
        #expect(WatchScreen.sourceText(state, glyphs: .unicode) == "gpsd [::1]:2947 · /dev/ttyUSB0 · 4800 baud · 5 Hz")
        state = WatchState(source: .replay(name: "day.nmea", speed: nil), fixRateHz: 0.5)
        #expect(WatchScreen.sourceText(state, glyphs: .ascii) == "day.nmea | replay max | 0.5 Hz")
        state = WatchState(source: .device("auto"))
        #expect(WatchScreen.sourceText(state, glyphs: .unicode) == "auto")
        state.fixCount = 1
        #expect(WatchScreen.footerText(state, glyphs: .unicode) == "1 fix")
    }

    /// Sizes from 1 × 1 to 130 × 45 (and every layout's edges) draw exactly their cells, with or without a fix, in
    /// both glyph sets.
    @Test func everySizeDrawsExactlyItsCells() {
        let states = [Fixtures.state, WatchState(source: .device("auto"))]
        for glyphs in [Glyphs.unicode, .ascii] {
            for columns in Array(stride(from: 1, through: 130, by: 9)) + [43, 44, 45, 73, 74, 75] {
                for rows in Array(stride(from: 1, through: 45, by: 4)) + [2, 3, 13, 14, 15, 21, 22] {
                    for state in states {
                        let canvas = WatchScreen.render(state, columns: columns, rows: rows, glyphs: glyphs)
                        #expect(canvas.lines.count == rows)
                        for line in canvas.lines where Canvas.width(of: line) != columns {
                            Issue.record("\(columns)×\(rows): a line is \(Canvas.width(of: line)) cells: \(line)")
                        }
                    }
                }
            }
        }
    }

    /// Many satellites in a short panel: as many columns as fit, and the rest counted.
    @Test func satellitesThatDoNotFitAreCounted() {
        var fix = Fix()
        for prn in 1...40 {
            _ = fix.satellites.append(
                SatelliteInView(
                    system: prn <= 20 ? .gps : .glonass, prn: UInt16(prn),
                    elevationDegrees: 30, azimuthDegrees: UInt16(prn * 9),
                    snr: SignalToNoise(UInt8(prn)), isUsed: prn.isMultiple(of: 2)))
        }
        let state = WatchState(source: .device("auto"), fix: fix)
        let lines = WatchScreen.render(state, columns: 80, rows: 16, glyphs: .ascii).lines
        #expect(
            Array(lines[1...14].map { $0.dropFirst(44) }) == [
                "+- Satellites ---------------------+",
                "| GPS 10/20 used                   |",
                "| G01 ......  1    G11 #..... 11   |",
                "| G02 ......  2 *  G12 #..... 12 * |",
                "| G03 ......  3    G13 ##.... 13   |",
                "| G04 ......  4 *  G14 ##.... 14 * |",
                "| G05 #.....  5    G15 ##.... 15   |",
                "| G06 #.....  6 *  G16 ##.... 16 * |",
                "| G07 #.....  7    G17 ##.... 17   |",
                "| G08 #.....  8 *  G18 ##.... 18 * |",
                "| G09 #.....  9    G19 ##.... 19   |",
                "| G10 #..... 10 *  G20 ##.... 20 * |",
                "| +20 more                         |",
                "+----------------------------------+",
            ])
        #expect(lines[11] == "| Satellites 20 used of 40 in view         |" + lines[11].dropFirst(44))
    }

    /// Issue 25: an SNR with decimals is shown with them, its column as wide as the widest; whole ones keep theirs.
    @Test func satellitesWithDecimalSNRs() {
        var fix = Fix()
        for (prn, snr) in [(1, SignalToNoise(hundredths: 2450)), (2, 38), (3, SignalToNoise(5)), (4, nil)] {
            _ = fix.satellites.append(
                SatelliteInView(
                    system: .gps, prn: UInt16(prn), elevationDegrees: 30, azimuthDegrees: 90, snr: snr,
                    isUsed: prn == 2))
        }
        let state = WatchState(source: .device("auto"), fix: fix)
        let lines = WatchScreen.render(state, columns: 80, rows: 16, glyphs: .ascii).lines
        #expect(
            Array(lines[1...8].map { $0.dropFirst(44) }) == [
                "+- Satellites ---------------------+",
                "| GPS 1/4 used                     |",
                "| G01 ##########.......... 24.5    |",
                "| G02 ###############.....   38 *  |",
                "| G03 ##..................    5    |",
                "| G04 ....................   --    |",
                "|                                  |",
                "|                                  |",
            ])
        #expect(WatchScreen.signalBar(SignalToNoise(hundredths: 2450), width: 4, glyphs: .ascii) == "##..")
    }

    @Test func signalBars() {
        #expect(WatchScreen.signalBar(nil, width: 4, glyphs: .unicode) == "░░░░")
        #expect(WatchScreen.signalBar(25, width: 4, glyphs: .unicode) == "██░░")
        #expect(WatchScreen.signalBar(30, width: 4, glyphs: .unicode) == "██▍░")
        #expect(WatchScreen.signalBar(60, width: 4, glyphs: .unicode) == "████")
        #expect(WatchScreen.signalBar(30, width: 4, glyphs: .ascii) == "##..")
        #expect(WatchScreen.signalBar(31, width: 4, glyphs: .ascii) == "##..")
        #expect(WatchScreen.signalBar(32, width: 4, glyphs: .ascii) == "###.")
    }

    /// The sky plot alone: north up, east right, used upper case, the used and stronger one on top.
    @Test func skyPlot() {
        let satellites = [
            SatelliteInView(system: .gps, prn: 1, elevationDegrees: 90, azimuthDegrees: 0, snr: 40, isUsed: true),
            SatelliteInView(system: .glonass, prn: 70, elevationDegrees: 0, azimuthDegrees: 90, snr: 20),
            SatelliteInView(system: .galileo, prn: 3, elevationDegrees: 0, azimuthDegrees: 180, snr: 30),
            SatelliteInView(
                system: .beidou, prn: 3, elevationDegrees: 0, azimuthDegrees: 180, snr: 35,
                isUsed: true),
            SatelliteInView(system: .gps, prn: 2, elevationDegrees: 45, azimuthDegrees: 270, snr: 30),
        ]
        #expect(
            WatchScreen.skyPlot(satellites, height: 5, glyphs: .ascii) == [
                " ...N... ",
                "..     ..",
                "W g G   r",
                "..     ..",
                " ...C... ",
            ])
    }

    /// A wide terminal (200 × 50) gives the fix panel the room a long place name needs, while the satellites keep
    /// the rest; the place is not cut.
    @Test func aWideScreenShowsALongPlaceWhole() {
        var state = Fixtures.state
        state.place = "3 km W of Unterföhring, Bavaria, DE, near the Isar and the motorway"
        let lines = WatchScreen.render(state, columns: 200, rows: 50, glyphs: .unicode).lines
        #expect(lines.contains { $0.contains("Place      " + state.place! + " │") }, "\(lines.prefix(14))")
        let width = WatchScreen.fixWidth(state, columns: 200, glyphs: .unicode)
        #expect(width == 11 + 4 + state.place!.count)
        #expect(lines[1].hasPrefix("┌─ Fix ") && lines[1].dropFirst(width).hasPrefix("┌─ Satellites "))
        // At 100 columns it grows to half the screen only (the place cut there); a short place keeps it at 44.
        #expect(WatchScreen.fixWidth(state, columns: 100, glyphs: .unicode) == 50)
        #expect(WatchScreen.fixWidth(Fixtures.state, columns: 200, glyphs: .unicode) == WatchScreen.fixPanelWidth)
    }

    /// At 80 columns a replay of a file with a long path keeps its speed and rate in the header: the path is
    /// shortened from its start.
    @Test func aLongPathGivesWayToTheSpeedAndTheRate() {
        let path = "/home/someone/recordings/2026/november/the-commute-to-work-and-back-home-again.nmea"
        let state = WatchState(source: .replay(name: path, speed: 10), fixRateHz: 1, status: "replaying")
        let header = WatchScreen.render(state, columns: 80, rows: 24, glyphs: .unicode).lines[0]
        #expect(
            header
                == " nmea watch · …mute-to-work-and-back-home-again.nmea · replay 10× · 1 Hz q quit ",
            "\(header)")
        #expect(Canvas.width(of: header) == 80)
    }
}
