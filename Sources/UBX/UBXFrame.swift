import NMEA

/// A u-blox UBX frame as the ``Framer`` hands it out (``BinaryFrame``, its checksum verified): its message class and
/// ID, and its payload read little-endian at byte offsets as the interface description gives them. A borrowed view,
/// valid while the frame is.
///
///     B5 62 | class | id | length (2, LE) | payload | ck_a ck_b
public struct UBXFrame {
    /// The message's class and ID.
    public let id: UBXMessageID
    /// The payload, after the 6-byte header and before the checksum.
    public let payload: UBXPayload

    /// The UBX frame `frame` is; `nil` for an RTCM 3 frame or one too short to be UBX.
    @inlinable
    public init?(_ frame: BinaryFrame) {
        guard frame.kind == .ubx, frame.bytes.count >= 8 else { return nil }
        id = UBXMessageID(frame.bytes[2], frame.bytes[3])
        payload = UBXPayload(frame.payload)
    }

    /// A frame from its parts (for tests and for frames built here).
    public init(id: UBXMessageID, payload: UnsafeRawBufferPointer) {
        self.id = id
        self.payload = UBXPayload(payload)
    }
}

/// A UBX payload: little-endian fields at byte offsets, named by the interface description's types (U1 I1 U2 I2
/// U4 I4 R4 R8). Callers check ``count`` against the message's length first.
public struct UBXPayload {
    /// The payload's bytes.
    public let bytes: UnsafeRawBufferPointer

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The payload's length in bytes.
    @inlinable public var count: Int { bytes.count }

    @inlinable public func u1(_ offset: Int) -> UInt8 { bytes[offset] }
    @inlinable public func i1(_ offset: Int) -> Int8 { Int8(bitPattern: bytes[offset]) }
    @inlinable public func u2(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inlinable public func i2(_ offset: Int) -> Int16 { Int16(bitPattern: u2(offset)) }
    @inlinable public func u4(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inlinable public func i4(_ offset: Int) -> Int32 { Int32(bitPattern: u4(offset)) }
    @inlinable public func u8(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inlinable public func r4(_ offset: Int) -> Float { Float(bitPattern: u4(offset)) }
    @inlinable public func r8(_ offset: Int) -> Double { Double(bitPattern: u8(offset)) }
}
