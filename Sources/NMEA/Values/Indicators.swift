/// The FAA mode indicator of NMEA 2.3 and later (RMC, GLL, VTG, GNS): how the position was obtained.
///
/// Decoders read only the letters NMEA defines (``letters``); any other is a field error, never passed on.
public struct FAAMode: RawRepresentable, Hashable, Sendable, FixedListElement {
    /// The ASCII letter.
    public var rawValue: UInt8
    /// The value written as the letter `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// An empty slot of a fixed list.
    public static var placeholder: FAAMode { FAAMode(rawValue: 0) }

    /// The letters NMEA 0183 4.11 defines: `A D E F M N P R S`.
    public static let letters: StaticString = "ADEFMNPRS"

    /// `A`: autonomous GNSS fix.
    public static let autonomous = FAAMode(rawValue: UInt8(ascii: "A"))
    /// `D`: differential (DGPS, SBAS).
    public static let differential = FAAMode(rawValue: UInt8(ascii: "D"))
    /// `E`: estimated (dead reckoning).
    public static let estimated = FAAMode(rawValue: UInt8(ascii: "E"))
    /// `F`: RTK float.
    public static let rtkFloat = FAAMode(rawValue: UInt8(ascii: "F"))
    /// `M`: manual input.
    public static let manual = FAAMode(rawValue: UInt8(ascii: "M"))
    /// `N`: no fix, data not valid.
    public static let notValid = FAAMode(rawValue: UInt8(ascii: "N"))
    /// `P`: precise (military P-code or equivalent).
    public static let precise = FAAMode(rawValue: UInt8(ascii: "P"))
    /// `R`: RTK fixed integer.
    public static let rtkFixed = FAAMode(rawValue: UInt8(ascii: "R"))
    /// `S`: simulator.
    public static let simulator = FAAMode(rawValue: UInt8(ascii: "S"))

    /// `false` only for ``notValid``.
    public var isValid: Bool { self != .notValid }
}

/// The navigational status of NMEA 4.10 RMC and GNS.
public struct NavigationalStatus: RawRepresentable, Hashable, Sendable {
    /// The letter as sent.
    public var rawValue: UInt8
    /// The value written as the letter `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The letters NMEA 0183 4.10 defines: `S C U V`.
    public static let letters: StaticString = "SCUV"

    /// `S`: safe.
    public static let safe = NavigationalStatus(rawValue: UInt8(ascii: "S"))
    /// `C`: caution.
    public static let caution = NavigationalStatus(rawValue: UInt8(ascii: "C"))
    /// `U`: unsafe.
    public static let unsafe = NavigationalStatus(rawValue: UInt8(ascii: "U"))
    /// `V`: not valid for navigation.
    public static let notValid = NavigationalStatus(rawValue: UInt8(ascii: "V"))
}

/// The GGA fix quality (field 6).
public struct GGAQuality: RawRepresentable, Hashable, Sendable {
    /// The letter as sent.
    public var rawValue: UInt8
    /// The value written as the letter `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0: no fix.
    public static let invalid = GGAQuality(rawValue: 0)
    /// 1: autonomous GNSS fix.
    public static let gps = GGAQuality(rawValue: 1)
    /// 2: differential GNSS fix (DGPS, SBAS).
    public static let differential = GGAQuality(rawValue: 2)
    /// 3: PPS / precise fix.
    public static let pps = GGAQuality(rawValue: 3)
    /// 4: RTK fixed integer.
    public static let rtkFixed = GGAQuality(rawValue: 4)
    /// 5: RTK float.
    public static let rtkFloat = GGAQuality(rawValue: 5)
    /// 6: estimated (dead reckoning).
    public static let estimated = GGAQuality(rawValue: 6)
    /// 7: manual input.
    public static let manual = GGAQuality(rawValue: 7)
    /// 8: simulator.
    public static let simulator = GGAQuality(rawValue: 8)

    /// `true` for every quality but ``invalid``.
    public var hasFix: Bool { rawValue != 0 }
}

/// The fix type of a GSA sentence (field 2).
public enum GSAFixType: UInt8, Hashable, Sendable {
    case none = 1
    case twoD = 2
    case threeD = 3
}
