import Glibc
import NMEA
import SerialPort
import System
import Testing
import TestSupport
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

        init() throws {
            let unit = try #require(NTPSharedMemory.firstFreeUnit(), "no free NTP SHM unit")
            chrony = try ChronyServer(sharedMemoryUnit: unit)
            pty = try PseudoTerminal.open()
            serve = try ChildProcess([
                BuiltExecutables.nmea, "serve", pty.slavePath, "--listen", "127.0.0.1:0", "--baud", "9600",
                "--chrony", chrony.socketPath, "--ntp-shm", String(unit),
            ])
        }

        /// Stops everything; returns serve's standard error (its summary).
        func stop() -> String {
            #expect(serve.stop(SIGTERM, timeout: .seconds(10)) == 0)
            pty.close()
            chrony.stop()
            NTPSharedMemory.remove(unit: chrony.sharedMemoryUnit)
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
        #expect(sock.reach.nonzeroBitCount >= 8, "reach \(String(sock.reach, radix: 8)); \(summary)")
        #expect(memory.reach.nonzeroBitCount >= 8, "reach \(String(memory.reach, radix: 8)); \(summary)")
        #expect(abs(sock.offsetSeconds - 0.050) <= 0.010, "SOCK offset \(sock.offsetSeconds)")
        #expect(abs(memory.offsetSeconds - 0.050) <= 0.010, "SHM offset \(memory.offsetSeconds)")
        #expect(summary.contains("refused: none") || summary.contains("provisional"), "\(summary)")
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
