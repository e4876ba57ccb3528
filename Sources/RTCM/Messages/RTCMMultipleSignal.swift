import NMEA

/// The Multiple Signal Messages, MSM1 to MSM7 of every system (1071–1077 GPS, 1081–1087 GLONASS, 1091–1097
/// Galileo, 1101–1107 SBAS, 1111–1117 QZSS, 1121–1127 BeiDou, 1131–1137 NavIC): the epoch, and which satellites,
/// signals and cells (satellite and signal pairs) the message carries.
///
///     DF002 12 · DF003 12 · epoch 30 (GPS time of week ms; GLONASS 3 bits of day, 27 of ms) · DF393 1 multiple
///     message · DF409 3 IODS · DF001 7 · DF411 2 clock steering · DF412 2 external clock · DF417 1 smoothing
///     DF418 3 interval · DF394 64 satellite mask · DF395 32 signal mask · DF396 satellites × signals cell mask
public struct RTCMMultipleSignal: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool {
        guard (1071...1137).contains(number) else { return false }
        return (1...7).contains(number % 10)
    }

    public let frame: RTCMFrame

    public init?(_ frame: RTCMFrame) {
        guard frame.payload.bitCount >= 169 else { return nil }
        self.frame = frame
        guard satelliteCount * signalCount <= 64, 169 + satelliteCount * signalCount <= frame.payload.bitCount else {
            return nil
        }
    }

    private var bits: RTCMBits { frame.payload }
    public var stationID: Int { Int(bits.unsigned(12, 12)) }
    /// The system, as gpsd and u-blox number them (0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS, 7 NavIC).
    public var gnssID: Int {
        switch frame.messageNumber / 10 {
        case 107: 0
        case 108: 6
        case 109: 2
        case 110: 1
        case 111: 5
        case 112: 3
        default: 7
        }
    }
    /// MSM1 to MSM7.
    public var kind: Int { frame.messageNumber % 10 }
    /// The epoch as sent: GPS-like time of week in ms, or for GLONASS the day (3 bits) and time of day.
    public var epoch: UInt64 { bits.unsigned(24, 30) }
    public var satelliteMask: UInt64 { bits.unsigned(73, 64) }
    public var signalMask: UInt64 { bits.unsigned(137, 32) }
    public var satelliteCount: Int { satelliteMask.nonzeroBitCount }
    public var signalCount: Int { signalMask.nonzeroBitCount }
    public var cellMask: UInt64 { bits.unsigned(169, satelliteCount * signalCount) }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        sink.integer("station_id", Int64(stationID))
        sink.integer("gnssid", Int64(gnssID))
        let subtypes: [StaticString] = ["MSM0", "MSM1", "MSM2", "MSM3", "MSM4", "MSM5", "MSM6", "MSM7"]
        sink.text("subtype", String(describing: subtypes[kind]))
        sink.unsigned("tow", epoch)
        sink.text("sync", String(bits.unsigned(54, 1)))
        sink.integer("IODS", Int64(bits.unsigned(55, 3)))
        sink.integer("steering", Int64(bits.unsigned(65, 2)))
        sink.integer("extclk", Int64(bits.unsigned(67, 2)))
        sink.integer("smoothing", Int64(bits.unsigned(69, 1)))
        sink.integer("interval", Int64(bits.unsigned(70, 3)))
        sink.unsigned("MaskSat", satelliteMask)
        sink.unsigned("MaskSig", signalMask)
        sink.unsigned("MaskCell", cellMask)
        sink.integer("NSat", Int64(satelliteCount))
        sink.integer("NSig", Int64(signalCount))
        sink.integer("NCell", Int64(cellMask.nonzeroBitCount))
    }
}
