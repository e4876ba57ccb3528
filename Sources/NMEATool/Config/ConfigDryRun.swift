import NMEA
import UBX

/// `nmea config --dry-run`: the messages a run would send, in hex and as text, for the generation given. A legacy
/// receiver's port and GNSS settings are read before a real run; here a u-blox 8's defaults stand in for them.
enum ConfigDryRun {
    static func run(_ settings: ReceiverSettings, _ generation: ConfigCommand.GenerationChoice) throws -> Int32 {
        switch generation {
        case .mediatek:
            let (commands, unsupported) = PMTKCommand.commands(for: settings)
            for item in unsupported { print("not sent    \(item)") }
            for command in commands { print(command.text) }
            return ExitStatus.success
        case .legacy, .keys:
            let kind: UBXGeneration = generation == .keys ? .configurationInterface : .legacy
            let commands: [UBXCommand]
            do {
                commands = try UBXConfigurationPlan.commands(for: settings, kind, polled: defaults)
            } catch {
                throw RuntimeError(error.description)
            }
            for command in commands {
                print(command.text)
                print("  " + command.hex)
            }
            return ExitStatus.success
        }
    }

    /// A u-blox 8's answers to the CFG-PRT and CFG-GNSS polls: UART1 at 9600 8N1, UBX, NMEA and RTCM in, UBX and
    /// NMEA out; GPS, SBAS, Galileo, BeiDou, QZSS and GLONASS blocks with GPS, SBAS, QZSS and GLONASS on.
    static let defaults: [UBXMessageID: [UInt8]] = {
        var port = UBXPayloadBuilder()
        port.u1(1)
        port.zeros(3)
        port.u4(0x08D0)
        port.u4(9600)
        port.u2(7)
        port.u2(3)
        port.zeros(4)
        var gnss = UBXPayloadBuilder()
        gnss.u1(0)
        gnss.u1(32)
        gnss.u1(32)
        gnss.u1(6)
        for (id, reserved, maximum, on) in [
            (0, 8, 16, true), (1, 1, 3, true), (2, 4, 8, false), (3, 8, 16, false), (5, 0, 3, true), (6, 8, 14, true),
        ] as [(UInt8, UInt8, UInt8, Bool)] {
            gnss.u1(id)
            gnss.u1(reserved)
            gnss.u1(maximum)
            gnss.u1(0)
            gnss.u4((on ? 1 : 0) | 0x0001_0000)
        }
        return [.cfgPRT: port.bytes, .cfgGNSS: gnss.bytes]
    }()
}
