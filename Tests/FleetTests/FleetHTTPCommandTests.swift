import Foundation
import TestSupport
import Testing

/// The new fleet commands' manners: help, usage errors (exit 64, a message saying what to do), data on stdout.
@Suite(.enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct FleetHTTPCommandTests {
    static func nmea(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try ChildProcess.run([BuiltExecutables.nmea] + arguments)
    }

    @Test func everyNewSubcommandHasHelp() throws {
        for path in [
            ["collect"], ["fleet", "geofence"], ["fleet", "geofence", "add"], ["fleet", "geofence", "list"],
            ["fleet", "geofence", "remove"], ["fleet", "events"], ["fleet", "report"],
        ] {
            let help = try Self.nmea(path + ["--help"])
            #expect(help.status == 0, "\(path)")
            #expect(help.output.hasPrefix("OVERVIEW: "), "\(path)")
            #expect(help.error == "", "\(path)")
            #expect(try Self.nmea(path + ["-h"]).output == help.output, "\(path)")
        }
        let collect = try Self.nmea(["collect", "--help"]).output
        for option in ["--http <[addr:]port>", "--devices <file>", "--users <file>", "--webhook <url>"] {
            #expect(collect.contains(option), "\(option)")
        }
    }

    @Test func usageErrorsSayWhatToDo() throws {
        let cases: [([String], String)] = [
            (["collect", "--http", "5055"], "Error: Give where to store: '--db <url>', '-o <dir>', or both"),
            (
                ["collect", "--http", "5055", "--db", "postgresql://fleet@127.0.0.1/fleet"],
                "Error: '--http' takes reports from known senders only: give '--devices FILE'"
            ),
            (
                ["collect", "--db", "postgresql://fleet@127.0.0.1/fleet"],
                "Error: Give the broker URL, '--http [ADDR:]PORT', or both"
            ),
            (
                ["collect", "mqtt://localhost", "--devices", "d", "--db", "postgresql://fleet@127.0.0.1/fleet"],
                "Error: '--devices' and '--users' go with '--http [ADDR:]PORT'"
            ),
            (
                [
                    "collect", "--http", "5055", "--devices", "d", "--db", "postgresql://x@127.0.0.1/f", "--webhook",
                    "https://x",
                ],
                "Error: The value 'https://x' is invalid for '--webhook <url>': give an http:// URL"
            ),
            (
                ["fleet", "geofence", "add", "depot", "--db", "postgresql://x@127.0.0.1/f"],
                "Error: Give exactly one of '--circle', '--polygon' and '--geojson'"
            ),
            (
                ["fleet", "geofence", "add", "depot", "--circle", "48.1,11.5", "--db", "postgresql://x@127.0.0.1/f"],
                "Error: The value of '--circle' is refused: expected LAT,LON,RADIUS_M"
            ),
            (
                [
                    "fleet", "geofence", "add", "depot", "--polygon", "48.1 11.5, 48.2 11.5", "--db",
                    "postgresql://x@127.0.0.1/f",
                ],
                "Error: The value of '--polygon' is refused: a polygon needs at least three distinct points"
            ),
            (
                ["fleet", "report", "--day", "30.11.2026", "--db", "postgresql://x@127.0.0.1/f"],
                "Error: The value '30.11.2026' is invalid for '--day <date>': expected YYYY-MM-DD"
            ),
            (
                [
                    "fleet", "report", "--day", "2026-11-30", "--since", "2026-11-01", "--db",
                    "postgresql://x@127.0.0.1/f",
                ],
                "Error: Give '--day' or '--since' and '--until', not both"
            ),
        ]
        for (arguments, message) in cases {
            let run = try Self.nmea(arguments)
            #expect(run.status == 64, "\(arguments): \(run.error)")
            #expect(run.error.hasPrefix(message), "\(arguments): \(run.error)")
            #expect(run.output == "", "\(arguments)")
        }
    }

    @Test func unreadableFilesAreRuntimeErrors() throws {
        let directory = TemporaryDirectory("fleet-http-cli")
        directory.write("anna:$apr1$abcdefgh$0123456789012345678901\n", to: "users")
        let users = try Self.nmea([
            "collect", "--http", "0", "--users", directory.file("users"), "--db", "postgresql://x@127.0.0.1:1/f",
        ])
        #expect(users.status == 1)
        #expect(
            users.error
                == "Error: \(directory.file("users")), line 1: the hash of 'anna' is not bcrypt; make it with "
                + "'htpasswd -B \(directory.file("users")) anna'\n")
        let devices = try Self.nmea([
            "collect", "--http", "0", "--devices", directory.file("none"), "--db", "postgresql://x@127.0.0.1:1/f",
        ])
        #expect(devices.status == 1)
        #expect(devices.error.hasPrefix("Error: cannot read '\(directory.file("none"))': "))
    }
}
