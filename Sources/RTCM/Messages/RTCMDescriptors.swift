import NMEA

/// RTCM 1007, 1008 and 1033: the antenna's descriptor, setup ID and serial number, and (1033) the receiver's type,
/// firmware and serial number.
///
///     DF002 12 · DF003 12 · DF029 8 N · DF030 N chars · DF031 8 setup ID · 1008, 1033: DF032 8 M · DF033 M chars
///     1033: DF227 8 I · DF228 I chars receiver · DF229 8 J · DF230 J chars firmware · DF231 8 K · DF232 K serial
public struct RTCMDescriptors: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool { number == 1007 || number == 1008 || number == 1033 }

    public let frame: RTCMFrame
    /// Where each text field's bytes start and how many there are (up to five: 1033's), kept inline.
    private var fields = InlineArray<5, (start: Int, count: Int)>(repeating: (0, 0))
    private var fieldCount = 0
    private let setupAt: Int

    public init?(_ frame: RTCMFrame) {
        let bits = frame.payload
        var at = 24
        var fields = InlineArray<5, (start: Int, count: Int)>(repeating: (0, 0))
        var fieldCount = 0
        func text() -> Bool {
            guard at + 8 <= bits.bitCount else { return false }
            let count = Int(bits.unsigned(at, 8))
            guard at + 8 + 8 * count <= bits.bitCount else { return false }
            fields[fieldCount] = (at + 8, count)
            fieldCount += 1
            at += 8 + 8 * count
            return true
        }
        guard text(), at + 8 <= bits.bitCount else { return nil }
        setupAt = at
        at += 8
        let more = frame.messageNumber == 1007 ? 0 : frame.messageNumber == 1008 ? 1 : 4
        for _ in 0..<more { guard text() else { return nil } }
        self.frame = frame
        self.fields = fields
        self.fieldCount = fieldCount
    }

    public var stationID: Int { Int(frame.payload.unsigned(12, 12)) }
    public var setupID: Int { Int(frame.payload.unsigned(setupAt, 8)) }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        sink.integer("station_id", Int64(stationID))
        let bits = frame.payload
        func text(_ name: StaticString, _ index: Int) {
            let field = fields[index]
            sink.characters(name, count: field.count) { byte in bits.characters(field.start, field.count, byte) }
        }
        text("desc", 0)
        sink.integer("setup_id", Int64(setupID))
        if fieldCount > 1 { text("serial", 1) }
        if fieldCount > 2 {
            text("receiver", 2)
            text("firmware", 3)
            text("rcvr_serial", 4)
        }
    }
}
