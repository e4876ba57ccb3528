import NMEA

/// One RTCM 3 message type (or a family: the MSM of every system): which numbers it reads, how, and its fields for
/// output with gpsd's names. One file per type under `Messages/`; ``RTCMFrame/decode(into:)`` lists them once.
public protocol RTCMMessageBody {
    /// Whether this type reads message `number`.
    static func reads(_ number: Int) -> Bool
    /// Reads the payload; `nil` when it is shorter than the message's fields.
    init?(_ frame: RTCMFrame)
    /// The reference station ID (DF003), for the messages that have one.
    var stationID: Int { get }
    /// Hands each field to `sink`, as gpsd names and writes them.
    func write<Sink: RTCMFieldSink>(to sink: inout Sink)
}

/// Receives a message's fields: the JSON writer, a test.
public protocol RTCMFieldSink {
    mutating func integer(_ name: StaticString, _ value: Int64)
    mutating func unsigned(_ name: StaticString, _ value: UInt64)
    mutating func number(_ name: StaticString, _ value: Double, decimals: Int)
    mutating func bool(_ name: StaticString, _ value: Bool)
    /// Text as gpsd writes it: `true`/`false` and `"1"` that gpsd quotes.
    mutating func text(_ name: StaticString, _ value: String)
    /// Text from the message's bytes (DF030…), each byte a character.
    mutating func characters(_ name: StaticString, count: Int, _ produce: ((UInt8) -> Void) -> Void)
    mutating func beginList(_ name: StaticString)
    mutating func beginItem()
    mutating func endItem()
    mutating func endList()
    mutating func textList(_ name: StaticString, _ values: [StaticString])
}

/// Sees each decoded RTCM message (``RTCMFrame/decode(into:)``).
public protocol RTCMMessageVisitor {
    mutating func visit<Message: RTCMMessageBody>(_ message: Message)
    /// A message of a type not decoded here, or too short for its type (`malformed`).
    mutating func visitUndecoded(_ frame: RTCMFrame, malformed: Bool)
}

extension RTCMFrame {
    /// Decodes the message and hands it to `visitor`: the registry of RTCM 3 types, one line each.
    @discardableResult
    public func decode<Visitor: RTCMMessageVisitor>(into visitor: inout Visitor) -> Bool {
        let number = messageNumber
        if RTCMStation.reads(number) { return decode(RTCMStation.self, &visitor) }
        if RTCMDescriptors.reads(number) { return decode(RTCMDescriptors.self, &visitor) }
        if RTCMText.reads(number) { return decode(RTCMText.self, &visitor) }
        if RTCMGlonassBiases.reads(number) { return decode(RTCMGlonassBiases.self, &visitor) }
        if RTCMObservables.reads(number) { return decode(RTCMObservables.self, &visitor) }
        if RTCMMultipleSignal.reads(number) { return decode(RTCMMultipleSignal.self, &visitor) }
        visitor.visitUndecoded(self, malformed: false)
        return false
    }

    private func decode<Message: RTCMMessageBody, Visitor: RTCMMessageVisitor>(
        _ type: Message.Type, _ visitor: inout Visitor
    ) -> Bool {
        guard let message = Message(self) else {
            visitor.visitUndecoded(self, malformed: true)
            return false
        }
        visitor.visit(message)
        return true
    }
}
