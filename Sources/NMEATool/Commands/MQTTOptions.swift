import Fleet
import Glibc

/// The `--mqtt…` options shared by `nmea publish` (and, later, `nmea record`), and turning them into a publisher
/// configuration.
enum MQTTOptions {
    static let options: [OptionSpec] = [
        OptionSpec(
            long: "mqtt", valueName: "url",
            help: "The broker: mqtt://[user:pass@]host[:port] (mqtts://… for TLS)."),
        OptionSpec(
            long: "mqtt-topic", valueName: "topic",
            help: "Where positions go; trips go to <topic>/trip. Default: owntracks/nmea/<hostname>."),
        OptionSpec(
            long: "mqtt-interval", valueName: "seconds",
            help: "Publish a position at most this often (fix time).", defaultValue: "5"),
        OptionSpec(
            long: "mqtt-min-move", valueName: "meters",
            help: "...and only when it moved this far from the last one published.", defaultValue: "25"),
        OptionSpec(
            long: "mqtt-heartbeat", valueName: "seconds",
            help: "Publish at least this often even when parked (0: never).", defaultValue: "300"),
        OptionSpec(
            long: "mqtt-tls-ca", valueName: "file",
            help: "Verify the broker with the CA certificates in this PEM file (enables TLS).",
            completion: .file),
        OptionSpec(
            long: "mqtt-client-id", valueName: "id",
            help: "The MQTT client ID. Default: nmea- and the topic's last two levels."),
        OptionSpec(
            long: "mqtt-tid", valueName: "id",
            help: "The OwnTracks tracker ID. Default: the topic's last two characters."),
        OptionSpec(
            long: "mqtt-queue", valueName: "dir",
            help: "The queue directory. Default: $XDG_STATE_HOME/nmea/mqtt-queue.", completion: .directory),
        OptionSpec(
            long: "mqtt-queue-size", valueName: "MiB",
            help: "The queue's size limit; when full, the oldest messages are dropped.", defaultValue: "64"),
    ]

    /// The publisher configuration the options describe, or `nil` when `--mqtt` was not given.
    static func configuration(_ arguments: ParsedArguments) throws -> FleetPublisher.Configuration? {
        guard let urlText = arguments.value("mqtt") else { return nil }
        let broker: BrokerURL
        do {
            broker = try BrokerURL(parsing: urlText)
        } catch {
            throw arguments.invalid(urlText, for: "mqtt", because: error.reason)
        }
        let topic = arguments.value("mqtt-topic") ?? "owntracks/nmea/\(hostName())"
        guard FleetPublisher.isValidTopic(topic) else {
            throw arguments.invalid(topic, for: "mqtt-topic", because: "no '+' or '#' in a topic to publish to")
        }
        var configuration = FleetPublisher.Configuration(broker: broker, topic: topic)
        configuration.rateLimit = PublishRateLimiter(
            intervalSeconds: try arguments.number("mqtt-interval", default: 5, in: 0...1e7),
            minimumMoveMeters: try arguments.number("mqtt-min-move", default: 25, in: 0...1e8),
            heartbeatSeconds: try arguments.number("mqtt-heartbeat", default: 300, in: 0...1e7))
        configuration.tlsCAFile = arguments.value("mqtt-tls-ca")
        configuration.clientID = arguments.value("mqtt-client-id")
        configuration.trackerID = arguments.value("mqtt-tid")
        configuration.queueDirectory = arguments.value("mqtt-queue")
        let megabytes = try arguments.number("mqtt-queue-size", default: 64, in: 0.01...1_000_000)
        configuration.queue = DiskQueue.Options(maximumBytes: Int(megabytes * 1_048_576))
        return configuration
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
