import NMEA

/// An RTCM 2 (SC-104 version 2) message as the framer hands it out (``NMEA/BinaryFrame/Kind/rtcm2``): its 30-bit
/// words, parity checked, 4 bytes each. The header of every message is read here, with gpsd's names:
///
///     word 1: preamble 0x66 (8 bits), message type (6), reference station ID (10), parity (6)
///     word 2: modified Z-count (13, 0.6 s), sequence number (3), length in words after the header (5),
///             station health (3), parity (6)
///
/// The contents of the types (1 and 9 corrections, 3 and 22 station positions…) are not decoded.
public struct RTCM2Message {
    public let frame: BinaryFrame

    /// The message in `frame`; `nil` for another kind of frame, or one shorter than its header.
    public init?(_ frame: BinaryFrame) {
        guard frame.kind == .rtcm2, frame.bytes.count >= 8, frame.bytes.count % 4 == 0 else { return nil }
        self.frame = frame
    }

    /// The 24 data bits of word `index` (from 0).
    public func data(word index: Int) -> UInt32 {
        let bytes = frame.bytes
        let word = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[index * 4 + $1]) }
        return word >> 6 & 0xFF_FFFF
    }

    public var wordCount: Int { frame.bytes.count / 4 }
    public var messageType: Int { Int(data(word: 0) >> 10 & 0x3F) }
    public var stationID: Int { Int(data(word: 0) & 0x3FF) }
    /// The modified Z-count: seconds into the hour, in steps of 0.6 s.
    public var zCount: Double { Double(data(word: 1) >> 11 & 0x1FFF) * 0.6 }
    public var sequenceNumber: Int { Int(data(word: 1) >> 8 & 0x7) }
    /// The words after the header.
    public var length: Int { Int(data(word: 1) >> 3 & 0x1F) }
    public var stationHealth: Int { Int(data(word: 1) & 0x7) }
}
