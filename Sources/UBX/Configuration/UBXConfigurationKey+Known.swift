extension UBXConfigurationKey {
    // The keys of the configuration interface (protocol 27+: M9, M10, F9, X20) that `nmea config` sets and reads.
    // Bits 28–30 give the value's size (1 one bit, 2 one byte, 3 two, 4 four bytes).

    /// CFG-RATE-MEAS: the measurement period, ms (U2).
    public static let rateMeasurement: UInt32 = 0x3021_0001
    /// CFG-RATE-NAV: measurements per navigation solution (U2).
    public static let rateNavigation: UInt32 = 0x3021_0002
    /// CFG-UART1-BAUDRATE (U4).
    public static let uart1BaudRate: UInt32 = 0x4052_0001
    /// CFG-UART1OUTPROT-UBX and -NMEA, CFG-USBOUTPROT-UBX and -NMEA: the protocols out of each port (L).
    public static let uart1OutputUBX: UInt32 = 0x1074_0001
    public static let uart1OutputNMEA: UInt32 = 0x1074_0002
    public static let usbOutputUBX: UInt32 = 0x1078_0001
    public static let usbOutputNMEA: UInt32 = 0x1078_0002

    /// CFG-SIGNAL-xxx_ENA: a constellation on or off (L).
    public static func signalEnable(_ system: ReceiverSettings.Constellation) -> UInt32 {
        switch system {
        case .gps: 0x1031_001F
        case .sbas: 0x1031_0020
        case .galileo: 0x1031_0021
        case .beidou: 0x1031_0022
        case .qzss: 0x1031_0024
        case .glonass: 0x1031_0025
        }
    }

    /// CFG-MSGOUT-UBX_…_UART1: how often a message is output on UART1, per navigation solution (U1); the same
    /// message's USB key is two above it. `nil` for a message with no output key here.
    public static func messageOutputUART1(_ id: UBXMessageID) -> UInt32? {
        switch id {
        case .navPVT: 0x2091_0007
        case .navSAT: 0x2091_0016
        case .navSTATUS: 0x2091_001B
        case .navPOSECEF: 0x2091_0025
        case .navPOSLLH: 0x2091_002A
        case .navHPPOSLLH: 0x2091_0034
        case .navDOP: 0x2091_0039
        case .navVELECEF: 0x2091_003E
        case .navVELNED: 0x2091_0043
        case .navTIMEGPS: 0x2091_0048
        case .navTIMEUTC: 0x2091_005C
        case .navEOE: 0x2091_0160
        case .navSIG: 0x2091_0346
        case .rxmSFRBX: 0x2091_0232
        case .rxmRAWX: 0x2091_02A5
        default: nil
        }
    }

    /// The messages `--ubx` can turn on, in the order the receiver sends them.
    public static let configurableMessages: [UBXMessageID] = [
        .navPOSECEF, .navPOSLLH, .navSTATUS, .navDOP, .navPVT, .navVELECEF, .navVELNED, .navHPPOSLLH, .navTIMEGPS,
        .navTIMEUTC, .navSAT, .navSIG, .navEOE, .rxmSFRBX, .rxmRAWX,
    ]

    /// The name of a key `nmea config` knows (`CFG-RATE-MEAS`), for what it prints.
    public static func name(of key: UInt32) -> String? {
        switch key {
        case rateMeasurement: return "CFG-RATE-MEAS"
        case rateNavigation: return "CFG-RATE-NAV"
        case uart1BaudRate: return "CFG-UART1-BAUDRATE"
        case uart1OutputUBX: return "CFG-UART1OUTPROT-UBX"
        case uart1OutputNMEA: return "CFG-UART1OUTPROT-NMEA"
        case usbOutputUBX: return "CFG-USBOUTPROT-UBX"
        case usbOutputNMEA: return "CFG-USBOUTPROT-NMEA"
        default: break
        }
        for system in ReceiverSettings.Constellation.allCases where signalEnable(system) == key {
            let names: [ReceiverSettings.Constellation: String] = [
                .gps: "GPS", .sbas: "SBAS", .galileo: "GAL", .beidou: "BDS", .qzss: "QZSS", .glonass: "GLO",
            ]
            return "CFG-SIGNAL-\(names[system]!)_ENA"
        }
        for id in configurableMessages {
            guard let uart1 = messageOutputUART1(id) else { continue }
            let message = String(id.description.map { $0 == "-" ? "_" : $0 })
            if key == uart1 { return "CFG-MSGOUT-UBX_\(message)_UART1" }
            if key == uart1 + 2 { return "CFG-MSGOUT-UBX_\(message)_USB" }
        }
        return nil
    }
}
