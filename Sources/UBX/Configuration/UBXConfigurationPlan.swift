/// The two ways u-blox receivers are configured, told apart by MON-VER's protocol version.
public enum UBXGeneration: String, Sendable, Hashable {
    /// u-blox 6, 7 and 8 (protocol up to 23): CFG-RATE, CFG-MSG, CFG-PRT, CFG-GNSS.
    case legacy
    /// M9, M10, F9, X20 (protocol 27 and later): keys and values, CFG-VALSET and CFG-VALGET.
    case configurationInterface

    /// The generation of a receiver reporting `protocolVersion` (none: u-blox 6 and older, legacy).
    public init(protocolVersion: Double?) {
        self = (protocolVersion ?? 0) >= 27 ? .configurationInterface : .legacy
    }
}

/// The messages that bring a u-blox receiver to ``ReceiverSettings``, in the order to send them: what it tracks and
/// outputs first, the baud rate after (each message until then is answered at the rate the tool knows), saving,
/// then a restart.
public enum UBXConfigurationPlan {
    /// What went wrong in making the plan.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A rate the receiver cannot run at.
        case rate(Double)
        /// A legacy receiver did not answer the poll the plan needs (CFG-PRT, CFG-GNSS).
        case missingPoll(UBXMessageID)

        public var description: String {
            switch self {
            case .rate(let hz): "a rate of \(hz) Hz is out of range (0.1…25 Hz)"
            case .missingPoll(let id): "the receiver did not answer a poll of \(id)"
            }
        }
    }

    /// The current settings a legacy receiver must report before its plan can be made: CFG-PRT to change the port
    /// (its other fields are kept), CFG-GNSS to change the systems (its channel numbers are kept).
    public static func polls(for settings: ReceiverSettings, _ generation: UBXGeneration) -> [UBXMessageID] {
        guard generation == .legacy else { return [] }
        var polls: [UBXMessageID] = []
        if settings.baudRate != nil || settings.nmeaOutput != nil || settings.ubxMessages != nil {
            polls.append(.cfgPRT)
        }
        if settings.systems != nil { polls.append(.cfgGNSS) }
        return polls
    }

    /// The commands, given the answers to ``polls(for:_:)`` (their payloads by message).
    public static func commands(
        for settings: ReceiverSettings, _ generation: UBXGeneration, polled: [UBXMessageID: [UInt8]] = [:]
    ) throws(Failure) -> [UBXCommand] {
        var commands: [UBXCommand] = []
        var milliseconds: Int?
        if let hz = settings.rateHz {
            guard hz >= 0.1 && hz <= 25 else { throw .rate(hz) }
            milliseconds = Int((1000 / hz).rounded())
        }
        switch generation {
        case .configurationInterface:
            var values: [(key: UInt32, value: UInt64)] = []
            if let milliseconds {
                values.append((UBXConfigurationKey.rateMeasurement, UInt64(milliseconds)))
                values.append((UBXConfigurationKey.rateNavigation, 1))
            }
            if let systems = settings.systems {
                for system in ReceiverSettings.Constellation.allCases {
                    values.append((UBXConfigurationKey.signalEnable(system), systems.contains(system) ? 1 : 0))
                }
            }
            if let messages = settings.ubxMessages {
                for id in UBXConfigurationKey.configurableMessages {
                    guard let key = UBXConfigurationKey.messageOutputUART1(id) else { continue }
                    let rate: UInt64 = messages.contains(id) ? 1 : 0
                    values.append((key, rate))
                    values.append((key + 2, rate))  // the same message on USB
                }
                values.append((UBXConfigurationKey.uart1OutputUBX, messages.isEmpty ? 0 : 1))
                values.append((UBXConfigurationKey.usbOutputUBX, messages.isEmpty ? 0 : 1))
            }
            if let nmea = settings.nmeaOutput {
                values.append((UBXConfigurationKey.uart1OutputNMEA, nmea ? 1 : 0))
                values.append((UBXConfigurationKey.usbOutputNMEA, nmea ? 1 : 0))
            }
            if !values.isEmpty { commands.append(.valueSet(values, save: false)) }
            if let baud = settings.baudRate {
                var command = UBXCommand.valueSet([(UBXConfigurationKey.uart1BaudRate, UInt64(baud))], save: false)
                command = UBXCommand(command, newBaudRate: baud)
                commands.append(command)
            }
        case .legacy:
            if let milliseconds { commands.append(.rate(milliseconds: milliseconds)) }
            if let systems = settings.systems {
                guard let current = polled[.cfgGNSS], let command = UBXCommand.gnss(current: current, systems: systems)
                else { throw .missingPoll(.cfgGNSS) }
                commands.append(command)
            }
            if let messages = settings.ubxMessages {
                for id in UBXConfigurationKey.configurableMessages {
                    commands.append(.messageRate(id, rate: messages.contains(id) ? 1 : 0))
                }
            }
            if settings.nmeaOutput != nil || settings.ubxMessages != nil {
                let ubx = settings.ubxMessages.map { !$0.isEmpty }
                guard let current = polled[.cfgPRT],
                    let command = UBXCommand.port(current: current, baudRate: nil, nmea: settings.nmeaOutput, ubx: ubx)
                else { throw .missingPoll(.cfgPRT) }
                commands.append(command)
            }
            if let baud = settings.baudRate {
                guard let current = polled[.cfgPRT],
                    let command = UBXCommand.port(current: current, baudRate: baud, nmea: nil, ubx: nil)
                else { throw .missingPoll(.cfgPRT) }
                commands.append(command)
            }
        }
        if settings.save { commands.append(.save()) }
        if let reset = settings.reset { commands.append(.reset(reset)) }
        return commands
    }
}

extension UBXCommand {
    /// `command`, marked as changing the port's rate to `newBaudRate`.
    init(_ command: UBXCommand, newBaudRate: Int) {
        self.init(frame: command.frame, id: command.id, text: command.text, newBaudRate: newBaudRate)
    }
}
