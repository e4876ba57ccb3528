import NMEA

/// A MediaTek `$PMTK` command (MT3329, MT3339 and their modules: PA6H, GTOP, Adafruit Ultimate GPS…) and the
/// number its `$PMTK001,<command>,<flag>` acknowledgement names.
public struct PMTKCommand: Sendable, Hashable {
    /// The command number (220 rate, 251 baud, 314 sentences, 353 constellations, 605 firmware, 101–103 restarts).
    public let number: Int
    /// The whole sentence, `$PMTK…*hh` and CR LF.
    public let sentence: String
    /// `true` for a command the chip acknowledges with PMTK001 (not 251: the rate changes at once, nor the
    /// restarts, nor the 605 query, which PMTK705 answers).
    public let awaitsAcknowledgement: Bool
    /// The baud rate the port runs at afterwards, for PMTK251.
    public let newBaudRate: Int?

    init(_ number: Int, _ fields: [String], acknowledged: Bool = true, newBaudRate: Int? = nil) {
        self.number = number
        let body = "PMTK\(number)" + fields.map { "," + $0 }.joined()
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        sentence = "$" + body + "*" + Hex.string(UInt64(checksum), minimumDigits: 2) + "\r\n"
        awaitsAcknowledgement = acknowledged
        self.newBaudRate = newBaudRate
    }

    /// The sentence without its line ending, for printing.
    public var text: String { String(sentence.prefix { $0 != "\r\n" && $0 != "\r" && $0 != "\n" }) }

    /// PMTK605: the firmware release, answered by `$PMTK705,<release>,<build>,<model>,…`.
    public static let firmwareQuery = PMTKCommand(605, [], acknowledged: false)

    /// PMTK220: a fix every `milliseconds` (100…10000).
    public static func rate(milliseconds: Int) -> PMTKCommand { PMTKCommand(220, [String(milliseconds)]) }

    /// PMTK251: the port's baud rate.
    public static func baudRate(_ rate: Int) -> PMTKCommand {
        PMTKCommand(251, [String(rate)], acknowledged: false, newBaudRate: rate)
    }

    /// PMTK314: which sentences every fix — GLL, RMC, VTG, GGA, GSA, GSV (and twelve more, off); all off for none.
    public static func sentences(on: Bool) -> PMTKCommand {
        // GLL, RMC, VTG, GGA, GSA, GSV, then 13 reserved or chip-specific (ZDA is the 18th), all in fixes per output.
        let fields =
            on ? ["0", "1", "1", "1", "1", "5"] + Array(repeating: "0", count: 13) : Array(repeating: "0", count: 19)
        return PMTKCommand(314, fields)
    }

    /// PMTK353: the constellations (GPS, GLONASS, Galileo, Galileo full, BeiDou); `nil` when asked for one this
    /// command cannot choose (QZSS, SBAS).
    public static func constellations(_ systems: Set<ReceiverSettings.Constellation>) -> PMTKCommand? {
        guard systems.isSubset(of: [.gps, .glonass, .galileo, .beidou]) else { return nil }
        let flags = [
            systems.contains(.gps), systems.contains(.glonass), systems.contains(.galileo), false,
            systems.contains(.beidou),
        ]
        return PMTKCommand(353, flags.map { $0 ? "1" : "0" })
    }

    /// PMTK101, 102, 103: hot, warm and cold restarts.
    public static func restart(_ kind: ReceiverSettings.Reset) -> PMTKCommand {
        switch kind {
        case .hot: PMTKCommand(101, [], acknowledged: false)
        case .warm: PMTKCommand(102, [], acknowledged: false)
        case .cold: PMTKCommand(103, [], acknowledged: false)
        }
    }

    /// The commands for `settings`; a setting MediaTek chips cannot take is named in `unsupported`.
    public static func commands(for settings: ReceiverSettings) -> (commands: [PMTKCommand], unsupported: [String]) {
        var commands: [PMTKCommand] = []
        var unsupported: [String] = []
        if let hz = settings.rateHz { commands.append(.rate(milliseconds: Int((1000 / hz).rounded()))) }
        if let systems = settings.systems {
            if let command = constellations(systems) {
                commands.append(command)
            } else {
                unsupported.append("--gnss with qzss or sbas (PMTK353 chooses GPS, GLONASS, Galileo and BeiDou)")
            }
        }
        if let nmea = settings.nmeaOutput { commands.append(.sentences(on: nmea)) }
        if settings.ubxMessages != nil { unsupported.append("--ubx (MediaTek chips speak no UBX)") }
        if settings.save { unsupported.append("--save (MediaTek chips keep their settings as their firmware does)") }
        if let baud = settings.baudRate { commands.append(.baudRate(baud)) }
        if let reset = settings.reset { commands.append(.restart(reset)) }
        return (commands, unsupported)
    }

    /// The acknowledgement a sentence holds: the command it answers and whether it was done (`$PMTK001,220,3`:
    /// flag 3 done; 0 invalid, 1 unsupported, 2 failed).
    public static func acknowledgement(_ sentence: String) -> (command: Int, done: Bool, flag: Int)? {
        guard sentence.hasPrefix("$PMTK001,") else { return nil }
        let body = sentence.dropFirst(9).prefix { $0 != "*" }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 2, let command = Int(fields[0]), let flag = Int(fields[1]) else { return nil }
        return (command, flag == 3, flag)
    }
}
