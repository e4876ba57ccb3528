import NMEA

/// RTCM 1230: GLONASS code-phase biases.
///
///     DF002 12 · DF003 12 · DF421 1 bias indicator · DF001 3 · DF422 4 signal mask (L1 C/A, L1 P, L2 C/A, L2 P)
///     then a 16-bit bias (0.02 m) for each signal in the mask
public struct RTCMGlonassBiases: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool { number == 1230 }

    public let frame: RTCMFrame

    public init?(_ frame: RTCMFrame) {
        guard frame.payload.bitCount >= 32 else { return nil }
        let signals = frame.payload.unsigned(28, 4).nonzeroBitCount
        guard 32 + 16 * signals <= frame.payload.bitCount else { return nil }
        self.frame = frame
    }

    public var stationID: Int { Int(frame.payload.unsigned(12, 12)) }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        let bits = frame.payload
        sink.integer("station_id", Int64(stationID))
        sink.integer("ind", Int64(bits.unsigned(24, 1)))
        let mask = bits.unsigned(28, 4)
        var at = 32
        let names: [StaticString] = ["l1_ca", "l1_p", "l2_ca", "l2_p"]
        for (index, name) in names.enumerated() where mask & (8 >> UInt64(index)) != 0 {
            sink.unsigned(name, bits.unsigned(at, 16))
            at += 16
        }
    }
}
