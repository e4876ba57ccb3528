import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 12, item 15: the rough edges a new user met (the argument parser's negative values are in
/// ConvertCommandTests and TripsCommandTests).
@Suite struct RoughEdgesTests {
    /// Help for help, as for every other command: printed, exit 0.
    @Test func helpForHelpIsHelp() throws {
        for arguments in [["help", "--help"], ["help", "-h"]] {
            let outcome = try Tool.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.error == "")
            #expect(
                outcome.output.hasPrefix(
                    "OVERVIEW: Show help for a subcommand, or print the manual page with --man.\n\n"
                        + "USAGE: nmea help [<subcommand>] [--man]\n"))
        }
        let group = try Tool.run(["fleet", "help", "--help"])
        #expect(group.status == 0)
        #expect(group.output.contains("USAGE: nmea fleet help [<subcommand>]\n"))
        let convert = try Tool.run(["help", "convert", "--help"])
        #expect(convert.status == 0)
        #expect(convert.output == (try Tool.run(["convert", "--help"])).output)
    }

    /// One rule for empty input in every command that reads fixes: no error, exit 0, one warning line, after the
    /// line that says why the input gave nothing (item 14).
    @Test(arguments: [
        (["convert", "-o", "-", "--format", "gpx"], "nmea convert: warning: no fix with a position in the input"),
        (["trips"], "nmea trips: warning: no fix with a position and a time in the input"),
        (["plot", "-o", "-"], "nmea plot: warning: no fix with a position in the input"),
    ])
    func emptyInputIsAWarningNotAnError(arguments: [String], warning: String) throws {
        let command = "nmea \(arguments[0])"
        for input in ["", "\r\n\n", "# a comment line\n"] {
            let outcome = try Tool.run(arguments, input: input)
            #expect(outcome.status == 0, "\(arguments)")
            let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3, "\(arguments): \(outcome.error)")
            #expect(lines.first == "\(command): <stdin>: nothing read: it is empty"[...])
            #expect(lines.dropFirst().first?.hasPrefix(warning) == true, "\(arguments): \(outcome.error)")
            #expect(lines.filter { $0.contains("warning") }.count == 1)
        }
        // Bytes that are no log are not empty (issue 25, item 2): the input's failure, exit 1, nothing written.
        let outcome = try Tool.run(arguments, input: "not nmea\n")
        #expect(outcome.status == 1, "\(arguments)")
        #expect(outcome.output == "")
        #expect(
            outcome.error.hasPrefix(
                "Error: <stdin>: not an NMEA log, nor a GPX, GeoJSON, KML or CSV track: no NMEA found (no sentence "
                    + "starting with '$' or '!')\n"))
    }

    /// `simulate` streams: six hours at 1 Hz (22 MB) take the memory one hour takes, where it once held all it wrote
    /// (146 MB for a day: some 30 MB more for the five hours between). Two lengths compared, not a day against a bound:
    /// the difference is what held bytes would show, in a sixth of the time a debug build took for a day.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func aLongSimulationRunsInConstantMemory() throws {
        let directory = TemporaryDirectory()
        func peakKilobytes(seconds: Int) throws -> Int {
            let outcome = try ChildProcess.run([
                "/usr/bin/time", "-f", "%M", BuiltExecutables.nmea, "simulate", "--duration", String(seconds), "-o",
                directory.file("\(seconds).nmea"),
            ])
            #expect(outcome.status == 0)
            return try #require(outcome.error.split(separator: "\n").last.flatMap { Int($0) })
        }
        let hour = try peakKilobytes(seconds: 3_600)
        let sixHours = try peakKilobytes(seconds: 21_600)
        #expect(sixHours - hour < 4 * 1024, "peak RSS \(hour) kB for an hour, \(sixHours) kB for six")
        #expect(sixHours < 48 * 1024, "peak RSS \(sixHours) kB")
        let size = try FileManager.default.attributesOfItem(atPath: directory.file("21600.nmea"))[.size] as? Int
        #expect((size ?? 0) > 20_000_000)
    }

    /// `scripts/install-packages` (what `scripts/test` runs) installs only what is missing, with `--no-upgrade`;
    /// when apt would upgrade an installed package, it picks a version that fits (an installed sibling's, built
    /// from the same source), and installs nothing when none does. Run against fake `dpkg-query`, `id`,
    /// `apt-cache` and `apt-get` that log what they were asked: `libnew` 1.1-1 would upgrade the installed
    /// `libold` 1.0-1, its sibling (source `libsrc`); `libnew` 1.0-1 fits, when the archive still has it.
    @Test func installingPackagesNeverUpgradesInstalledOnes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fakes = [
            "dpkg-query": #"""
            case "$*" in
            *db:Status-Status*) echo "installed libsrc 1.0-1" ;;
            *) [ "${@: -1}" = present ] && printf 'install ok installed' ;;
            esac
            exit 0
            """#,
            "id": "echo 0",
            "apt-cache": #"""
            echo "apt-cache $*" >> "$LOG"
            case "$1" in
            show) printf 'Package: libnew\nSource: libsrc (1.1-1)\n\n' ;;
            madison) cat "$VERSIONS" ;;
            esac
            """#,
            "apt-get": #"""
            echo "apt-get $*" >> "$LOG"
            case " $* " in
            *" -s "*" libnew=1.0-1 "*) printf 'Inst libnew (1.0-1 Debian:12)\nInst newtool (2.0-1 Debian:12)\n' ;;
            *" -s "*) cat "$PLAN" ;;
            esac
            """#,
            "apt-mark": #"echo "apt-mark $*" >> "$LOG""#,
        ]
        for (name, body) in fakes {
            directory.write("#!/bin/bash\n\(body)\n", to: name)
            chmod(directory.file(name), 0o755)
        }
        let script = Locations.packageRoot + "/scripts/install-packages"
        func run(_ arguments: [String] = ["present", "newtool"], plan: String, versions: String = "")
            throws -> (status: Int32, calls: [String], error: String)
        {
            directory.write(plan, to: "plan")
            directory.write(versions, to: "versions")
            directory.write("", to: "log")
            let outcome = try ChildProcess.run(
                [script] + arguments,
                environment: [
                    "PATH": directory.path + ":/usr/bin:/bin", "LOG": directory.file("log"),
                    "PLAN": directory.file("plan"), "VERSIONS": directory.file("versions"),
                ])
            let calls = (directory.read("log") ?? "").split(separator: "\n").map(String.init)
            return (outcome.status, calls.filter { !$0.hasPrefix("apt-cache") }, outcome.error)
        }
        // Only new packages in the plan: the missing one alone is installed, without upgrades.
        let fresh = try run(plan: "Inst libnew (1.0-1 Debian:12 [amd64])\nInst newtool (2.0-1 Debian:12 [amd64])\n")
        #expect(fresh.status == 0)
        #expect(
            fresh.calls == [
                "apt-get update", "apt-get install -s --no-upgrade --no-install-recommends newtool",
                "apt-get install -y --no-upgrade --no-install-recommends newtool",
            ])
        // An installed package would be upgraded: the new dependency gets its installed sibling's version, and is
        // marked as a dependency again after the installation.
        let upgrading =
            "Inst libold [1.0-1] (1.1-1 Debian:12 [amd64])\nInst libnew (1.1-1 Debian:12)\n"
            + "Inst newtool (2.0-1 Debian:12)\n"
        let pinned = try run(plan: upgrading, versions: "libnew | 1.1-1 | repo\nlibnew | 1.0-1 | repo\n")
        #expect(pinned.status == 0, "\(pinned.error)")
        #expect(pinned.calls.contains("apt-get install -y --no-upgrade --no-install-recommends libnew=1.0-1 newtool"))
        #expect(pinned.calls.last == "apt-mark auto libnew")
        #expect(!pinned.calls.contains { $0.hasPrefix("apt-get install -y") && !$0.contains("libnew=1.0-1") })
        // The archive no longer has a version that fits: nothing is installed, and the error says which.
        let refused = try run(plan: upgrading, versions: "libnew | 1.1-1 | repo\n")
        #expect(refused.status == 1)
        #expect(!refused.calls.contains { $0.hasPrefix("apt-get install -y") })
        #expect(refused.error.contains("not installing newtool: it would upgrade installed packages: libold"))
        // The same package as optional (a test tool): left out with a warning, the run goes on.
        let optional = try run(["present", "--optional", "newtool"], plan: upgrading, versions: "libnew | 1.1-1 | r\n")
        #expect(optional.status == 0)
        #expect(!optional.calls.contains { $0.hasPrefix("apt-get install -y") })
        #expect(optional.error.contains("the tests that need it are skipped"))
        // Nothing missing: apt is not even asked.
        let present = try ChildProcess.run(
            [script, "present"], environment: ["PATH": directory.path + ":/usr/bin:/bin", "LOG": directory.file("log")])
        #expect(present.status == 0)
    }
}
