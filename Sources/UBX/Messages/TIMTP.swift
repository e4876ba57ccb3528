import NMEA

/// UBX TIM-TP (`0D 01`, 16 bytes): the time of the next time pulse.
///
///     0 U4 towMS ms · 4 U4 towSubMS 2^-32 ms · 8 I4 qErr ps · 12 U2 week · 14 X1 flags · 15 X1 refInfo
public struct TIMTP: UBXMessageBody {
    public static let id = UBXMessageID.timTP
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 16 else { return nil }
        self.payload = payload
    }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("towMS", Int64(payload.u4(0)))
        sink.integer("towSubMS", Int64(payload.u4(4)))
        sink.integer("qErr", Int64(payload.i4(8)))
        sink.integer("week", Int64(payload.u2(12)))
        sink.integer("flags", Int64(payload.u1(14)))
        sink.integer("refInfo", Int64(payload.u1(15)))
    }
}
