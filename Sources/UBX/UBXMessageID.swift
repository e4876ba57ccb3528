/// A UBX message's class and ID (`01 07` is NAV-PVT), with its name as the interface description writes it.
public struct UBXMessageID: Hashable, Sendable, CustomStringConvertible {
    /// The class byte (`0x01` NAV, `0x05` ACK, `0x06` CFG, `0x0A` MON, `0x0D` TIM, `0x21` LOG, `0x28` HNR…).
    public let messageClass: UInt8
    /// The ID byte within the class.
    public let messageID: UInt8

    @inlinable
    public init(_ messageClass: UInt8, _ messageID: UInt8) {
        self.messageClass = messageClass
        self.messageID = messageID
    }

    /// Class and ID as one number, class first (`0x0107`).
    public var rawValue: UInt16 { UInt16(messageClass) << 8 | UInt16(messageID) }

    /// `NAV-PVT`, or for a message not named here its class's name and the ID in hex (`NAV-26`, `0x2A-01`).
    public var description: String {
        if let name = UBXMessageID.names[self] { return name }
        let hex = hex2(messageID)
        if let className = UBXMessageID.classNames[messageClass] { return className + "-" + hex }
        return "0x" + hex2(messageClass) + "-" + hex
    }

    /// The message named `name`, in any case (`nav-pvt`, `NAV-PVT`); `nil` for a name not known.
    public init?(name: String) {
        let upper = name.uppercased()
        guard let match = UBXMessageID.names.first(where: { $0.value == upper }) else { return nil }
        self = match.key
    }

    private func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    static let classNames: [UInt8: String] = [
        0x01: "NAV", 0x02: "RXM", 0x04: "INF", 0x05: "ACK", 0x06: "CFG", 0x09: "UPD", 0x0A: "MON", 0x0B: "AID",
        0x0D: "TIM", 0x10: "ESF", 0x13: "MGA", 0x21: "LOG", 0x27: "SEC", 0x28: "HNR",
    ]

    /// The messages this module names: those it decodes, and those `nmea config` turns on and off.
    static let names: [UBXMessageID: String] = [
        .navPOSECEF: "NAV-POSECEF", .navPOSLLH: "NAV-POSLLH", .navSTATUS: "NAV-STATUS", .navDOP: "NAV-DOP",
        .navSOL: "NAV-SOL", .navPVT: "NAV-PVT", .navVELECEF: "NAV-VELECEF", .navVELNED: "NAV-VELNED",
        .navHPPOSLLH: "NAV-HPPOSLLH", .navPVAT: "NAV-PVAT", .navTIMEGPS: "NAV-TIMEGPS", .navTIMEUTC: "NAV-TIMEUTC",
        .navSVINFO: "NAV-SVINFO", .navSAT: "NAV-SAT", .navSIG: "NAV-SIG", .navEOE: "NAV-EOE", .navCOV: "NAV-COV",
        .navCLOCK: "NAV-CLOCK", .navRELPOSNED: "NAV-RELPOSNED",
        .ackNAK: "ACK-NAK", .ackACK: "ACK-ACK",
        .cfgPRT: "CFG-PRT", .cfgMSG: "CFG-MSG", .cfgRATE: "CFG-RATE", .cfgCFG: "CFG-CFG", .cfgRST: "CFG-RST",
        .cfgGNSS: "CFG-GNSS", .cfgVALSET: "CFG-VALSET", .cfgVALGET: "CFG-VALGET",
        .monVER: "MON-VER", .timTP: "TIM-TP", .hnrPVT: "HNR-PVT", .logBATCH: "LOG-BATCH",
        .logRETRIEVEPOS: "LOG-RETRIEVEPOS", .rxmRAWX: "RXM-RAWX", .rxmSFRBX: "RXM-SFRBX",
    ]

    public static let navPOSECEF = UBXMessageID(0x01, 0x01)
    public static let navPOSLLH = UBXMessageID(0x01, 0x02)
    public static let navSTATUS = UBXMessageID(0x01, 0x03)
    public static let navDOP = UBXMessageID(0x01, 0x04)
    public static let navSOL = UBXMessageID(0x01, 0x06)
    public static let navPVT = UBXMessageID(0x01, 0x07)
    public static let navVELECEF = UBXMessageID(0x01, 0x11)
    public static let navVELNED = UBXMessageID(0x01, 0x12)
    public static let navHPPOSLLH = UBXMessageID(0x01, 0x14)
    public static let navPVAT = UBXMessageID(0x01, 0x17)
    public static let navTIMEGPS = UBXMessageID(0x01, 0x20)
    public static let navTIMEUTC = UBXMessageID(0x01, 0x21)
    public static let navCLOCK = UBXMessageID(0x01, 0x22)
    public static let navSVINFO = UBXMessageID(0x01, 0x30)
    public static let navSAT = UBXMessageID(0x01, 0x35)
    public static let navCOV = UBXMessageID(0x01, 0x36)
    public static let navRELPOSNED = UBXMessageID(0x01, 0x3C)
    public static let navSIG = UBXMessageID(0x01, 0x43)
    public static let navEOE = UBXMessageID(0x01, 0x61)
    public static let rxmSFRBX = UBXMessageID(0x02, 0x13)
    public static let rxmRAWX = UBXMessageID(0x02, 0x15)
    public static let ackNAK = UBXMessageID(0x05, 0x00)
    public static let ackACK = UBXMessageID(0x05, 0x01)
    public static let cfgPRT = UBXMessageID(0x06, 0x00)
    public static let cfgMSG = UBXMessageID(0x06, 0x01)
    public static let cfgRST = UBXMessageID(0x06, 0x04)
    public static let cfgRATE = UBXMessageID(0x06, 0x08)
    public static let cfgCFG = UBXMessageID(0x06, 0x09)
    public static let cfgGNSS = UBXMessageID(0x06, 0x3E)
    public static let cfgVALSET = UBXMessageID(0x06, 0x8A)
    public static let cfgVALGET = UBXMessageID(0x06, 0x8B)
    public static let monVER = UBXMessageID(0x0A, 0x04)
    public static let timTP = UBXMessageID(0x0D, 0x01)
    public static let logRETRIEVEPOS = UBXMessageID(0x21, 0x0B)
    public static let logBATCH = UBXMessageID(0x21, 0x11)
    public static let hnrPVT = UBXMessageID(0x28, 0x00)
}
