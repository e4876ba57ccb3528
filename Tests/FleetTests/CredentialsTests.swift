import Fleet
import Foundation
import TestSupport
import Testing

/// Passwords never on a command line and never in what the commands print: the broker's from a file or
/// `$NMEA_MQTT_PASSWORD`, the database's from libpq's password file.
@Suite(
    .serialized, .enabled(if: MosquittoBroker.isInstalled, "needs mosquitto, mosquitto_sub and mosquitto_passwd"),
    .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: BuiltExecutables.hasNMEA, "needs the built nmea"))
struct CredentialsTests {
    @Test func passwordsComeFromFilesAndTheEnvironmentAndAreNeverShown() throws {
        let collectorPassword = "mq-Col-\(UInt32.random(in: 0...UInt32.max))"
        let vanPassword = "mq-Van-\(UInt32.random(in: 0...UInt32.max))"
        let broker = try Broker(users: [("collector", collectorPassword), ("van7", vanPassword)])
        try broker.start()
        let fleet = try FleetDatabase()
        let secrets = TemporaryDirectory("secrets")
        secrets.write(collectorPassword + "\n", to: "mqtt-password")
        let log = try simulatedDrive(vehicle: 0, seconds: 4)
        let collector = try ChildProcess(
            [
                BuiltExecutables.nmea, "collect", "mqtt://collector@127.0.0.1:\(broker.port)", "--mqtt-password-file",
                secrets.file("mqtt-password"), "--db", fleet.url,
            ], environment: fleet.environment)
        #expect(
            waitUntil(timeout: .seconds(15)) { collector.error.contains("nmea collect: connected") },
            "\(collector.error)")
        let commandLine = String(decoding: readFile("/proc/\(collector.pid)/cmdline") ?? [], as: UTF8.self)
        #expect(commandLine.contains("mqtt-password-file"))
        #expect(waitUntilSubscribed(collector, at: broker), "\(broker.log)")
        let publish = try ChildProcess.run(
            [
                BuiltExecutables.nmea, "publish", log, "--mqtt", "mqtt://van7@127.0.0.1:\(broker.port)",
                "--mqtt-topic", "owntracks/acme/van7", "--mqtt-interval", "0", "--mqtt-min-move", "0", "--mqtt-queue",
                TemporaryDirectory("queue").path,
            ], environment: ["NMEA_MQTT_PASSWORD": vanPassword])
        #expect(publish.status == 0, "\(publish.error)")
        #expect(
            waitUntil(timeout: .seconds(10)) {
                (try? fleet.query("SELECT count(*) FROM nmea.positions")) == ["5"]
            })
        #expect(collector.stop(SIGTERM) == 0)
        let printed = [commandLine, collector.output, collector.error, publish.output, publish.error]
        for text in printed {
            for secret in [collectorPassword, vanPassword, fleet.password] {
                #expect(!text.contains(secret), "a password in: \(text)")
            }
        }
        #expect(!collector.error.contains("warning"))
    }

    @Test func wrongAndVisiblePasswordsAreReportedWithoutShowingThem() throws {
        let password = "mq-Right-\(UInt32.random(in: 0...UInt32.max))"
        let broker = try Broker(users: [("van7", password)])
        try broker.start()
        let log = try simulatedDrive(vehicle: 0, seconds: 2)
        let queue = TemporaryDirectory("queue").path
        // In the URL: it works, with a warning that does not repeat it.
        let visible = try ChildProcess.run([
            BuiltExecutables.nmea, "publish", log, "--mqtt", "mqtt://van7:\(password)@127.0.0.1:\(broker.port)",
            "--mqtt-queue", queue,
        ])
        #expect(visible.status == 0, "\(visible.error)")
        #expect(
            visible.error.hasPrefix(
                "nmea publish: warning: the password in the broker URL can be read by other "
                    + "users of this machine (ps, /proc); give it with --mqtt-password-file FILE or $NMEA_MQTT_PASSWORD "
                    + "instead\n"))
        #expect(!visible.error.contains(password))
        // A wrong one from the environment: refused, and the message names no password.
        let wrong = "mq-Wrong-\(UInt32.random(in: 0...UInt32.max))"
        let refused = try ChildProcess.run(
            [
                BuiltExecutables.nmea, "publish", log, "--mqtt", "mqtt://van7@127.0.0.1:\(broker.port)",
                "--mqtt-queue", TemporaryDirectory("queue").path, "--wait", "2",
            ], environment: ["NMEA_MQTT_PASSWORD": wrong])
        #expect(refused.status == 1)
        #expect(refused.error.contains("(the broker refused the connection: "), "\(refused.error)")
        #expect(!refused.error.contains(wrong) && !refused.output.contains(wrong))
        // Usage mistakes: two passwords, a file without a user, a database URL with a password, a bad URL with one.
        let file = TemporaryDirectory("secrets")
        file.write(password, to: "password")
        for (arguments, message) in [
            (
                ["publish", log, "--mqtt", "mqtt://van7:\(password)@h", "--mqtt-password-file", file.file("password")],
                "Error: Give the broker password once: in '--mqtt-password-file' or the URL\n"
            ),
            (
                ["publish", log, "--mqtt", "mqtt://h", "--mqtt-password-file", file.file("password")],
                "Error: A password needs a user name in the broker URL: mqtt://USER@host\n"
            ),
            (
                ["collect", "mqtt://h", "--db", "postgresql://fleet:\(password)@db/fleet"],
                "Error: The value of '--db' is refused: the database URL holds a password, which other users can read on "
                    + "the command line: put it in ~/.pgpass or the file $PGPASSFILE names\n"
            ),
            (
                ["collect", "mqtt://van7:\(password)@h:0", "--db", "postgresql://fleet@db/fleet"],
                "Error: The value 'mqtt://van7:***@h:0' is invalid for '<url>': the port must be a number from 1 to "
                    + "65535\n"
            ),
        ] {
            let run = try ChildProcess.run([BuiltExecutables.nmea] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.error.hasPrefix(message), "\(run.error)")
            #expect(!run.error.contains(password))
        }
        let missing = try ChildProcess.run([
            BuiltExecutables.nmea, "publish", log, "--mqtt", "mqtt://van7@h", "--mqtt-password-file", "/nonexistent/pw",
        ])
        #expect(missing.status == 1)
        #expect(missing.error == "Error: cannot read the password file '/nonexistent/pw': No such file or directory\n")
    }
}
