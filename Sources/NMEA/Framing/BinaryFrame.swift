/// A binary frame the ``Framer`` meets between sentences — u-blox UBX or RTCM 3 — read and checked a byte at a time,
/// so that it is handed out (``FramerEvent/binaryFrame(_:)``) only when its checksum proves it is one.
///
///     UBX:    B5 62 class id length(2, little-endian) payload ck_a ck_b
///             Fletcher-8 over class, id, length and payload; a payload of at most ``Framer/maximumBinaryPayload``.
///     RTCM 3: D3 000000ll llllllll payload crc(3, big-endian)
///             six reserved zero bits, a 10-bit payload length; CRC-24Q over the header and the payload.
///
/// Noise that happens to start with `B5 62` (or `D3` and a small length) is not skipped: its checksum fails, and the
/// framer goes on right after its sync bytes (see ``syncLength``).
struct BinaryFrameReader: Sendable {
    typealias Kind = BinaryFrame.Kind

    /// What reading a frame's bytes came to.
    enum Outcome {
        /// The input ended inside the frame.
        case incomplete
        /// The frame ended and its checksum matched.
        case verified
        /// Not a frame: a wrong second sync byte, reserved bits set, an implausible length, or a checksum that failed.
        case rejected
    }

    let kind: Kind
    /// The longest frame taken for one (the framer's room for a frame split across chunks); a longer length field
    /// means the sync bytes were not a frame start after all.
    let maximumLength: Int
    /// Bytes read so far, the sync bytes included.
    private(set) var consumed = 0
    /// The whole frame's length, header and checksum included, once the header has given it; 0 before.
    private(set) var length = 0
    /// `true` once the header looked like a frame's (`B5 62`; `D3` with zero reserved bits): a rejection then counts
    /// as a damaged frame, not as a stray byte.
    private(set) var isPlausible = false
    /// UBX: the low byte of the payload length until its high byte arrives.
    private var lengthLow = 0
    /// UBX: Fletcher's two running sums. RTCM 3: the CRC so far.
    private var sumA: UInt8 = 0
    private var sumB: UInt8 = 0
    private var crc: UInt32 = 0
    /// The checksum bytes the frame carried, first in the high bits.
    private var sent: UInt32 = 0

    init(_ kind: Kind, maximumLength: Int) {
        self.kind = kind
        self.maximumLength = maximumLength
    }

    /// The bytes at the start to skip when the frame is rejected: its sync bytes (`B5 62`, `D3`), after which
    /// sentences are looked for again. Only the `B5` when the byte after it was not `62`.
    var syncLength: Int { kind == .ubx && isPlausible ? 2 : 1 }

    /// Reads the frame's bytes from `cursor` up to `end`, leaving `cursor` after the last byte read: the frame's
    /// last byte once it is ``Outcome/verified``.
    /// - Complexity: O(*n*) in the bytes read; no allocation.
    mutating func read(_ cursor: inout UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> Outcome {
        while cursor < end {
            let byte = cursor.pointee
            switch kind {
            case .ubx:
                guard readUBX(byte) else { return .rejected }
            case .rtcm3:
                guard readRTCM3(byte) else { return .rejected }
            case .rtcm2:
                return .rejected  // gathered by RTCM2Sync, never read here
            }
            consumed += 1
            cursor += 1
            if consumed == length { return checksumMatches ? .verified : .rejected }
        }
        return .incomplete
    }

    /// One UBX byte; `false` when it shows this is no frame.
    @inline(__always)
    private mutating func readUBX(_ byte: UInt8) -> Bool {
        switch consumed {
        case 0:
            break  // B5
        case 1:
            guard byte == 0x62 else { return false }
            isPlausible = true
        case 2, 3:
            addFletcher(byte)
        case 4:
            addFletcher(byte)
            lengthLow = Int(byte)
        case 5:
            addFletcher(byte)
            let payload = lengthLow | Int(byte) << 8
            // (`maximumLength` is at most ``Framer/maximumBinaryFrame``: a UBX payload of at most 4,096 bytes.)
            guard 8 + payload <= maximumLength else { return false }
            length = 8 + payload
        default:
            if consumed < length - 2 { addFletcher(byte) } else { sent = sent << 8 | UInt32(byte) }
        }
        return true
    }

    /// One RTCM 3 byte; `false` when it shows this is no frame.
    @inline(__always)
    private mutating func readRTCM3(_ byte: UInt8) -> Bool {
        switch consumed {
        case 0:
            addCRC(byte)  // D3
        case 1:
            guard byte & 0xFC == 0 else { return false }
            isPlausible = true
            addCRC(byte)
            lengthLow = Int(byte & 0x03) << 8  // the two high bits of the length
        case 2:
            addCRC(byte)
            length = 6 + (lengthLow | Int(byte))
            guard length <= maximumLength else { return false }
        default:
            if consumed < length - 3 { addCRC(byte) } else { sent = sent << 8 | UInt32(byte) }
        }
        return true
    }

    private var checksumMatches: Bool {
        switch kind {
        case .ubx: sent == UInt32(sumA) << 8 | UInt32(sumB)
        case .rtcm3: sent == crc & 0xFF_FFFF
        case .rtcm2: false
        }
    }

    @inline(__always)
    private mutating func addFletcher(_ byte: UInt8) {
        sumA &+= byte
        sumB &+= sumA
    }

    @inline(__always)
    private mutating func addCRC(_ byte: UInt8) { crc = CRC24Q.update(crc, byte) }
}

/// RTCM 3's checksum: CRC-24Q (Qualcomm; polynomial 0x1864CFB, initial value 0), a bit at a time (RTCM frames are
/// few and short). The framer checks frames with it; whoever makes frames (tests, emulators) seals them with it.
public enum CRC24Q {
    /// `crc` (24 bits in the low bits; 0 to begin) after one more byte.
    @inline(__always)
    public static func update(_ crc: UInt32, _ byte: UInt8) -> UInt32 {
        var crc = crc ^ UInt32(byte) << 16
        for _ in 0..<8 {
            crc <<= 1
            if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
        }
        return crc & 0xFF_FFFF
    }

    /// The CRC of `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> UInt32 { bytes.reduce(0, update) }

    /// An RTCM 3 frame around `payload` (at most 1,023 bytes): `D3`, the length, the payload, the CRC.
    public static func rtcm3Frame(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 1024, "an RTCM 3 payload is at most 1,023 bytes")
        var frame: [UInt8] = [0xD3, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        let crc = of(frame)
        frame += [UInt8(crc >> 16), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return frame
    }
}

/// A binary frame whose checksum verified, as the ``Framer`` hands it out between sentences: a borrowed view of its
/// bytes, sync bytes to checksum, valid only during the callback (like ``Sentence``). The `UBX` and `RTCM` modules
/// decode what is inside.
public struct BinaryFrame {
    /// The protocols whose frames the framer recognises.
    public enum Kind: Sendable, Hashable {
        /// u-blox UBX: `B5 62 class id length payload ck_a ck_b`.
        case ubx
        /// RTCM 3: `D3`, a 10-bit length, payload, CRC-24Q.
        case rtcm3
        /// RTCM 2 (SC-104 v2): its 30-bit words whose parity checked, 4 bytes each, big-endian (the framer
        /// gathers them from the six-bit bytes; the header's two words first).
        case rtcm2
    }

    /// Which protocol the frame is.
    public let kind: Kind
    /// The whole frame: sync bytes, header, payload and checksum.
    public let bytes: UnsafeRawBufferPointer
    /// The line of the input it began on.
    public let line: Int

    /// A view of `bytes`, a verified frame of `kind` (for frames the caller checked itself, and for tests).
    public init(kind: Kind, bytes: UnsafeRawBufferPointer, line: Int = 1) {
        self.kind = kind
        self.bytes = bytes
        self.line = line
    }

    /// The payload: after the header (UBX: 6 bytes, RTCM 3: 3) and before the checksum (UBX: 2, RTCM 3: 3); RTCM 2's
    /// words whole.
    public var payload: UnsafeRawBufferPointer {
        let (header, trailer) =
            switch kind {
            case .ubx: (6, 2)
            case .rtcm3: (3, 3)
            case .rtcm2: (0, 0)
            }
        guard bytes.count >= header + trailer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: bytes[header..<(bytes.count - trailer)])
    }
}
