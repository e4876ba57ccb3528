import NMEA

/// UBX MON-VER (`0A 04`, 40 + 30 per extension): the receiver's software and hardware versions, and extensions
/// such as `PROTVER=18.00`, `FWVER=SPG 3.01`, `MOD=NEO-M8N`, `GPS;GLO;GAL;BDS`.
///
///     0 CH[30] swVersion · 30 CH[10] hwVersion · then CH[30] extension, repeated
public struct MONVER: UBXMessageBody {
    public static let id = UBXMessageID.monVER
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 40 else { return nil }
        self.payload = payload
    }

    /// The software version (`ROM CORE 3.01 (107888)`).
    public var softwareVersion: String { text(at: 0, count: 30) }
    /// The hardware version (`00080000`: u-blox 8).
    public var hardwareVersion: String { text(at: 30, count: 10) }
    /// The extensions, in order.
    public var extensions: [String] {
        stride(from: 40, through: payload.count - 30, by: 30).map { text(at: $0, count: 30) }
    }
    /// The protocol version from the `PROTVER` extension (`18.00` is 18.0); `nil` when the receiver sends none
    /// (u-blox 6 and older, whose protocol is 14 or less).
    public var protocolVersion: Double? {
        for item in extensions {
            for prefix in ["PROTVER=", "PROTVER "] where item.hasPrefix(prefix) {
                return Double(item.dropFirst(prefix.count).trimmingPrefixSpaces)
            }
        }
        return nil
    }

    private func text(at offset: Int, count: Int) -> String {
        let bytes = payload.bytes[offset..<(offset + count)]
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.text("swVersion", softwareVersion)
        sink.text("hwVersion", hardwareVersion)
        sink.texts("extension", extensions)
    }
}

extension Substring {
    fileprivate var trimmingPrefixSpaces: Substring { drop(while: { $0 == " " }) }
}
