import Foundation
import Glibc
import System
import TestSupport
import Testing

/// `nmea watch` run as a person would: in a tmux window of a fixed size, on fixed NMEA from `nmea simulate`, the
/// screen compared cell for cell; keys, signals and resizes through tmux; plain lines when piped; gpsd JSON from a
/// stand-in server and from a real gpsd fed by gpsfake; errors and their exit statuses.
@Suite(.serialized) struct WatchCommandTests {
    static let places = ToolSupport.repository.appendingPathComponent("Resources/places.bin").path

    /// A directory with `drive.nmea`: 5 s of the simulated multi-GNSS drive through Munich (28 satellites).
    static func drive(seconds: Int = 5, _ name: String = #function) throws -> URL {
        let directory = ToolSupport.temporaryDirectory(name)
        let file = directory.appendingPathComponent("drive.nmea").path
        let made = try ToolSupport.nmea(["simulate", "--duration", "\(seconds)", "-o", file])
        #expect(made.status == 0)
        return directory
    }

    /// The shell command for a tmux window: the terminal's modes saved before, `nmea watch …` run in the
    /// foreground, then its exit status and the modes after written down, and the window kept open.
    static func paneCommand(_ directory: URL, _ watch: String, locale: String = "C.UTF-8", input: String? = nil)
        -> String
    {
        let path = directory.path
        return "cd \(shellQuoted(path)); stty -a > before.txt; " + (input.map { $0 + " | " } ?? "")
            + "env LC_ALL=\(locale) NMEA_PLACES=\(shellQuoted(places)) XDG_CACHE_HOME=\(shellQuoted(path + "/cache")) "
            + "\(watch); echo \"exit $?\"; stty -a > after.txt; exec tail -f /dev/null"  // the window stays
    }

    static var nmea: String { shellQuoted(ToolSupport.nmea) }

    /// After `nmea watch` has quit: the shell's screen back (nothing of the view on it) with the exit line, the
    /// cursor shown, and the terminal's modes exactly as before (`stty -a`, its size line aside).
    static func expectRestored(
        _ window: TmuxWindow, _ directory: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let screen = window.waitForScreen(timeout: 10) { $0.contains { $0.hasPrefix("exit ") } } ?? []
        #expect(
            screen.contains { $0.trimmingCharacters(in: .whitespaces) == "exit 0" }, "\(screen)",
            sourceLocation: sourceLocation)
        #expect(
            !screen.contains { $0.contains("nmea watch ·") || $0.contains("┌") || $0.contains("│") },
            "\(screen)", sourceLocation: sourceLocation)
        #expect(window.display("#{alternate_on} #{cursor_flag}") == "0 1", sourceLocation: sourceLocation)
        func modes(_ name: String) -> String? {
            waitFor(timeout: .seconds(5)) {
                guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8),
                    text.contains("\n")
                else { return nil }
                return text.split(separator: "\n").dropFirst().joined(separator: "\n")
            }
        }
        let before = modes("before.txt")
        let after = modes("after.txt")
        #expect(before != nil && before == after, "terminal modes changed", sourceLocation: sourceLocation)
        #expect(
            after?.contains(" icanon ") == true && after?.contains(" echo ") == true, sourceLocation: sourceLocation)
    }

    /// Waits for the window to show `expected`; on a timeout records the screen it showed last.
    static func expectScreen(
        _ window: TmuxWindow, _ expected: [String], timeout: Double = 15,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if window.waitForScreen(timeout: timeout, { $0 == expected }) != nil { return }
        let shown = window.capture()
        let listing = shown.map { "\"\($0)\"," }.joined(separator: "\n")
        Issue.record("the screen is not as expected:\n\(listing)", sourceLocation: sourceLocation)
    }

    // MARK: The screen

    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func replayEndsOnItsLastFixResizesAndQuits() throws {
        let directory = try Self.drive()
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 100, rows: 30,
            command: Self.paneCommand(
                directory, "\(Self.nmea) watch drive.nmea --speed max"))
        defer { window.stop() }
        Self.expectScreen(
            window,
            [
                " nmea watch · drive.nmea · replay max · 1 Hz                                                 q quit ",
                "┌─ Fix ────────────────────────────────────┐┌─ Satellites ─────────────────────────────────────────┐",
                "│ Fix        3D fix (GPS)                  ││ GPS 10/12 used                                       │",
                "│ Time       2026-11-30 08:00:04.00 UTC    ││ G02 ██████████████▍░ 45 ✓  G18 ████████████▊░░░ 40 ✓ │",
                "│ Latitude    48.137718° N   48°08.2631' N ││ G05 ███████████▉░░░░ 37 ✓  G20 █████████████▌░░ 42 ✓ │",
                "│ Longitude   11.575977° E   11°34.5586' E ││ G07 ██████████████▏░ 44 ✓  G24 ████████▍░░░░░░░ 26 ✓ │",
                "│ Place      Munich, Bavaria, DE           ││ G09 ████████████▌░░░ 39 ✓  G26 █████████▉░░░░░░ 31 ✓ │",
                "│ Speed      45.0 km/h  24.3 kn            ││ G13 █████████▋░░░░░░ 30    G29 █████████████▊░░ 43 ✓ │",
                "│ Course     45.0° NE                      ││ G15 ████████▋░░░░░░░ 27    G30 █████████▉░░░░░░ 31 ✓ │",
                "│ Altitude   520.2 m                       ││ GLONASS 7/8 used                                     │",
                "│ DOP        H 0.50  V 2.60  P 3.20        ││ R01 ███████░░░░░░░░░ 22    R15 ███████████▌░░░░ 36 ✓ │",
                "│ Satellites 24 used of 28 in view         ││ R02 ███████████▌░░░░ 36 ✓  R16 ████████▍░░░░░░░ 26 ✓ │",
                "└──────────────────────────────────────────┘│ R08 ████████████▊░░░ 40 ✓  R17 ██████████████▍░ 45 ✓ │",
                "┌─ Sky ────────────────────────────────────┐│ R09 ██████████▉░░░░░ 34 ✓  R24 ████████████▏░░░ 38 ✓ │",
                "│               ·····N·····                ││ Galileo 3/4 used                                     │",
                "│            ····     G   ····             ││ E03 █████████▎░░░░░░ 29 ✓  E13 █████████████▌░░ 42 ✓ │",
                "│          ···gr   E         ···           ││ E08 ███████▍░░░░░░░░ 23    E26 ██████████▌░░░░░ 33 ✓ │",
                "│         ··     R    R        ··          ││ BeiDou 4/4 used                                      │",
                "│        ··                     ··         ││ C06 ██████████████▏░ 44 ✓  C23 ████████████▏░░░ 38 ✓ │",
                "│        · e  E    G      R      ·         ││ C11 ███████████▉░░░░ 37 ✓  C37 ████████████▌░░░ 39 ✓ │",
                "│        W        E RC GGC       E         ││                                                      │",
                "│        ·     G    G G GR       ·         ││                                                      │",
                "│        ··           R       g ··         ││                                                      │",
                "│         ··                   ··          ││                                                      │",
                "│          ···  G      R     ···           ││                                                      │",
                "│            ····         ····             ││                                                      │",
                "│               ·····S·····                ││                                                      │",
                "│         upper case: used in fix          ││                                                      │",
                "└──────────────────────────────────────────┘└──────────────────────────────────────────────────────┘",
                " end of input · 5 fixes · 0 rejected                                                                ",
            ])
        window.resize(columns: 60, rows: 20)
        Self.expectScreen(
            window,
            [
                " nmea watch · drive.nmea · replay max · 1 Hz         q quit ",
                "┌─ Fix ────────────────────────────────────────────────────┐",
                "│ Fix        3D fix (GPS)                                  │",
                "│ Time       2026-11-30 08:00:04.00 UTC                    │",
                "│ Latitude    48.137718° N   48°08.2631' N                 │",
                "│ Longitude   11.575977° E   11°34.5586' E                 │",
                "│ Place      Munich, Bavaria, DE                           │",
                "│ Speed      45.0 km/h  24.3 kn                            │",
                "│ Course     45.0° NE                                      │",
                "│ Altitude   520.2 m                                       │",
                "│ DOP        H 0.50  V 2.60  P 3.20                        │",
                "│ Satellites 24 used of 28 in view                         │",
                "└──────────────────────────────────────────────────────────┘",
                "┌─ Satellites ─────────────────────────────────────────────┐",
                "│ GPS 10/12 used                                           │",
                "│ G02 ███████▎ 45 ✓  G13 ████▊░░░ 30    G24 ████▏░░░ 26 ✓  │",
                "│ G05 █████▉░░ 37 ✓  G15 ████▍░░░ 27    G26 █████░░░ 31 ✓  │",
                "│ +22 more                                                 │",
                "└──────────────────────────────────────────────────────────┘",
                " end of input · 5 fixes · 0 rejected                        ",
            ])
        window.sendKeys("q")
        Self.expectRestored(window, directory)
    }

    /// Standard input as the source (keys come from /dev/tty), a C locale (ASCII), Ctrl-C to quit.
    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func standardInputInTheCLocaleThenCtrlC() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 80, rows: 24,
            command: Self.paneCommand(
                directory, "\(Self.nmea) watch - --speed max --no-places", locale: "C",
                input: "\(Self.nmea) simulate --duration 3 --profile gps --lat=-33.8568 --lon=151.2153 --seed 7"))
        defer { window.stop() }
        Self.expectScreen(
            window,
            [
                " nmea watch | standard input | replay max | 1 Hz                         q quit ",
                "+- Fix ------------------------------------++- Satellites ---------------------+",
                "| Fix        3D fix (GPS)                  || GPS 10/12 used                   |",
                "| Time       2026-11-30 08:00:02.00 UTC    || G02 ##################.. 45 *    |",
                "| Latitude    33.856641 S   33 51.3985' S  || G05 #################... 42 *    |",
                "| Longitude  151.215492 E  151 12.9295' E  || G07 ################.... 39 *    |",
                "| Place      - (off)                       || G09 ################.... 39 *    |",
                "| Speed      45.0 km/h  24.3 kn            || G13 ############........ 29      |",
                "| Course     45.0 NE                       || G15 ##########.......... 25      |",
                "| Altitude   520.1 m                       || G18 ################.... 40 *    |",
                "| DOP        H 0.80  V 1.04  P 1.28        || G20 ################.... 39 *    |",
                "| Satellites 10 used of 12 in view         || G24 ##########.......... 25 *    |",
                "+------------------------------------------+| G26 ###########......... 28 *    |",
                "+- Sky ------------------------------------+| G29 ###############..... 37 *    |",
                "|                 ...N...                  || G30 ##############...... 34 *    |",
                "|               ..g   G ...                ||                                  |",
                "|              ..   G     ..               ||                                  |",
                "|              W  G G+GG   E               ||                                  |",
                "|              ..    G G g..               ||                                  |",
                "|               ...G    ...                ||                                  |",
                "|                 ...S...                  ||                                  |",
                "|         upper case: used in fix          ||                                  |",
                "+------------------------------------------++----------------------------------+",
                " end of input | 3 fixes | 0 rejected                                            ",
            ])
        window.sendKeys("C-c")
        Self.expectRestored(window, directory)
    }

    /// SIGTERM in the middle of a paced replay: the terminal comes back as it was, exit status 0.
    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func sigtermRestoresTheTerminal() throws {
        let directory = try Self.drive(seconds: 600)
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 80, rows: 24,
            command: Self.paneCommand(
                directory, "\(Self.nmea) watch drive.nmea --no-places"))
        defer { window.stop() }
        let playing = window.waitForScreen {
            $0.count == 24 && $0[23].hasPrefix(" replaying · ") && $0[2].contains("3D")
        }
        #expect(playing?[2].hasPrefix("│ Fix        3D fix (GPS) · ") == true)
        #expect(playing?[0].hasPrefix(" nmea watch · drive.nmea · replay 1×") == true)
        guard let child = window.foregroundChild() else {
            Issue.record("no nmea process in the window")
            return
        }
        kill(child, SIGTERM)
        Self.expectRestored(window, directory)
    }

    /// A receiver that cannot be used ends the view: the terminal is restored, then the error, exit status 1.
    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func aReceiverThatCannotBeReadEndsTheScreenWithItsError() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 80, rows: 24, command: Self.paneCommand(directory, "\(Self.nmea) watch /dev/zero --no-places"))
        defer { window.stop() }
        let screen = window.waitForScreen { $0.contains { $0.hasPrefix("exit ") } } ?? window.capture()
        #expect(
            Array(screen.prefix(2)).map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Error: '/dev/zero' is not a serial device (not a terminal).", "exit 1",
            ])
        #expect(window.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    // MARK: Plain lines

    @Test func pipedOutputIsOneLinePerFix() throws {
        let directory = try Self.drive()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("drive.nmea").path
        let environment = [
            "NMEA_PLACES": Self.places, "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
        ]
        let expected = [
            "2026-11-30T08:00:00.00Z 3D 48.137400 N 11.575500 E 45.0 km/h course 45.0 alt 520.0 m 24/28 sats HDOP 0.50",
            "2026-11-30T08:00:01.00Z 3D 48.137480 N 11.575619 E 45.0 km/h course 45.0 alt 520.0 m 24/28 sats HDOP 0.50",
            "2026-11-30T08:00:02.00Z 3D 48.137559 N 11.575738 E 45.0 km/h course 45.0 alt 520.1 m 24/28 sats HDOP 0.50",
            "2026-11-30T08:00:03.00Z 3D 48.137639 N 11.575857 E 45.0 km/h course 45.0 alt 520.1 m 24/28 sats HDOP 0.50",
            "2026-11-30T08:00:04.00Z 3D 48.137718 N 11.575977 E 45.0 km/h course 45.0 alt 520.2 m 24/28 sats HDOP 0.50",
        ]
        let named = try ToolSupport.run(ToolSupport.nmea, ["watch", file, "--speed", "max"], environment: environment)
        #expect(named.status == 0)
        #expect(named.text == expected.map { $0 + " Munich, Bavaria, DE\n" }.joined())
        // Standard input, no places; paced at 4× the recorded second: four waits of a quarter second.
        let input = try Data(contentsOf: URL(fileURLWithPath: file))
        let started = Date()
        let paced = try ToolSupport.run(
            ToolSupport.nmea, ["watch", "-", "--speed", "4", "--no-places"], input: input,
            environment: environment)
        let elapsed = Date().timeIntervalSince(started)
        #expect(paced.status == 0 && paced.error == "")
        #expect(paced.text == expected.map { $0 + "\n" }.joined())
        #expect(elapsed > 0.9 && elapsed < 4, "took \(elapsed) s")
    }

    // MARK: gpsd

    /// gpsd's reports for three DGPS fixes in Sydney, four satellites in three systems.
    static func gpsdReports() -> [String] {
        var lines = [
            #"{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyFAKE0","driver":"u-blox","#
                + #""bps":38400,"cycle":1.00}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false}"#,
            #"{"class":"SKY","device":"/dev/ttyFAKE0","hdop":0.90,"vdop":1.40,"pdop":1.70,"nSat":4,"uSat":3,"#
                + #""satellites":[{"PRN":5,"el":62.0,"az":40.0,"ss":47.0,"used":true,"gnssid":0,"svid":5},"#
                + #"{"PRN":12,"el":8.0,"az":300.0,"ss":0.0,"used":false,"gnssid":0,"svid":12},"#
                + #"{"PRN":72,"el":45.0,"az":270.0,"ss":33.0,"used":true,"gnssid":6,"svid":8},"#
                + #"{"PRN":311,"el":85.0,"az":10.0,"ss":50.0,"used":true,"gnssid":2,"svid":11}]}"#,
        ]
        for second in 0..<3 {
            lines.append(
                #"{"class":"TPV","device":"/dev/ttyFAKE0","mode":3,"status":2,"#
                    + #""time":"2026-11-30T08:15:4\#(second).000Z","lat":-33.85678\#(second + 2),"lon":151.215297,"#
                    + #""altMSL":58.3,"speed":13.8889,"track":271.5,"eph":1.2}"#)
        }
        return lines
    }

    @Test func gpsdStandInAsPlainLines() throws {
        let server = try FakeGpsd(lines: Self.gpsdReports())
        defer { server.stop() }
        let watch = try ChildProcess(
            [ToolSupport.nmea, "watch", "--connect", "127.0.0.1:\(server.port)", "--no-places"],
            newProcessGroup: true)
        #expect(waitUntil(timeout: .seconds(15)) { watch.outputLines.count >= 3 })
        #expect(watch.stop(SIGTERM, timeout: .seconds(10)) == 0)
        #expect(server.received == "?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(
            watch.outputLines == [
                "2026-11-30T08:15:40.000Z 3D DGPS 33.856782 S 151.215297 E 50.0 km/h course 271.5 alt 58.3 m 3/4 sats HDOP 0.90",
                "2026-11-30T08:15:41.000Z 3D DGPS 33.856783 S 151.215297 E 50.0 km/h course 271.5 alt 58.3 m 3/4 sats HDOP 0.90",
                "2026-11-30T08:15:42.000Z 3D DGPS 33.856784 S 151.215297 E 50.0 km/h course 271.5 alt 58.3 m 3/4 sats HDOP 0.90",
            ])
        #expect(watch.error == "nmea watch: stopping (SIGTERM)\n")
    }

    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func gpsdStandInOnScreen() throws {
        let server = try FakeGpsd(lines: Self.gpsdReports())
        defer { server.stop() }
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 80, rows: 24,
            command: Self.paneCommand(
                directory, "\(Self.nmea) watch --connect 127.0.0.1:\(server.port) --no-places"))
        defer { window.stop() }
        // The fix's age ticks and the port is the stand-in's: both are replaced before comparing.
        func normalized(_ screen: [String]) -> [String] {
            screen.map {
                $0.replacingOccurrences(of: ":\(server.port) ", with: ":PORT ")
                    .replacingOccurrences(
                        of: #"· [0-9.]+ (s|min) ago +"#, with: "· AGE ago", options: .regularExpression)
            }
        }
        let expected: [String] = [
            " nmea watch · gpsd 127.0.0.1:PORT · /dev/ttyFAKE0 · 38400 baud · 1 Hz   q quit ",
            "┌─ Fix ────────────────────────────────────┐┌─ Satellites ─────────────────────┐",
            "│ Fix        3D fix (DGPS) · AGE ago││ GPS 1/2 used                     │",
            "│ Time       2026-11-30 08:15:42.000 UTC   ││ G05 ██████████████████▊░ 47 ✓    │",
            "│ Latitude    33.856784° S   33°51.4070' S ││ G12 ░░░░░░░░░░░░░░░░░░░░ --      │",
            "│ Longitude  151.215297° E  151°12.9178' E ││ GLONASS 1/1 used                 │",
            "│ Place      - (off)                       ││ R08 █████████████▎░░░░░░ 33 ✓    │",
            "│ Speed      50.0 km/h  27.0 kn            ││ Galileo 1/1 used                 │",
            "│ Course     271.5° W                      ││ E11 ████████████████████ 50 ✓    │",
            "│ Altitude   58.3 m                        ││                                  │",
            "│ DOP        H 0.90  V 1.40  P 1.70        ││                                  │",
            "│ Satellites 3 used of 4 in view           ││                                  │",
            "└──────────────────────────────────────────┘│                                  │",
            "┌─ Sky ────────────────────────────────────┐│                                  │",
            "│                 ···N···                  ││                                  │",
            "│               ···     ···                ││                                  │",
            "│              ·g     G   ··               ││                                  │",
            "│              W  R  E     E               ││                                  │",
            "│              ··         ··               ││                                  │",
            "│               ···     ···                ││                                  │",
            "│                 ···S···                  ││                                  │",
            "│         upper case: used in fix          ││                                  │",
            "└──────────────────────────────────────────┘└──────────────────────────────────┘",
            " connected · 3 fixes                                                            ",
        ]
        let screen = window.waitForScreen { normalized($0) == expected }
        if screen == nil {
            let listing = normalized(window.capture()).map { "\"\($0)\"," }.joined(separator: "\n")
            Issue.record("the screen is not as expected:\n\(listing)")
        }
        window.sendKeys("q")
        Self.expectRestored(window, directory)
    }

    /// A real gpsd, started by gpsfake on a pty with the simulated drive: the fixes it reports have the positions,
    /// speeds, courses and altitudes of the same log replayed directly.
    @Test(
        .enabled(
            if: Tools.which("gpsfake") != nil && FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd"),
            "needs gpsd and gpsfake (Debian gpsd, gpsd-clients; scripts/test installs them)"))
    func realGpsdFedByGpsfake() throws {
        let directory = try Self.drive(seconds: 20)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("drive.nmea").path
        let direct = try ToolSupport.nmea(["watch", file, "--speed", "max", "--no-places"])
        #expect(direct.status == 0)
        // A free port: bound, read, released.
        let probe = try FakeGpsd(lines: [])
        let port = probe.port
        probe.stop()
        // gpsfake in a process group of its own, so the gpsd it starts goes with it.
        let gpsfake = try ChildProcess(
            ["gpsfake", "-1", "-q", "-P", "\(port)", "-c", "0.02", file], newProcessGroup: true)
        defer { _ = gpsfake.stop(SIGTERM, timeout: .seconds(10)) }
        // gpsd listens (seen without connecting to it): watch's connection is not refused.
        guard waitUntil(timeout: .seconds(10), { Ports.hasListener(port) || !gpsfake.isRunning }), gpsfake.isRunning
        else {
            Issue.record("gpsd did not start: \(gpsfake.error)")
            return
        }
        let watch = try ChildProcess(
            [ToolSupport.nmea, "watch", "--connect", "127.0.0.1:\(port)", "--no-places"], newProcessGroup: true)
        // From "3D" to the altitude: gpsd's satellite counts and DOPs differ from the assembler's by design. (gpsd
        // also reports 3D fixes without a time, or before the epoch's GGA has given one an altitude: such lines are
        // not compared.)
        func motion(_ line: Substring) -> (time: String, values: String)? {
            guard !line.hasPrefix("- "), let start = line.range(of: " 3D "),
                let end = line.range(of: " m ", range: start.upperBound..<line.endIndex)
            else { return nil }
            return (String(line.prefix(19)), String(line[start.lowerBound..<end.upperBound]))
        }
        #expect(waitUntil(timeout: .seconds(20)) { watch.outputLines.compactMap { motion(Substring($0)) }.count >= 4 })
        #expect(watch.stop(SIGTERM, timeout: .seconds(10)) == 0)
        let expected = Dictionary(direct.text.split(separator: "\n").compactMap(motion).map { ($0.time, $0.values) }) {
            a, _ in a
        }
        let reported = watch.outputLines.compactMap { motion(Substring($0)) }
        #expect(reported.count >= 4, "\(watch.output)")
        for fix in reported {
            #expect(expected[fix.time] == fix.values, "gpsd at \(fix.time): \(fix.values)")
        }
    }

    // MARK: Errors

    @Test func errorsAndTheirStatuses() throws {
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let outcome = try ToolSupport.nmea(["watch"] + arguments)
            #expect(outcome.text == "")
            return (outcome.status, outcome.error.split(separator: "\n").first.map(String.init) ?? "")
        }
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unreadable = directory.appendingPathComponent("secret.nmea").path
        _ = FileManager.default.createFile(
            atPath: unreadable, contents: Data("$GPGGA\n".utf8),
            attributes: [.posixPermissions: 0o000])
        #expect(
            try run(["/nonexistent/track.nmea"])
                == (1, "Error: cannot open '/nonexistent/track.nmea': No such file or directory"))
        #expect(try run([directory.path]) == (1, "Error: cannot replay '\(directory.path)': it is a directory"))
        #expect(try run(["/dev/zero"]) == (1, "Error: '/dev/zero' is not a serial device (not a terminal)."))
        if getuid() != 0 {  // root reads anything
            #expect(try run([unreadable]) == (1, "Error: cannot open '\(unreadable)': Permission denied"))
        }
        let refused = try FakeGpsd(lines: [])
        let port = refused.port
        refused.stop()
        #expect(
            try run(["--connect", "127.0.0.1:\(port)"])
                == (1, "Error: cannot connect to gpsd at 127.0.0.1:\(port): Connection refused"))
        #expect(
            try run(["--speed", "fast", "x.nmea"]) == (
                64,
                "Error: The value 'fast' is invalid for '--speed <factor|max>': expected a factor from 0.01 to 1000000, "
                    + "or 'max'"
            ))
        #expect(try run(["--speed", "0", "-"]).0 == 64)
        #expect(try run(["--connect", "host:99999"]).0 == 64)
        #expect(try run(["--connect", "::1"]).0 == 64)
        #expect(
            try run(["x.nmea", "--connect", "localhost"])
                == (64, "Error: Give a source or --connect, not both (got 'x.nmea')"))
        #expect(try run(["-", "--baud", "9600"]) == (64, "Error: --baud is for a receiver on a serial port"))
        #expect(
            try run(["--connect", "localhost", "--speed", "2"])
                == (64, "Error: --speed is for replaying a file or standard input, not gpsd"))
        #expect(try run(["--baud", "1234", "-"]).0 == 64)
        #expect(try run(["--frobnicate"]) == (64, "Error: Unknown option '--frobnicate'"))
        #expect(try run(["a.nmea", "b.nmea"]) == (64, "Error: Unexpected argument 'b.nmea'"))
    }
}
