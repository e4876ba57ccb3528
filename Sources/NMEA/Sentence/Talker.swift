/// Who sent a sentence: the two letters after `$` (`GP` in `$GPRMC`), or ``proprietary`` for `$P…` sentences.
///
/// Unknown talkers are kept as they came: `Talker("02")` for the numeric talkers of NMEA 2000 gateways.
public struct Talker: RawRepresentable, Hashable, Sendable {
    /// The ASCII letters packed little-endian: the first letter in the low byte. A zero high byte means one letter.
    public var rawValue: UInt16

    /// The talker whose packed letters are `rawValue`.
    @inlinable
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    @inlinable
    init(_ first: UInt8, _ second: UInt8) { rawValue = UInt16(first) | UInt16(second) << 8 }

    /// A talker from its letters, for example `Talker("GN")`. Letters past the second are ignored.
    public init(_ letters: String) {
        let bytes = Array(letters.utf8.prefix(2))
        self.init(bytes.first ?? 0, bytes.count > 1 ? bytes[1] : 0)
    }

    /// `GP`: GPS.
    public static var gps: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "P")) }
    /// `GL`: GLONASS.
    public static var glonass: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "L")) }
    /// `GA`: Galileo.
    public static var galileo: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "A")) }
    /// `GB`: BeiDou.
    public static var beidou: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "B")) }
    /// `BD`: BeiDou, as older receivers name it.
    public static var beidouLegacy: Talker { Talker(UInt8(ascii: "B"), UInt8(ascii: "D")) }
    /// `GQ`: QZSS.
    public static var qzss: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "Q")) }
    /// `QZ`: QZSS, as older receivers name it.
    public static var qzssLegacy: Talker { Talker(UInt8(ascii: "Q"), UInt8(ascii: "Z")) }
    /// `GI`: NavIC (IRNSS).
    public static var navic: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "I")) }
    /// `GN`: a combination of systems.
    public static var gnss: Talker { Talker(UInt8(ascii: "G"), UInt8(ascii: "N")) }
    /// `HC`, a magnetic compass.
    public static var magneticCompass: Talker { Talker(UInt8(ascii: "H"), UInt8(ascii: "C")) }
    /// `SD`, a depth sounder.
    public static var depthSounder: Talker { Talker(UInt8(ascii: "S"), UInt8(ascii: "D")) }
    /// `WI`, weather instruments.
    public static var weatherInstruments: Talker { Talker(UInt8(ascii: "W"), UInt8(ascii: "I")) }
    /// `II`, integrated instrumentation.
    public static var integratedInstrumentation: Talker { Talker(UInt8(ascii: "I"), UInt8(ascii: "I")) }
    /// `RA`, a radar or ARPA.
    public static var radar: Talker { Talker(UInt8(ascii: "R"), UInt8(ascii: "A")) }
    /// `P`: a proprietary sentence (`$PUBX`, `$PGRME`); its maker is in the ``SentenceType``.
    public static var proprietary: Talker { Talker(UInt8(ascii: "P"), 0) }

    /// The satellite system this talker reports for, when it names exactly one.
    public var system: GNSSSystem? {
        switch self {
        case .gps: .gps
        case .glonass: .glonass
        case .galileo: .galileo
        case .beidou, .beidouLegacy: .beidou
        case .qzss, .qzssLegacy: .qzss
        case .navic: .navic
        default: nil
        }
    }

    /// Calls `output` with each letter.
    @inlinable
    public func write(to output: (UInt8) -> Void) {
        output(UInt8(truncatingIfNeeded: rawValue))
        if rawValue >> 8 != 0 { output(UInt8(truncatingIfNeeded: rawValue >> 8)) }
    }
}

extension Talker: CustomStringConvertible {
    /// A readable form, for messages and tests.
    public var description: String {
        String(writing: write)
    }
}

/// A satellite navigation system, numbered as NMEA 4.10 numbers them in GSA and GSV (the "system ID").
public enum GNSSSystem: UInt8, Hashable, Sendable, CaseIterable {
    case gps = 1
    case glonass = 2
    case galileo = 3
    case beidou = 4
    case qzss = 5
    case navic = 6

    /// The system's usual name: `"GPS"`, `"GLONASS"`, `"Galileo"`, `"BeiDou"`, `"QZSS"`, `"NavIC"`.
    public var name: String {
        switch self {
        case .gps: "GPS"
        case .glonass: "GLONASS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .qzss: "QZSS"
        case .navic: "NavIC"
        }
    }
}
extension GNSSSystem: BitwiseCopyable {}
