import Glibc
import TestSupport
import Testing

/// Whether this machine lets a test make a mount namespace of its own.
private let canHideLibraries = (try? ChildProcess.run(["unshare", "-m", "true"]).status) == 0

/// The fleet's libraries are loaded when first used, not linked (CShims' `nmea_library`): with one hidden — an empty
/// file bound over it in a mount namespace of the test's own, nothing outside changes — the command that needs it
/// stops with exit status 1 and names the package to install, and a command that does not need it runs.
@Suite(
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"),
    .enabled(if: canHideLibraries, "needs unshare -m and mount (root) to hide a library"))
struct MissingLibraryTests {
    /// Where the dynamic loader finds `library` (a file name), among Debian's library directories.
    static func path(of library: String) throws -> String {
        let directories = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu"]
        let found = directories.map { $0 + "/" + library }.first { access($0, F_OK) == 0 }
        return try #require(found, "\(library) is not in \(directories)")
    }

    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"

    /// Runs `nmea` with `arguments`, `libraries` hidden.
    static func nmea(hiding libraries: [String], _ arguments: [String], input: [UInt8] = []) throws
        -> ChildProcess.Outcome
    {
        let mounts = try libraries.map { "mount --bind /dev/null \(try path(of: $0))" }.joined(separator: " && ")
        return try ChildProcess.run(
            ["unshare", "-m", "sh", "-c", mounts + " && exec \"$@\"", "sh", BuiltExecutables.nmea] + arguments,
            input: .bytes(input))
    }

    @Test func withoutLibpqTheFleetCommandSaysWhatToInstall() throws {
        let outcome = try Self.nmea(hiding: ["libpq.so.5"], ["fleet", "last", "--db", "postgresql://localhost/x"])
        #expect(outcome.status == 1)
        #expect(
            outcome.error.hasPrefix("Error: cannot load the PostgreSQL client library libpq (/"), "\(outcome.error)")
        #expect(outcome.error.hasSuffix("libpq.so.5: file too short); install it (Debian: apt install libpq5)\n"))
    }

    @Test func withoutLibmosquittoPublishingSaysWhatToInstall() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.rmc, to: "drive.nmea")
        let log = directory.file("drive.nmea")
        let outcome = try Self.nmea(hiding: ["libmosquitto.so.1"], ["publish", "--mqtt", "mqtt://127.0.0.1:1", log])
        #expect(outcome.status == 1)
        #expect(
            outcome.error.hasPrefix("Error: cannot load the MQTT client library libmosquitto (/"), "\(outcome.error)")
        #expect(outcome.error.hasSuffix("); install it (Debian: apt install libmosquitto1)\n"))
    }

    @Test func withoutEitherTheOtherCommandsRun() throws {
        let outcome = try Self.nmea(
            hiding: ["libpq.so.5", "libmosquitto.so.1"], ["parse", "--fixes", "-"], input: Array(Self.rmc.utf8))
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(String(decoding: outcome.outputBytes, as: UTF8.self).contains("\"lat\":48.1173"))
    }
}
