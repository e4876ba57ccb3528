/// Builds UBX frames: a payload written little-endian field by field, then framed with its header and Fletcher
/// checksum. For configuration messages, the receiver emulator and tests.
///
///     var payload = UBXPayloadBuilder()
///     payload.u2(100)   // measRate ms
///     payload.u2(1)     // navRate
///     payload.u2(1)     // timeRef GPS
///     let bytes = payload.frame(.cfgRATE)   // B5 62 06 08 06 00 64 00 01 00 01 00 7A 12
public struct UBXPayloadBuilder: Sendable {
    /// The payload so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func u1(_ value: UInt8) { bytes.append(value) }
    public mutating func i1(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
    public mutating func u2(_ value: UInt16) { little(UInt64(value), 2) }
    public mutating func i2(_ value: Int16) { u2(UInt16(bitPattern: value)) }
    public mutating func u4(_ value: UInt32) { little(UInt64(value), 4) }
    public mutating func i4(_ value: Int32) { u4(UInt32(bitPattern: value)) }
    public mutating func u8(_ value: UInt64) { little(value, 8) }
    /// `count` zero bytes (reserved fields).
    public mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
    /// `text` in a fixed field of `count` bytes, padded with NUL (MON-VER's CH fields).
    public mutating func text(_ text: String, count: Int) {
        let utf8 = Array(text.utf8.prefix(count))
        bytes.append(contentsOf: utf8)
        zeros(count - utf8.count)
    }

    private mutating func little(_ value: UInt64, _ count: Int) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// The whole frame of message `id` with this payload.
    public func frame(_ id: UBXMessageID) -> [UInt8] { UBXFrameBuilder.frame(id, payload: bytes) }
}

/// Frames a UBX payload.
public enum UBXFrameBuilder {
    /// `B5 62`, class, ID, the payload's length (little-endian), the payload, and the Fletcher-8 checksum over class
    /// to payload.
    public static func frame(_ id: UBXMessageID, payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= 0xFFFF, "a UBX payload is at most 65535 bytes")
        var frame: [UInt8] = [0xB5, 0x62, id.messageClass, id.messageID]
        frame.reserveCapacity(payload.count + 8)
        frame.append(UInt8(payload.count & 0xFF))
        frame.append(UInt8(payload.count >> 8))
        frame.append(contentsOf: payload)
        let (a, b) = checksum(frame[2...])
        frame.append(a)
        frame.append(b)
        return frame
    }

    /// The Fletcher-8 checksum (ck_a, ck_b) of `bytes` (class to payload end).
    public static func checksum(_ bytes: some Sequence<UInt8>) -> (UInt8, UInt8) {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes {
            a &+= byte
            b &+= a
        }
        return (a, b)
    }
}
