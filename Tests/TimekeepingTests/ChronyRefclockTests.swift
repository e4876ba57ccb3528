import Glibc
import NMEA
import SerialPort
import System
import TestSupport
import Testing
import Timekeeping

/// `nmea serve --chrony --ntp-shm` feeding a real chronyd through both refclocks, from NMEA written into a pty at
/// the current time, each epoch's first byte 50 ms after the second it names.
@Suite(
    .serialized,
    .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"),
    .enabled(if: ChronyServer.isAvailable, "chronyd and chronyc are not installed (apt-get install chrony)"),
    .enabled(if: Tools.isRoot, "chronyd runs as root (it binds its refclock socket and SHM as root)"))
struct ChronyRefclockTests {
    /// chronyd, a pty and `nmea serve` reading it into both refclocks.
    final class Rig {
        let chrony: ChronyServer
        let pty: PseudoTerminal
        let serve: ChildProcess
        let directory = TemporaryDirectory("refclock-rig")

        /// `command` is `serve` or `record` (which writes a track beside).
        init(_ command: String = "serve") throws {
            let unit = try #require(NTPSharedMemory.firstFreeUnit(), "no free NTP SHM unit")
            chrony = try ChronyServer(sharedMemoryUnit: unit)
            pty = try PseudoTerminal.open()
            let own =
                command == "serve" ? ["--listen", "127.0.0.1:0"] : ["-o", directory.file("track.gpx")]
            serve = try ChildProcess(
                [BuiltExecutables.nmea, command, pty.slavePath, "--baud", "9600"] + own + [
                    "--chrony", chrony.socketPath, "--ntp-shm", String(unit),
                ])
        }

        /// Stops everything; returns serve's standard error (its summary).
        func stop() -> String {
            #expect(serve.stop(SIGTERM, timeout: .seconds(10)) == 0)
            pty.close()
            chrony.stop()
            NTPSharedMemory.remove(unit: chrony.sharedMemoryUnit)
            directory.remove()
            return serve.error
        }
    }

    @Test("10 live epochs, 50 ms late: both refclocks reachable, offset +50 ms ± 10 ms")
    func liveEpochsReachChrony() throws {
        let rig = try Rig()
        LiveEpochs(kind: .fix).write(13, to: rig.pty)
        let nmea = rig.chrony.source("NMEA")
        let shm = rig.chrony.source("SHM")
        let summary = rig.stop()
        let sock = try #require(nmea, "chronyd lists no NMEA source")
        let memory = try #require(shm, "chronyd lists no SHM source")
        // chronyc prints the system clock less the reference: a first byte 50 ms after the second it names gives
        // a reference 50 ms behind the system clock at receipt, so +50 ms (our sample's own offset is −50 ms).
        #expect(sock.hadASampleEveryPoll, "reach \(String(sock.reach, radix: 8)); \(summary)")
        #expect(memory.hadASampleEveryPoll, "reach \(String(memory.reach, radix: 8)); \(summary)")
        #expect(abs(sock.offsetSeconds - 0.050) <= 0.010, "SOCK offset \(sock.offsetSeconds)")
        #expect(abs(memory.offsetSeconds - 0.050) <= 0.010, "SHM offset \(memory.offsetSeconds)")
        #expect(summary.contains("refused: none") || summary.contains("provisional"), "\(summary)")
    }

    @Test("nmea record --chrony --ntp-shm feeds the same refclocks, +50 ms ± 10 ms")
    func recordFeedsChrony() throws {
        let rig = try Rig("record")
        LiveEpochs(kind: .fix).write(13, to: rig.pty)
        let sources = rig.chrony.sources()
        let summary = rig.stop()
        #expect(sources.count == 2, "\(summary)")
        for source in sources {
            #expect(source.hadASampleEveryPoll, "\(source.name) reach \(String(source.reach, radix: 8))")
            #expect(abs(source.offsetSeconds - 0.050) <= 0.010, "\(source.name) offset \(source.offsetSeconds)")
        }
        #expect(summary.contains("time: "), "\(summary)")
    }

    @Test("A replayed old log sends nothing: reach stays 0, each epoch refused before the build date")
    func oldLogSendsNothing() throws {
        let rig = try Rig()
        LiveEpochs(kind: .daysAgo(3 * 365)).write(8, to: rig.pty)
        let sources = rig.chrony.sources()
        let summary = rig.stop()
        #expect(sources.count == 2)
        for source in sources { #expect(source.reach == 0, "\(source.name) reached; \(summary)") }
        #expect(summary.contains("before build date"), "\(summary)")
        #expect(summary.contains("time: 0 samples"), "\(summary)")
    }

    @Test("A receiver with no fix sends nothing: reach stays 0, each epoch refused as no fix")
    func noFixSendsNothing() throws {
        let rig = try Rig()
        LiveEpochs(kind: .noFix).write(8, to: rig.pty)
        let sources = rig.chrony.sources()
        let summary = rig.stop()
        #expect(sources.count == 2)
        for source in sources { #expect(source.reach == 0, "\(source.name) reached; \(summary)") }
        #expect(summary.contains("no fix"), "\(summary)")
        #expect(summary.contains("time: 0 samples"), "\(summary)")
    }
}

/// `nmea time` on a pty written at the current time, 50 ms late: the offset chronyd shows above.
@Suite(.enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct TimeCommandTests {
    @Test("nmea time --json reports +50 ms ± 10 ms over 8 epochs, date trusted, none refused as no fix")
    func reportsTheOffset() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let time = try ChildProcess([
            BuiltExecutables.nmea, "time", pty.slavePath, "--baud", "9600", "--epochs", "8", "--json", "--timeout",
            "30",
        ])
        LiveEpochs(kind: .fix).write(11, to: pty)
        #expect(time.wait(timeout: .seconds(20)) == 0, "\(time.error)")
        let output = time.output
        let offsetText = try #require(output.split(separator: "\"offset\":").last?.prefix { $0 != "," })
        let offset = try #require(Double(offsetText), "\(output)")
        #expect(abs(offset - 0.050) <= 0.010, "\(output)")
        #expect(output.contains("\"epochs\":8"), "\(output)")
        #expect(output.contains("\"dateTrusted\":true"), "\(output)")
        #expect(output.contains("\"no fix\":0"), "\(output)")
    }

    @Test("nmea time on a stream with no fix exits 1, saying what to check, with each epoch refused as no fix")
    func noFixExitsOne() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let time = try ChildProcess([
            BuiltExecutables.nmea, "time", pty.slavePath, "--baud", "9600", "--timeout", "5",
        ])
        LiveEpochs(kind: .noFix).write(5, to: pty)
        #expect(time.wait(timeout: .seconds(20)) == 1)
        #expect(time.error.contains("no trusted fix"), "\(time.error)")
        #expect(time.output.contains("no fix"), "\(time.output)")
    }

    @Test("nmea time and serve --chrony refuse a file: its times are not now (exit 64)")
    func refusesAFile() throws {
        let directory = TemporaryDirectory("time-file")
        defer { directory.remove() }
        directory.write(LiveEpochs().epoch(second: 1_800_000_000), to: "log.nmea")
        let outcome = try ChildProcess.run([BuiltExecutables.nmea, "time", directory.file("log.nmea")])
        #expect(outcome.status == 64)
        #expect(outcome.error.contains("live receiver"), "\(outcome.error)")
        let serve = try ChildProcess.run([
            BuiltExecutables.nmea, "serve", directory.file("log.nmea"), "--chrony", directory.file("chrony.sock"),
        ])
        #expect(serve.status == 64)
        #expect(serve.error.contains("live receiver"), "\(serve.error)")
    }
}
