import NMEA
import SerialPort
import System
import UBX

/// `nmea config DEVICE`: read and change a receiver's settings — u-blox (both generations) and MediaTek.
enum ConfigCommand: Command {
    static let spec = CommandSpec(
        name: "config",
        abstract: "Show or change a receiver's settings: rate, constellations, messages, baud rate (u-blox, MediaTek).",
        discussion: """
            Talks to the receiver on DEVICE (a path, or 'auto' for the first GPS found) at its current rate \
            (--baud, or found by trying rates). A u-blox answers MON-VER with its firmware and protocol version, \
            which chooses the messages: the configuration interface (CFG-VALSET keys) from protocol 27 (M9, M10, \
            F9, X20), the legacy CFG-RATE, CFG-MSG, CFG-PRT and CFG-GNSS before it (u-blox 6, 7, 8). A MediaTek \
            answers PMTK605 and gets PMTK220, 251, 314 and 353. Each message waits for the receiver's answer \
            (ACK-ACK or ACK-NAK; PMTK001), once more after a timeout, and the answer is printed.
            --set-baud switches the receiver's port, follows it and confirms at the new rate; when the receiver does \
            not answer there, the port goes back to the old rate, where it must still answer. Without --save the \
            settings last until the receiver loses power. --dry-run prints the messages, in hex and as text, and \
            sends nothing (give --generation; a legacy receiver's own port and GNSS settings are read in a real run, \
            its defaults are assumed here).
            Exit status 0 when every message was acknowledged, 1 otherwise.
            """,
        arguments: [device],
        options: [
            baud.baud, info, rate, gnss, nmea, ubx, setBaud, save, reset, dryRun, generation, timeout,
        ],
        examples: [
            "nmea config /dev/ttyACM0 --info",
            "nmea config auto --rate 10 --gnss gps,galileo --save",
            "nmea config /dev/ttyUSB0 --nmea off --ubx nav-pvt,nav-sat,nav-eoe --set-baud 115200 --save",
            "nmea config /dev/ttyACM0 --rate 5 --dry-run --generation keys",
        ])

    private static let device = Argument<String?>(
        "device", help: "The receiver's serial device, or 'auto' for the first GPS found.", defaultText: "auto")
    private static let baud = ReceiverOptions(
        baudHelp: "The receiver's current rate: a standard one (4800…921600), or 'auto' to find it.")
    private static let info = Flag(long: "info", help: "Print the receiver's firmware, protocol and settings.")
    private static let rate = ReceiverConfigurationOptions.rate
    private static let gnss = ReceiverConfigurationOptions.gnss
    private static let nmea = Option<OnOff?>(
        long: "nmea", valueName: "on|off", help: "Turn NMEA output on or off.", choosing: OnOff.self)
    private static let ubx = Option<[UBXMessageID]?>(
        long: "ubx", valueName: "list",
        help: "The UBX messages to output each epoch (nav-pvt,nav-sat…), the others off; 'none' turns UBX off.",
        convert: parseMessages)
    private static let setBaud = Option<BaudRate?>(
        long: "set-baud", valueName: "rate", help: "Switch the receiver's port to this rate (4800…921600)."
    ) {
        text throws(ValueError) in
        guard let number = Int(text), let rate = BaudRate(rawValue: number) else {
            throw .invalid(text, because: "expected a standard rate (4800…921600)")
        }
        return rate
    }
    private static let save = Flag(
        long: "save", help: "Keep the settings over a power cycle (battery-backed RAM and flash).")
    private static let reset = Option<ReceiverSettings.Reset?>(
        long: "reset", valueName: "kind", help: "Restart the receiver: hot, warm or cold.",
        choosing: ReceiverSettings.Reset.self)
    private static let dryRun = Flag(long: "dry-run", help: "Print the messages (hex and text); send nothing.")
    private static let generation = Option<GenerationChoice>(
        long: "generation", valueName: "kind",
        help: "For --dry-run: 'legacy' (u-blox 6/7/8), 'keys' (protocol 27+), or 'mediatek'.", default: .legacy)
    private static let timeout = Option<Double>(
        long: "timeout", valueName: "seconds", help: "How long to wait for each answer.", default: 1,
        in: 0.05...30)

    enum OnOff: String, CaseIterable, Sendable {
        case on, off
    }

    enum GenerationChoice: String, CaseIterable, Sendable {
        case legacy, keys, mediatek
    }

    static func parseMessages(_ text: String) throws(ValueError) -> [UBXMessageID] {
        if text.lowercased() == "none" { return [] }
        var messages: [UBXMessageID] = []
        for name in text.split(separator: ",") {
            guard let id = UBXMessageID(name: String(name)),
                UBXConfigurationKey.configurableMessages.contains(id)
            else {
                let known = UBXConfigurationKey.configurableMessages.map { $0.description.lowercased() }
                throw .invalid(String(name), because: "expected one of \(known.joined(separator: ", ")), or none")
            }
            messages.append(id)
        }
        return messages
    }

    /// The settings the options ask for.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> ReceiverSettings {
        var settings = try ReceiverConfigurationOptions.settings(arguments)
        settings.nmeaOutput = try arguments.value(nmea).map { $0 == .on }
        settings.ubxMessages = try arguments.value(ubx)
        settings.baudRate = try arguments.value(setBaud)?.rawValue
        settings.save = arguments.flag(save)
        settings.reset = try arguments.value(reset)
        return settings
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let wanted = try settings(arguments)
        let showInfo = arguments.flag(info)
        if wanted.isEmpty && !showInfo && !arguments.flag(dryRun) {
            throw arguments.usageError(
                "nothing to do: give --info, or a setting to change (--rate, --gnss, --nmea, --ubx, --set-baud, "
                    + "--save, --reset)")
        }
        if arguments.flag(dryRun) { return try ConfigDryRun.run(wanted, try arguments.value(generation)) }
        let path = try devicePath(arguments.value(device))
        let line = try open(path, baudRate: try baud.baudRate(arguments))
        let session = ConfigSession(line: line, timeout: .milliseconds(Int64(try arguments.value(timeout) * 1000)))
        return try session.run(wanted, showInfo: showInfo)
    }

    /// The device's path: as given, or for `auto` the first USB device known to be a GPS receiver.
    static func devicePath(_ argument: String?) throws -> String {
        switch DeviceSelector(argument: argument) {
        case .path(let path): return path
        case .serialNumber(let serial):
            guard let found = DeviceDiscovery()?.serialDevices().first(where: { $0.serialNumber == serial }) else {
                throw RuntimeError("no USB serial device with serial number \(serial); 'nmea devices' lists them")
            }
            return found.path
        case .auto:
            let devices = DeviceDiscovery()?.serialDevices() ?? []
            if let known = devices.first(where: { if case .gps = $0.classification { true } else { false } }) {
                return known.path
            }
            throw RuntimeError(
                "no GPS receiver found among the USB serial devices; name its device ('nmea devices --probe' "
                    + "lists candidates)")
        }
    }

    /// Opens the port at `baudRate`, or finds the receiver's rate.
    static func open(_ path: String, baudRate: BaudRate?) throws -> ReceiverLine {
        let port = try SerialPort(path: path, baudRate: baudRate ?? .b9600)
        if let baudRate { return ReceiverLine(port: port, path: path, baudRate: baudRate) }
        switch try Autobaud(sentencesNeeded: 2).run(on: port) {
        case .locked(let rate, _, _):
            return ReceiverLine(port: port, path: path, baudRate: rate)
        case .noNMEA(let tried, _):
            port.close()
            let rates = tried.map { String($0.rawValue) }.joined(separator: ", ")
            throw RuntimeError("\(path): no NMEA or UBX at any rate (tried \(rates)); is it a receiver, and is it on?")
        case .stopped, .disconnected:
            port.close()
            throw RuntimeError("\(path): the device went away while its rate was being found")
        }
    }
}
