import NMEA

/// Sees a decoded UBX message (``UBXFrame/decode(into:)``): typed, with no allocation.
public protocol UBXMessageVisitor {
    /// A message of a type this module decodes.
    mutating func visit<Message: UBXMessageBody>(_ message: Message)
    /// A message of a type not decoded here, or one whose payload was too short for its type (`malformed`).
    mutating func visitUndecoded(_ frame: UBXFrame, malformed: Bool)
}

extension UBXFrame {
    /// Decodes the message and hands it to `visitor`: the registry of UBX types, one line each.
    /// - Returns: `true` when a decoder read it.
    @discardableResult
    public func decode<Visitor: UBXMessageVisitor>(into visitor: inout Visitor) -> Bool {
        switch id {
        case NAVPVT.id: decode(NAVPVT.self, &visitor)
        case NAVPOSLLH.id: decode(NAVPOSLLH.self, &visitor)
        case NAVHPPOSLLH.id: decode(NAVHPPOSLLH.self, &visitor)
        case NAVSOL.id: decode(NAVSOL.self, &visitor)
        case NAVPOSECEF.id: decode(NAVPOSECEF.self, &visitor)
        case NAVVELECEF.id: decode(NAVVELECEF.self, &visitor)
        case NAVVELNED.id: decode(NAVVELNED.self, &visitor)
        case NAVDOP.id: decode(NAVDOP.self, &visitor)
        case NAVSTATUS.id: decode(NAVSTATUS.self, &visitor)
        case NAVTIMEGPS.id: decode(NAVTIMEGPS.self, &visitor)
        case NAVTIMEUTC.id: decode(NAVTIMEUTC.self, &visitor)
        case NAVSAT.id: decode(NAVSAT.self, &visitor)
        case NAVSVINFO.id: decode(NAVSVINFO.self, &visitor)
        case NAVEOE.id: decode(NAVEOE.self, &visitor)
        case HNRPVT.id: decode(HNRPVT.self, &visitor)
        case LOGBATCH.id: decode(LOGBATCH.self, &visitor)
        case LOGRETRIEVEPOS.id: decode(LOGRETRIEVEPOS.self, &visitor)
        case TIMTP.id: decode(TIMTP.self, &visitor)
        case MONVER.id: decode(MONVER.self, &visitor)
        case ACKACK.id: decode(ACKACK.self, &visitor)
        case ACKNAK.id: decode(ACKNAK.self, &visitor)
        case CFGVALGET.id: decode(CFGVALGET.self, &visitor)
        default: undecoded(&visitor)
        }
    }

    @inline(__always)
    private func decode<Message: UBXMessageBody, Visitor: UBXMessageVisitor>(
        _ type: Message.Type, _ visitor: inout Visitor
    ) -> Bool {
        guard let message = Message(payload) else {
            visitor.visitUndecoded(self, malformed: true)
            return false
        }
        visitor.visit(message)
        return true
    }

    private func undecoded<Visitor: UBXMessageVisitor>(_ visitor: inout Visitor) -> Bool {
        visitor.visitUndecoded(self, malformed: false)
        return false
    }
}

/// u-blox navigation messages into the one fix stream: `FixReader.Options(frameDecoder: UBXEpochs.report)`.
public enum UBXEpochs {
    /// What a UBX frame tells its epoch; `nil` for RTCM frames and messages of no epoch. No allocation.
    public static let report: FixReader.FrameDecoder = { frame in
        guard let ubx = UBXFrame(frame) else { return nil }
        var visitor = Reporter()
        ubx.decode(into: &visitor)
        return visitor.report
    }

    private struct Reporter: UBXMessageVisitor {
        var report: EpochReport?
        mutating func visit<Message: UBXMessageBody>(_ message: Message) { report = message.report() }
        mutating func visitUndecoded(_ frame: UBXFrame, malformed: Bool) {}
    }
}
