import Glibc

/// A standard serial line rate, in bits per second.
public struct BaudRate: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bits per second: 9600.
    public let rawValue: Int

    /// The rate for `bitsPerSecond` when it is one of ``all``, else `nil`.
    public init?(rawValue: Int) {
        guard BaudRate.speeds[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: Int) { self.rawValue = rawValue }

    public static let b4800 = BaudRate(unchecked: 4800)
    public static let b9600 = BaudRate(unchecked: 9600)
    public static let b19200 = BaudRate(unchecked: 19200)
    public static let b38400 = BaudRate(unchecked: 38400)
    public static let b57600 = BaudRate(unchecked: 57600)
    public static let b115200 = BaudRate(unchecked: 115_200)
    public static let b230400 = BaudRate(unchecked: 230_400)
    public static let b460800 = BaudRate(unchecked: 460_800)
    public static let b921600 = BaudRate(unchecked: 921_600)

    /// Every supported rate, slowest first.
    public static let all: [BaudRate] = [
        .b4800, .b9600, .b19200, .b38400, .b57600, .b115200, .b230400, .b460800,
        .b921600,
    ]

    /// The order autobaud tries rates in (after the one remembered for the device): the common receiver defaults
    /// first — 9600 (most NMEA modules), 4800 (NMEA 0183's own rate, older and marine receivers), 115200 (many
    /// modern modules), 38400 (u-blox M9/M10 UART) — then the rest.
    public static let autobaudOrder: [BaudRate] = [
        .b9600, .b4800, .b115200, .b38400, .b57600, .b19200, .b230400,
        .b460800, .b921600,
    ]

    public var description: String { String(rawValue) }

    public static func < (lhs: BaudRate, rhs: BaudRate) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The termios speed constant (`B9600`).
    var speed: speed_t { BaudRate.speeds[rawValue]! }

    /// The rate for a termios speed constant, when it is one of ours.
    public init?(speed: speed_t) {
        guard let entry = BaudRate.speeds.first(where: { $0.value == speed }) else { return nil }
        self.init(unchecked: entry.key)
    }

    private static let speeds: [Int: speed_t] = [
        4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
        57600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800),
        921_600: speed_t(B921600),
    ]
}
