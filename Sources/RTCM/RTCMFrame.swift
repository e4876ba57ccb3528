import NMEA

/// An RTCM 3 frame as the ``Framer`` hands it out (``BinaryFrame``, its CRC-24Q verified): its message number and
/// payload, read as big-endian bit fields at bit offsets, as RTCM 10403 gives them (DF002, the message number, is
/// the first 12 bits). A borrowed view, valid while the frame is.
///
///     D3 | 000000 length(10) | payload (message number 12 bits, …) | CRC-24Q (3)
public struct RTCMFrame {
    /// The payload, after the 3-byte header and before the CRC.
    public let payload: RTCMBits

    /// The RTCM 3 frame `frame` is; `nil` for a UBX frame or a payload too short for a message number.
    public init?(_ frame: BinaryFrame) {
        guard frame.kind == .rtcm3 else { return nil }
        let payload = RTCMBits(frame.payload)
        guard payload.bytes.count >= 2 else { return nil }
        self.payload = payload
    }

    /// A frame from its payload (for tests).
    public init(payload: UnsafeRawBufferPointer) { self.payload = RTCMBits(payload) }

    /// DF002: the message number (1005, 1077…).
    public var messageNumber: Int { Int(payload.unsigned(0, 12)) }
    /// The payload's length in bytes (gpsd's `length`).
    public var length: Int { payload.bytes.count }
}

/// An RTCM payload read as bit fields, most significant bit first; a field past the end reads as zeros (callers
/// check ``bitCount`` against the message's length first).
public struct RTCMBits {
    public let bytes: UnsafeRawBufferPointer

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The number of bits.
    public var bitCount: Int { bytes.count * 8 }

    /// `width` bits (at most 64) from bit `start`, as an unsigned number.
    public func unsigned(_ start: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        var bit = start
        var remaining = width
        while remaining > 0 {
            let index = bit >> 3
            let byte = index < bytes.count ? UInt64(bytes[index]) : 0
            let offset = bit & 7
            let take = min(8 - offset, remaining)
            let chunk = (byte >> UInt64(8 - offset - take)) & ((1 << UInt64(take)) - 1)
            value = value << UInt64(take) | chunk
            bit += take
            remaining -= take
        }
        return value
    }

    /// `width` bits from bit `start` as a two's-complement signed number.
    public func signed(_ start: Int, _ width: Int) -> Int64 {
        let value = unsigned(start, width)
        guard width < 64, value & (1 << UInt64(width - 1)) != 0 else { return Int64(bitPattern: value) }
        return Int64(bitPattern: value | ~((1 << UInt64(width)) - 1))
    }

    /// `count` bytes from bit `start` (text fields: DF030, DF228…).
    public func characters(_ start: Int, _ count: Int, _ body: (UInt8) -> Void) {
        for index in 0..<count { body(UInt8(unsigned(start + 8 * index, 8))) }
    }
}
