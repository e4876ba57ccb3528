import SerialPort
import System
import UBX

/// `record --rate` and `--gnss` (and `serve`'s): the receiver is configured as `nmea config` would, at every
/// connection, before its bytes are read for fixes; what it answers goes to standard error, one line a message.
enum ReceiverConfigurator {
    /// The connection hook for `settings`, or `nil` when they ask nothing.
    static func prepare(_ settings: ReceiverSettings, command: String)
        -> (@Sendable (_ connection: any SerialConnection, _ path: String, _ rate: BaudRate) -> Void)?
    {
        guard !settings.isEmpty else { return nil }
        return { connection, path, rate in
            guard let port = connection as? SerialPort else { return }
            let line = ReceiverLine(port: port, path: path, baudRate: rate, closesPort: false)
            let session = ConfigSession(line: line, timeout: .milliseconds(700)) { text in
                Console.error("\(command): \(path): \(text)\n")
            }
            do {
                _ = try session.run(settings, showInfo: false)
            } catch let error as RuntimeError {
                Console.error("\(command): \(error.message); reading it as it is\n")
            } catch {
                Console.error("\(command): \(path): \(error); reading it as it is\n")
            }
        }
    }
}

/// `--rate` and `--gnss`, declared once for `config`, `record` and `serve`.
enum ReceiverConfigurationOptions {
    static let rate = Option<Double?>(
        long: "rate", valueName: "hz",
        help: "Set the receiver's fixes per second (0.1…25; u-blox 7/8 up to 10; u-blox and MediaTek).",
        in: 0.1...25)
    static let gnss = Option<Set<ReceiverSettings.Constellation>?>(
        long: "gnss", valueName: "list",
        help: "Set the constellations it tracks, the others off: gps, galileo, glonass, beidou, qzss, sbas.",
        convert: parseSystems)

    /// The options a live command adds.
    static let options: [any OptionDeclaration] = [rate, gnss]

    /// The settings they ask for.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> ReceiverSettings {
        var settings = ReceiverSettings()
        settings.rateHz = try arguments.value(rate)
        settings.systems = try arguments.value(gnss)
        return settings
    }

    static func parseSystems(_ text: String) throws(ValueError) -> Set<ReceiverSettings.Constellation> {
        var systems: Set<ReceiverSettings.Constellation> = []
        for name in text.lowercased().split(separator: ",") {
            let aliases = ["gal": "galileo", "glo": "glonass", "bds": "beidou", "bei": "beidou"]
            guard let system = ReceiverSettings.Constellation(rawValue: aliases[String(name)] ?? String(name)) else {
                throw .invalid(String(name), because: "expected gps, galileo, glonass, beidou, qzss or sbas")
            }
            systems.insert(system)
        }
        guard !systems.isEmpty else { throw .invalid(text, because: "name at least one constellation") }
        return systems
    }
}
