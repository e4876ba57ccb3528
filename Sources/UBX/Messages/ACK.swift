import NMEA

/// UBX ACK-ACK (`05 01`) and ACK-NAK (`05 00`), 2 bytes: the receiver's answer to a CFG message.
///
///     0 U1 clsID · 1 U1 msgID (of the message answered)
public struct ACKACK: UBXMessageBody {
    public static let id = UBXMessageID.ackACK
    /// The message acknowledged.
    public let acknowledged: UBXMessageID

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 2 else { return nil }
        acknowledged = UBXMessageID(payload.u1(0), payload.u1(1))
    }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("clsID", Int64(acknowledged.messageClass))
        sink.integer("msgID", Int64(acknowledged.messageID))
    }
}

/// UBX ACK-NAK (`05 00`): the message named was refused.
public struct ACKNAK: UBXMessageBody {
    public static let id = UBXMessageID.ackNAK
    /// The message refused.
    public let refused: UBXMessageID

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 2 else { return nil }
        refused = UBXMessageID(payload.u1(0), payload.u1(1))
    }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("clsID", Int64(refused.messageClass))
        sink.integer("msgID", Int64(refused.messageID))
    }
}
