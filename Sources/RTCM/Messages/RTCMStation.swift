import NMEA

/// RTCM 1005 and 1006: the reference station's antenna reference point in Earth-centred coordinates (and 1006 its
/// antenna height).
///
///     DF002 12 · DF003 12 station · DF021 6 ITRF year · DF022 1 GPS · DF023 1 GLONASS · DF024 1 Galileo
///     DF141 1 reference station · DF025 38 X (0.1 mm, signed) · DF142 1 single oscillator · DF001 1
///     DF026 38 Y · DF364 2 quarter cycle · DF027 38 Z · 1006: DF028 16 antenna height (0.1 mm)
public struct RTCMStation: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool { number == 1005 || number == 1006 }

    public let frame: RTCMFrame

    public init?(_ frame: RTCMFrame) {
        let bits = frame.messageNumber == 1006 ? 168 : 152
        guard frame.payload.bitCount >= bits else { return nil }
        self.frame = frame
    }

    private var bits: RTCMBits { frame.payload }
    public var stationID: Int { Int(bits.unsigned(12, 12)) }
    public var gps: Bool { bits.unsigned(30, 1) == 1 }
    public var glonass: Bool { bits.unsigned(31, 1) == 1 }
    public var galileo: Bool { bits.unsigned(32, 1) == 1 }
    public var isReferenceStation: Bool { bits.unsigned(33, 1) == 1 }
    /// Earth-centred coordinates, metres.
    public var x: Double { Double(bits.signed(34, 38)) / 10_000 }
    public var singleReceiverOscillator: Bool { bits.unsigned(72, 1) == 1 }
    public var y: Double { Double(bits.signed(74, 38)) / 10_000 }
    public var z: Double { Double(bits.signed(114, 38)) / 10_000 }
    /// 1006: the antenna height above the marker, metres.
    public var antennaHeight: Double? { frame.messageNumber == 1006 ? Double(bits.unsigned(152, 16)) / 10_000 : nil }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        sink.integer("station_id", Int64(stationID))
        var systems: [StaticString] = []
        if gps { systems.append("GPS") }
        if glonass { systems.append("GLONASS") }
        if galileo { systems.append("GALILEO") }
        sink.textList("system", systems)
        sink.bool("refstation", isReferenceStation)
        sink.bool("sro", singleReceiverOscillator)
        sink.number("x", x, decimals: 4)
        sink.number("y", y, decimals: 4)
        sink.number("z", z, decimals: 4)
        if let antennaHeight { sink.number("h", antennaHeight, decimals: 4) }
    }
}
