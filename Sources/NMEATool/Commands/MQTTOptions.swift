import Fleet
import Glibc
import System

/// The `--mqtt…` options shared by `nmea publish` and `nmea record`, the password option every command that talks
/// MQTT has (`collect` too), and turning them into a broker and a publisher configuration.
enum MQTTOptions {
    /// Where the broker password comes from, for every command that talks MQTT.
    static let passwordFile = Option<String?>(
        long: "mqtt-password-file", valueName: "file",
        help: "Read the broker password from this file (a trailing line break is ignored); without it, "
            + "$NMEA_MQTT_PASSWORD. The user name goes in the URL: mqtt://USER@host.", completion: .file)

    /// The variable a password may come from when no file is given.
    static let passwordVariable = "NMEA_MQTT_PASSWORD"

    private static let broker = Option<BrokerURL?>(
        long: "mqtt", valueName: "url", help: "The broker: mqtt://[user@]host[:port] (mqtts://… for TLS)."
    ) { text throws(ValueError) in
        do throws(BrokerURLError) {
            return try BrokerURL(parsing: text)
        } catch {
            // Not the text itself: it may hold the password.
            throw .invalid(BrokerURL.redacted(text), because: error.reason)
        }
    }
    private static let topic = Option<String?>(
        long: "mqtt-topic", valueName: "topic",
        help: "Where positions go; trips go to <topic>/trip. Default: owntracks/nmea/<hostname>.")
    private static let interval = Option<Double>(
        long: "mqtt-interval", valueName: "seconds", help: "Publish a position at most this often (fix time).",
        default: 5, in: 0...1e7)
    private static let minimumMove = Option<Double>(
        long: "mqtt-min-move", valueName: "meters",
        help: "...and only when it moved this far from the last one published.", default: 25, in: 0...1e8)
    private static let heartbeat = Option<Double>(
        long: "mqtt-heartbeat", valueName: "seconds", help: "Publish at least this often even when parked (0: never).",
        default: 300, in: 0...1e7)
    private static let tlsCA = Option<String?>(
        long: "mqtt-tls-ca", valueName: "file",
        help: "Verify the broker with the CA certificates in this PEM file (enables TLS).", completion: .file)
    private static let clientID = Option<String?>(
        long: "mqtt-client-id", valueName: "id",
        help: "The MQTT client ID. Default: nmea- and the topic's last two levels.")
    private static let trackerID = Option<String?>(
        long: "mqtt-tid", valueName: "id", help: "The OwnTracks tracker ID. Default: the topic's last two characters.")
    private static let queue = Option<String?>(
        long: "mqtt-queue", valueName: "dir", help: "The queue directory. Default: $XDG_STATE_HOME/nmea/mqtt-queue.",
        completion: .directory)
    private static let queueSize = Option<Double>(
        long: "mqtt-queue-size", valueName: "MiB",
        help: "The queue's size limit; when full, the oldest messages are dropped.", default: 64, in: 0.01...1_000_000)

    static let options: [any OptionDeclaration] = [
        broker, passwordFile, topic, interval, minimumMove, heartbeat, tlsCA, clientID, trackerID, queue, queueSize,
    ]

    /// The publisher configuration the options describe, or `nil` when `--mqtt` was not given.
    static func configuration(_ arguments: ParsedArguments) throws -> FleetPublisher.Configuration? {
        guard let url = try arguments.value(Self.broker) else { return nil }
        let broker = try withPassword(url, arguments)
        let topic = try arguments.value(Self.topic) ?? "owntracks/nmea/\(hostName())"
        guard FleetPublisher.isValidTopic(topic) else {
            throw arguments.invalid(topic, for: Self.topic, because: "no '+' or '#' in a topic to publish to")
        }
        var configuration = FleetPublisher.Configuration(broker: broker, topic: topic)
        configuration.rateLimit = PublishRateLimiter(
            intervalSeconds: try arguments.value(interval), minimumMoveMeters: try arguments.value(minimumMove),
            heartbeatSeconds: try arguments.value(heartbeat))
        configuration.tlsCAFile = try arguments.value(tlsCA)
        configuration.clientID = try arguments.value(clientID)
        configuration.trackerID = try arguments.value(trackerID)
        configuration.queueDirectory = try arguments.value(queue)
        let megabytes = try arguments.value(queueSize)
        configuration.queue = DiskQueue.Options(maximumBytes: Int(megabytes * 1_048_576))
        return configuration
    }

    /// `broker` with its password from `--mqtt-password-file`, else from the URL (with a warning: others can read a
    /// command line), else from `$NMEA_MQTT_PASSWORD` when the URL names a user.
    /// - Throws: ``UsageError``; ``RuntimeError`` for a password file that cannot be read.
    static func withPassword(_ broker: BrokerURL, _ arguments: ParsedArguments) throws -> BrokerURL {
        var broker = broker
        if let path = try arguments.value(passwordFile) {
            guard broker.password == nil else {
                throw arguments.usageError("Give the broker password once: in '--mqtt-password-file' or the URL")
            }
            guard broker.username != nil else {
                throw arguments.usageError("A password needs a user name in the broker URL: mqtt://USER@host")
            }
            broker.password = try PasswordFile.read(path)
        } else if broker.password != nil {
            Console.error(
                "\(arguments.commandPath): warning: the password in the broker URL can be read by other "
                    + "users of this machine (ps, /proc); give it with --mqtt-password-file FILE or "
                    + "$\(passwordVariable) instead\n")
        } else if broker.username != nil, let password = PasswordFile.environment(passwordVariable) {
            broker.password = password
        }
        return broker
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let clean = name.split(separator: ".").first.map(String.init) ?? ""
        return clean.isEmpty
            ? "localhost"
            : clean.replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "#", with: "-")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
