/// What `nmea config` asks of a receiver, whatever its kind: each setting `nil` leaves that part as it is.
public struct ReceiverSettings: Sendable, Hashable {
    /// Navigation rate, fixes per second (0.1…25; u-blox M8 up to 10 Hz with one system, F9 up to 25 Hz).
    public var rateHz: Double?
    /// The constellations to track; the others are turned off.
    public var systems: Set<Constellation>?
    /// NMEA output on or off.
    public var nmeaOutput: Bool?
    /// The UBX messages to output once per epoch (u-blox only); an empty list turns UBX output off.
    public var ubxMessages: [UBXMessageID]?
    /// The port's new baud rate.
    public var baudRate: Int?
    /// Keep the settings over a power cycle (battery-backed RAM and flash).
    public var save = false
    /// Restart the receiver.
    public var reset: Reset?

    public init() {}

    /// `true` when nothing is asked (`--info` alone).
    public var isEmpty: Bool { self == ReceiverSettings() }

    /// The satellite systems a receiver may track.
    public enum Constellation: String, Sendable, Hashable, CaseIterable, Comparable {
        case gps, galileo, glonass, beidou, qzss, sbas

        /// u-blox's gnssId: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS.
        public var gnssID: UInt8 {
            switch self {
            case .gps: 0
            case .sbas: 1
            case .galileo: 2
            case .beidou: 3
            case .qzss: 5
            case .glonass: 6
            }
        }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// How much of what the receiver knows a restart forgets.
    public enum Reset: String, Sendable, Hashable, CaseIterable {
        /// Keeps everything: ephemerides, almanac, time, position.
        case hot
        /// Forgets the ephemerides.
        case warm
        /// Forgets everything it learned.
        case cold
    }
}
