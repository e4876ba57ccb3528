import NMEA
import SerialPort
import System
import UBX

/// One `nmea config` run against a receiver: identify it (u-blox MON-VER, else MediaTek PMTK605), print what it is
/// and (`--info`) how it is set, then send what was asked, one message at a time, printing each answer.
struct ConfigSession {
    let line: ReceiverLine
    let timeout: Duration
    /// Where each line of what happened goes: standard output for `nmea config`, standard error for `record`.
    var report: (String) -> Void = { print($0) }

    func run(_ settings: ReceiverSettings, showInfo: Bool) throws -> Int32 {
        let ublox = UBloxConversation(line: line, timeout: timeout)
        if let identity = try ublox.identify() {
            let model = identity.value("MOD") ?? "u-blox"
            let firmware = identity.value("FWVER") ?? identity.software
            let version = identity.protocolVersion.map { NumberText.number($0) } ?? "14 or older"
            report("receiver    u-blox \(model), firmware \(firmware), hardware \(identity.hardware)")
            report("protocol    \(version): \(Self.describe(identity.generation))")
            report("port        \(line.path) at \(line.baudRate.rawValue) baud")
            if showInfo { try printSettings(ublox, identity.generation) }
            return try configure(ublox, identity.generation, settings)
        }
        let mediatek = MediaTekConversation(line: line, timeout: timeout, report: report)
        if let firmware = try mediatek.identify() {
            report("receiver    MediaTek \(firmware)")
            report("port        \(line.path) at \(line.baudRate.rawValue) baud")
            return try mediatek.configure(settings)
        }
        throw RuntimeError(
            "\(line.path): the receiver answers neither u-blox MON-VER nor MediaTek PMTK605 at \(line.baudRate.rawValue) "
                + "baud; 'nmea config' talks to u-blox and MediaTek receivers")
    }

    static func describe(_ generation: UBXGeneration) -> String {
        switch generation {
        case .legacy: "legacy configuration (CFG-RATE, CFG-MSG, CFG-PRT, CFG-GNSS)"
        case .configurationInterface: "configuration interface (CFG-VALSET and CFG-VALGET keys)"
        }
    }

    // MARK: Reading the settings

    private func printSettings(_ ublox: UBloxConversation, _ generation: UBXGeneration) throws {
        switch generation {
        case .configurationInterface:
            var keys = [
                UBXConfigurationKey.rateMeasurement, UBXConfigurationKey.uart1BaudRate,
                UBXConfigurationKey.uart1OutputNMEA, UBXConfigurationKey.uart1OutputUBX,
            ]
            keys += ReceiverSettings.Constellation.allCases.map(UBXConfigurationKey.signalEnable)
            let messages = UBXConfigurationKey.configurableMessages.filter {
                UBXConfigurationKey.messageOutputUART1($0) != nil
            }
            keys += messages.compactMap(UBXConfigurationKey.messageOutputUART1)
            guard let values = try ublox.values(keys) else {
                report("settings    (the receiver did not answer CFG-VALGET)")
                return
            }
            if let milliseconds = values[UBXConfigurationKey.rateMeasurement] {
                report("rate        \(Self.hertz(Int(milliseconds))) (\(milliseconds) ms)")
            }
            let systems = ReceiverSettings.Constellation.allCases.filter {
                values[UBXConfigurationKey.signalEnable($0)] == 1
            }
            report("systems     \(systems.map(\.rawValue).joined(separator: ", "))")
            let on = messages.filter { id in UBXConfigurationKey.messageOutputUART1(id).flatMap { values[$0] } ?? 0 > 0
            }
            report(
                "output      NMEA \(values[UBXConfigurationKey.uart1OutputNMEA] == 1 ? "on" : "off"), UBX "
                    + "\(values[UBXConfigurationKey.uart1OutputUBX] == 1 ? "on" : "off")"
                    + (on.isEmpty ? "" : ": " + on.map(\.description).joined(separator: ", ")))
            if let baud = values[UBXConfigurationKey.uart1BaudRate] { report("uart1       \(baud) baud") }
        case .legacy:
            if let rate = try ublox.poll(.poll(.cfgRATE)), rate.count >= 6 {
                let milliseconds = Int(rate[0]) | Int(rate[1]) << 8
                report("rate        \(Self.hertz(milliseconds)) (\(milliseconds) ms)")
            }
            if let gnss = try ublox.poll(.poll(.cfgGNSS)), gnss.count >= 4 {
                var systems: [String] = []
                for block in 0..<Int(gnss[3]) where 4 + 8 * block + 8 <= gnss.count {
                    let at = 4 + 8 * block
                    guard gnss[at + 4] & 1 != 0,
                        let system = ReceiverSettings.Constellation.allCases.first(where: { $0.gnssID == gnss[at] })
                    else { continue }
                    systems.append(system.rawValue)
                }
                report("systems     \(systems.joined(separator: ", "))")
            }
            if let port = try ublox.poll(.poll(.cfgPRT)), port.count >= 20 {
                let baud = Int(port[8]) | Int(port[9]) << 8 | Int(port[10]) << 16 | Int(port[11]) << 24
                let output = port[14]
                report("output      NMEA \(output & 2 != 0 ? "on" : "off"), UBX \(output & 1 != 0 ? "on" : "off")")
                report("port \(port[0])      \(baud) baud")
            }
        }
    }

    static func hertz(_ milliseconds: Int) -> String {
        milliseconds > 0 ? NumberText.number((100_000 / Double(milliseconds)).rounded() / 100) + " Hz" : "?"
    }

    // MARK: Changing them

    private func configure(_ ublox: UBloxConversation, _ generation: UBXGeneration, _ settings: ReceiverSettings)
        throws -> Int32
    {
        guard !settings.isEmpty else { return ExitStatus.success }
        var polled: [UBXMessageID: [UInt8]] = [:]
        for id in UBXConfigurationPlan.polls(for: settings, generation) {
            if let payload = try ublox.poll(.poll(id)) { polled[id] = payload }
        }
        let commands: [UBXCommand]
        do {
            commands = try UBXConfigurationPlan.commands(for: settings, generation, polled: polled)
        } catch {
            throw RuntimeError("\(line.path): \(error.description)")
        }
        var failed = false
        for command in commands {
            if let rate = command.newBaudRate, let baud = BaudRate(rawValue: rate) {
                switch try ublox.switchBaud(command, to: baud) {
                case .confirmed:
                    report("\(command.text): acknowledged; answering at \(rate) baud")
                case .stayed(let outcome):
                    failed = true
                    report("\(command.text): \(outcome.text); still at \(line.baudRate.rawValue) baud")
                case .lost:
                    failed = true
                    report("\(command.text): the receiver answers at neither rate; 'nmea config --info' finds it")
                    return ExitStatus.failure
                }
                continue
            }
            let outcome = try ublox.send(command)
            if outcome == .refused || outcome == .noAnswer { failed = true }
            report("\(command.text): \(outcome.text)")
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }
}
