import NMEA

/// UBX CFG-VALGET (`06 8B`) as the receiver answers it (protocol 27+): the values of configuration keys.
///
///     0 U1 version (1: an answer) · 1 U1 layer (0 RAM, 1 BBR, 2 flash, 7 default) · 2 U2 position
///     then key–value pairs: U4 key (bits 28–30 the value's size: 1 one bit, 2 one byte, 3 two, 4 four, 5 eight
///     bytes), the value little-endian
public struct CFGVALGET: UBXMessageBody {
    public static let id = UBXMessageID.cfgVALGET
    public let payload: UBXPayload

    /// `nil` for a poll (version 0) or a list cut short.
    public init?(_ payload: UBXPayload) {
        guard payload.count >= 4, payload.u1(0) == 1 else { return nil }
        self.payload = payload
        var ok = true
        forEachValue { _, _ in
        } failed: {
            ok = false
        }
        guard ok else { return nil }
    }

    /// The layer the values were read from.
    public var layer: UInt8 { payload.u1(1) }

    /// Calls `body` with each key and its value, in order.
    public func forEachValue(_ body: (UInt32, UInt64) -> Void) {
        forEachValue(body, failed: {})
    }

    private func forEachValue(_ body: (UInt32, UInt64) -> Void, failed: () -> Void) {
        var at = 4
        while at + 4 <= payload.count {
            let key = payload.u4(at)
            let size = UBXConfigurationKey.valueSize(of: key)
            guard size > 0, at + 4 + size <= payload.count else { return failed() }
            var value: UInt64 = 0
            for byte in 0..<size { value |= UInt64(payload.u1(at + 4 + byte)) << (8 * UInt64(byte)) }
            body(key, value)
            at += 4 + size
        }
        if at != payload.count { failed() }
    }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("version", Int64(payload.u1(0)))
        sink.integer("layer", Int64(layer))
        sink.integer("position", Int64(payload.u2(2)))
        sink.beginList("cfgData")
        forEachValue { key, value in
            sink.beginItem()
            sink.integer("keyID", Int64(key))
            sink.integer("value", Int64(bitPattern: value))
            sink.endItem()
        }
        sink.endList()
    }
}

/// Configuration keys of the configuration interface (protocol 27+).
public enum UBXConfigurationKey {
    /// The size in bytes of a key's value, from bits 28–30 of the key; 0 for a size no key has.
    public static func valueSize(of key: UInt32) -> Int {
        switch (key >> 28) & 7 {
        case 1, 2: 1
        case 3: 2
        case 4: 4
        case 5: 8
        default: 0
        }
    }
}
