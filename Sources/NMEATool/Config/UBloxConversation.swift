import NMEA
import SerialPort
import System
import UBX

/// `nmea config` with a u-blox receiver: who it is (MON-VER), what it is set to, and each configuration message
/// sent and answered (ACK-ACK or ACK-NAK, one retry after a timeout).
struct UBloxConversation {
    let line: ReceiverLine
    /// How long to wait for an answer.
    let timeout: Duration

    /// Who the receiver says it is.
    struct Identity: Sendable {
        var software: String
        var hardware: String
        var extensions: [String]
        var protocolVersion: Double?

        /// An extension's value (`MOD=NEO-M8N-0` → `NEO-M8N-0` for "MOD").
        func value(_ name: String) -> String? {
            for item in extensions {
                for separator in ["=", " "] where item.hasPrefix(name + separator) {
                    return String(item.dropFirst(name.count + 1))
                }
            }
            return nil
        }

        var generation: UBXGeneration { UBXGeneration(protocolVersion: protocolVersion) }
    }

    /// How a message was answered.
    enum Outcome: Equatable {
        case acknowledged
        case refused
        case noAnswer
        /// Sent; the receiver answers none (CFG-RST).
        case sent

        var text: String {
            switch self {
            case .acknowledged: "acknowledged"
            case .refused: "refused (ACK-NAK)"
            case .noAnswer: "no answer"
            case .sent: "sent (the receiver restarts; it does not answer)"
            }
        }
    }

    /// MON-VER, asked twice at most; `nil` when the receiver does not answer UBX.
    func identify() throws(SerialPortError) -> Identity? {
        for _ in 0..<2 {
            try line.send(UBXCommand.poll(.monVER).frame)
            let answer = try line.wait(timeout) { heard -> Identity? in
                guard case .frame(let id, let payload) = heard, id == .monVER else { return nil }
                return payload.withUnsafeBytes { bytes in
                    MONVER(UBXPayload(bytes)).map {
                        Identity(
                            software: $0.softwareVersion, hardware: $0.hardwareVersion, extensions: $0.extensions,
                            protocolVersion: $0.protocolVersion)
                    }
                }
            }
            if let answer { return answer }
        }
        return nil
    }

    /// The payload of the receiver's answer to a poll of `id`, asked twice at most.
    func poll(_ command: UBXCommand) throws(SerialPortError) -> [UInt8]? {
        for _ in 0..<2 {
            try line.send(command.frame)
            let answer = try line.wait(timeout) { heard -> [UInt8]?? in
                guard case .frame(let id, let payload) = heard else { return nil }
                if id == command.id { return .some(payload) }
                // A NAK of the poll itself: the receiver has no such message.
                if id == .ackNAK, payload.count >= 2, UBXMessageID(payload[0], payload[1]) == command.id {
                    return .some(nil)
                }
                return nil
            }
            if let answer { return answer }
        }
        return nil
    }

    /// The values of configuration keys (protocol 27+), from RAM.
    func values(_ keys: [UInt32]) throws(SerialPortError) -> [UInt32: UInt64]? {
        guard let payload = try poll(.valueGet(keys)) else { return nil }
        return payload.withUnsafeBytes { bytes -> [UInt32: UInt64]? in
            guard let answer = CFGVALGET(UBXPayload(bytes)) else { return nil }
            var values: [UInt32: UInt64] = [:]
            answer.forEachValue { key, value in values[key] = value }
            return values
        }
    }

    /// Sends a configuration message and waits for its answer, sending it once more after a timeout.
    func send(_ command: UBXCommand) throws(SerialPortError) -> Outcome {
        guard command.awaitsAcknowledgement else {
            try line.send(command.frame)
            return .sent
        }
        for _ in 0..<2 {
            try line.send(command.frame)
            if let outcome = try acknowledgement(of: command.id, within: timeout) { return outcome }
        }
        return .noAnswer
    }

    /// ACK-ACK or ACK-NAK for `id`, or `nil` when neither came in time.
    func acknowledgement(of id: UBXMessageID, within timeout: Duration) throws(SerialPortError) -> Outcome? {
        try line.wait(timeout) { heard -> Outcome? in
            guard case .frame(let answer, let payload) = heard, answer == .ackACK || answer == .ackNAK,
                payload.count >= 2, UBXMessageID(payload[0], payload[1]) == id
            else { return nil }
            return answer == .ackACK ? .acknowledged : .refused
        }
    }

    /// How a change of baud rate went.
    enum BaudSwitch: Equatable {
        /// The receiver answered at the new rate.
        case confirmed
        /// It refused the change, or did not take it: it still answers at the old rate, where the port is again.
        case stayed(Outcome)
        /// It answers at neither rate.
        case lost
    }

    /// Sends a message that changes the port's rate to `rate`, follows it, and confirms the receiver answers there
    /// (MON-VER); when it does not, goes back to the old rate, where the receiver must still answer.
    func switchBaud(_ command: UBXCommand, to rate: BaudRate) throws(SerialPortError) -> BaudSwitch {
        try line.send(command.frame)
        // The ACK may come at the old rate before the receiver switches, or be lost in the switch.
        let acknowledged = try acknowledgement(of: command.id, within: .milliseconds(300))
        if acknowledged == .refused { return .stayed(.refused) }
        switch try line.follow(to: rate, answers: { () throws(SerialPortError) in try identify() != nil }) {
        case .answering: return .confirmed
        case .stayed: return .stayed(acknowledged ?? .noAnswer)
        case .lost: return .lost
        }
    }
}
