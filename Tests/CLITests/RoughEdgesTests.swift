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
        let reasons = [
            "": "it is empty", "not nmea\n": "no NMEA found (no sentence starting with '$' or '!')",
        ]
        for (input, reason) in reasons {
            let outcome = try Tool.run(arguments, input: input)
            #expect(outcome.status == 0, "\(arguments)")
            let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3, "\(arguments): \(outcome.error)")
            #expect(lines.first == "\(command): <stdin>: no NMEA sentences read: \(reason)"[...])
            #expect(lines.dropFirst().first?.hasPrefix(warning) == true, "\(arguments): \(outcome.error)")
            #expect(lines.filter { $0.contains("warning") }.count == 1)
        }
    }

    /// `simulate` streams: a day at 1 Hz (85 MB) in constant memory, where it once held all of it (146 MB); the
    /// bytes are the same as ever (checked by the samples' hashes in ExpectedDecodings).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func aLongSimulationRunsInConstantMemory() throws {
        let directory = TemporaryDirectory()
        let outcome = try ChildProcess.run([
            "/usr/bin/time", "-f", "%M", BuiltExecutables.nmea, "simulate", "--duration", "86400", "-o",
            directory.file("day.nmea"),
        ])
        #expect(outcome.status == 0)
        let kilobytes = try #require(outcome.error.split(separator: "\n").last.flatMap { Int($0) })
        #expect(kilobytes < 48 * 1024, "peak RSS \(kilobytes) kB")
        let size = try FileManager.default.attributesOfItem(atPath: directory.file("day.nmea"))[.size] as? Int
        #expect((size ?? 0) > 80_000_000)
    }

    /// `scripts/install-packages` (what `scripts/test` runs) installs only what is missing, with `--no-upgrade`, and
    /// installs nothing when apt would upgrade an installed dependency. Run against fake `dpkg-query`, `id` and
    /// `apt-get` that log what they were asked.
    @Test func installingPackagesNeverUpgradesInstalledOnes() throws {
        let directory = TemporaryDirectory()
        let fakes = [
            "dpkg-query": #"[ "${@: -1}" = present ] && printf 'install ok installed'; exit 0"#,
            "id": "echo 0",
            "apt-get": #"echo "apt-get $*" >> "$LOG"; case " $* " in *" -s "*) cat "$PLAN";; esac"#,
        ]
        for (name, body) in fakes {
            directory.write("#!/bin/bash\n\(body)\n", to: name)
            chmod(directory.file(name), 0o755)
        }
        let script = Locations.packageRoot + "/scripts/install-packages"
        func run(plan: String) throws -> (status: Int32, calls: [String], error: String) {
            directory.write(plan, to: "plan")
            directory.write("", to: "log")
            let outcome = try ChildProcess.run(
                [script, "present", "newtool"],
                environment: [
                    "PATH": directory.path + ":/usr/bin:/bin", "LOG": directory.file("log"),
                    "PLAN": directory.file("plan"),
                ])
            return (
                outcome.status, (directory.read("log") ?? "").split(separator: "\n").map(String.init), outcome.error
            )
        }
        // Only new packages in the plan: the missing one alone is installed, without upgrades.
        let fresh = try run(plan: "Inst libnew (1.0-1 Debian:12 [amd64])\nInst newtool (2.0-1 Debian:12 [amd64])\n")
        #expect(fresh.status == 0)
        #expect(
            fresh.calls == [
                "apt-get update", "apt-get install -s --no-upgrade --no-install-recommends newtool",
                "apt-get install -y --no-upgrade --no-install-recommends newtool",
            ])
        // An installed dependency would be upgraded: nothing is installed, and the error says which.
        let upgrading = try run(plan: "Inst libold [1.0-1] (1.1-1 Debian:12 [amd64])\nInst newtool (2.0-1 Debian:12)\n")
        #expect(upgrading.status == 1)
        #expect(upgrading.calls.count == 2)
        #expect(upgrading.error.contains("it would upgrade installed packages: libold\n"))
        // Nothing missing: apt is not even asked.
        let present = try ChildProcess.run(
            [script, "present"], environment: ["PATH": directory.path + ":/usr/bin:/bin", "LOG": directory.file("log")])
        #expect(present.status == 0)
    }
}
