import Foundation
import Glibc
import SerialPort
import System
import TestSupport
import Testing

/// `nmea record` as an unattended logger: files named and rotated by the receiver's dates (never the system
/// clock's), one logger per receiver, advice that fits the device's permissions, each error said once.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct RecordLoggerTests {
    static let nmea = BuiltExecutables.nmea

    /// Writes each of `chunks` into `path`, `pause` apart.
    static func feed(_ path: String, _ chunks: [String], pause: Duration) throws {
        let fd = try FileDescriptor.open(path, .writeOnly, options: [.noControllingTerminal, .closeOnExec])
        defer { try? fd.close() }
        for chunk in chunks {
            try fd.writeAll(Array(chunk.utf8))
            sleep(for: pause)  // pacing under test: a receiver sending a chunk every `pause`
        }
    }

    static func points(_ path: String) -> Int {
        (readTextFile(path)).components(separatedBy: "<trkpt ").count - 1
    }

    // MARK: Issue 12, items 6 and 7

    /// The unit's own command (`contrib/systemd/nmea-record@.service`): every output dated by the fixes and rotated at
    /// their midnight; nothing is opened before the first fix, so no file carries the system clock's date.
    @Test(.enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat))
    func theUnitsCommandDatesAndRotatesEveryOutputByTheFixesOpeningNothingBeforeTheFirst() throws {
        let setup = try RecordCommandTests.setUp("record-rotate")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let logs = setup.directory.file("logs")
        #expect(mkdir(logs, 0o755) == 0)
        // Every name ever made in the directory, files made and removed again included.
        let made = try DirectoryWatch(logs)
        let record = try ChildProcess(
            [
                Self.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", logs + "/%Y-%m-%d-ttyX.gpx",
                "--raw", logs + "/%Y-%m-%d-ttyX.nmea", "--trips", logs + "/%Y-%m-%d-trips.jsonl", "--rotate", "daily",
            ],
            environment: ["XDG_CACHE_HOME": setup.directory.file("cache")])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected at 9600 baud") })
        // A receiver's start-up text, then five epochs before midnight (2025-06-30, not today: the system clock
        // must name nothing) and three after, each followed by a pause longer than the reader's idle interval (so
        // each is read, and captured, as one chunk).
        let startUp = "$GPTXT,01,01,02,ANTSTATUS=OK*3B\r\n"
        let before = (-5 ... -1).map { sampleEpoch(aroundMidnight: $0, before: "300625", after: "010725") }
        let after = (0...2).map { sampleEpoch(aroundMidnight: $0, before: "300625", after: "010725") }
        try Self.feed(setup.pair.receiverSide, [startUp] + before + after, pause: .milliseconds(650))
        let day1 = logs + "/2025-06-30-ttyX"
        let day2 = logs + "/2025-07-01-ttyX"
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(day2 + ".gpx") == 3 })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        #expect(
            Directory.entries(logs).sorted()
                == ["2025-06-30-ttyX.gpx", "2025-06-30-ttyX.nmea", "2025-07-01-ttyX.gpx", "2025-07-01-ttyX.nmea"])
        // Nothing was ever opened under another name (the system clock's date): not before the first fix either.
        let names = made.createdNames()
        #expect(!names.isEmpty)
        #expect(
            names.filter { !$0.contains("2025-06-30") && !$0.contains("2025-07-01") } == [],
            "files opened before the first fix: \(names)")
        #expect(Self.points(day1 + ".gpx") == 5)
        #expect(Self.points(day2 + ".gpx") == 3)
        #expect(readTextFile(day1 + ".nmea") == startUp + before.joined())
        #expect(readTextFile(day2 + ".nmea") == after.joined())
        #expect(
            record.error.contains("nmea record: 5 points in \(day1).gpx, 3 points in \(day2).gpx; 0 lines rejected\n"))
    }

    // MARK: Issue 12, item 13

    /// Two loggers on one receiver would split its bytes between them; as root TIOCEXCL does not stop the second,
    /// the lock does, and the message names the first one's PID.
    @Test(.enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat))
    func aSecondLoggerOnTheSameDeviceIsRefusedNamingTheFirst() throws {
        let setup = try RecordCommandTests.setUp("record-twice")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let first = try ChildProcess([
            Self.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
            "-o", setup.directory.file("first.gpx"),
        ])
        #expect(waitUntil(timeout: .seconds(5)) { first.error.contains("connected at 9600 baud") })
        let second = try ChildProcess([
            Self.nmea, "record", setup.pair.deviceSide, "--baud", "9600",
            "-o", setup.directory.file("second.gpx"),
        ])
        #expect(second.wait(timeout: .seconds(10)) == 1)
        #expect(
            second.error.hasSuffix(
                "Error: cannot open '\(setup.pair.deviceSide)': another logger has it locked: nmea (pid \(first.pid)). "
                    + "Two loggers would split its bytes between them; stop it or choose another device.\n"))
        // The first logger has every byte.
        #expect(RecordCommandTests.feed(setup.pair.receiverSide, epochs: 5) == 5)
        #expect(waitUntil(timeout: .seconds(10)) { Self.points(setup.directory.file("first.gpx")) == 5 })
        first.signal(SIGTERM)
        #expect(first.wait() == 0)
        // Issue 12, item 1: the refused logger leaves nothing behind (no empty GPX, no temporary file).
        let left = try FileManager.default.contentsOfDirectory(atPath: setup.directory.path)
        #expect(left.filter { $0.contains("second") } == [])
    }

    /// A pty (root's) of a mode the test sets, opened as an unprivileged user: the group is named only when it
    /// may open the device; otherwise the advice is the udev rule. Each error is printed once.
    @Test(.enabled(if: DevicesCommandTests.canSwitchUser, "needs root and setpriv to run as an unprivileged user"))
    func permissionAdviceFitsTheDevicesModeAndIsGivenOnce() throws {
        let setpriv = try #require(Tools.which("setpriv"))
        let directory = TemporaryDirectory("record-denied")
        defer { directory.remove() }
        #expect(chmod(directory.path, 0o777) == 0)
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let info = try FileStatus(path: pty.slavePath)
        let owner = String(cString: getpwuid(info.ownerID).pointee.pw_name)
        let group = String(cString: getgrgid(info.groupID).pointee.gr_name)
        func asNobody(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(
                [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", Self.nmea]
                    + arguments, environment: ["XDG_STATE_HOME": directory.file("state")])
        }
        let ownerOnly =
            "Error: cannot open '\(pty.slavePath)': permission denied. Only its owner (\(owner), "
            + "crw-------) may open it, so no group you could join would help. A udev rule that gives it a group "
            + "does, as contrib/udev/80-nmea-gps.rules does for known receivers (GROUP=\"dialout\", "
            + "MODE=\"0660\"; scripts/install installs it); then add yourself to that group.\n"
        #expect(chmod(pty.slavePath, 0o600) == 0)
        let record = try asNobody(["record", pty.slavePath, "-o", directory.file("t.gpx")])
        #expect(record.wait() == 1)
        // No point, so no track is left behind (issue 12, item 1).
        #expect(record.error == "nmea record: 0 points (no dated fix opened a track); 0 lines rejected\n" + ownerOnly)
        #expect(!FileManager.default.fileExists(atPath: directory.file("t.gpx")))
        let devices = try asNobody(["devices", "--probe", pty.slavePath])
        #expect(devices.wait() == 1)
        #expect(devices.error == ownerOnly)

        #expect(chmod(pty.slavePath, 0o660) == 0)
        let groupCan = try asNobody(["record", pty.slavePath, "-o", directory.file("g.gpx")])
        #expect(groupCan.wait() == 1)
        #expect(
            groupCan.error.hasSuffix(
                "Error: cannot open '\(pty.slavePath)': permission denied. Serial devices belong to the '\(group)' "
                    + "group; add yourself with 'sudo usermod -aG \(group) $USER', then log out and back in.\n"))
        #expect(groupCan.error.components(separatedBy: "permission denied").count == 2)
    }

    // MARK: Issue 12, item 15

    @Test func aMissingDeviceIsReportedOnceAsTheError() throws {
        let directory = TemporaryDirectory("record-missing")
        defer { directory.remove() }
        let record = try ChildProcess([Self.nmea, "record", "/dev/ttyNOPE0", "-o", directory.file("x.gpx")])
        #expect(record.wait() == 1)
        #expect(
            record.error == "nmea record: 0 points (no dated fix opened a track); 0 lines rejected\n"
                + "Error: cannot open '/dev/ttyNOPE0': no such device. Is the receiver plugged in? "
                + "'nmea devices' lists the serial devices it can see.\n")
    }
}

/// Issue 12, item 12: `nmea record`'s status line on a terminal stays one line, cut to the terminal's width, rewritten
/// in place on every fix (tmux windows of 80 and 120 columns).
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct RecordStatusLineTests {
    static let places = ToolSupport.repository.appendingPathComponent("Resources/places.bin").path

    @Test(
        .enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"),
        .enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat),
        arguments: [80, 120])
    func theScreenHoldsOneStatusLineCutToItsWidth(columns: Int) throws {
        let setup = try RecordCommandTests.setUp("record-status-\(columns)")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let command =
            "env NMEA_PLACES=\(shellQuoted(Self.places)) "
            + "XDG_CACHE_HOME=\(shellQuoted(setup.directory.file("cache"))) \(shellQuoted(BuiltExecutables.nmea)) "
            + "record \(shellQuoted(setup.pair.deviceSide)) --baud 9600 "
            + "-o \(shellQuoted(setup.directory.file("t.gpx"))); exec tail -f /dev/null"  // the window stays
        let window = try TmuxWindow(columns: columns, rows: 24, command: command)
        defer { window.stop() }
        #expect(window.waitForScreen(timeout: 10) { $0.contains { $0.contains("connected at 9600 baud") } } != nil)
        #expect(RecordCommandTests.feed(setup.pair.receiverSide, epochs: 20) == 20)
        // Every part of the line, as it reads on a wide enough terminal.
        let full =
            "\(setup.pair.deviceSide) 9600 baud · 3D fix · 8/0 sats · 48.11730 N 11.51667 E · "
            + "5 km NE of Neuried, Bavaria, DE · 20 points · 0 rejected"
        #expect(full.count > columns, "the line must be longer than the terminal for the test to mean anything")
        let shown = String(full.prefix(columns - 1))
        let screen = window.waitForScreen(timeout: 10) { rows in
            rows.contains { $0.trimmingCharacters(in: .whitespaces) == shown }
        }
        let rows = screen ?? window.capture()
        #expect(screen != nil, "\(rows)")
        // One status line, the last row written; everything above it is a line of its own (connected, the cache).
        let statusRows = rows.filter { $0.contains(" baud · ") }
        #expect(statusRows.count == 1, "\(rows)")
        let written = rows.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(written.last?.trimmingCharacters(in: .whitespaces) == shown, "\(rows)")
        #expect(written.dropLast().allSatisfy { $0.hasPrefix("nmea record: ") || !$0.contains("·") }, "\(rows)")
        #expect(written.count <= 4, "\(rows)")
    }
}
