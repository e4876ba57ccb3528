/// CRC-32 (IEEE 802.3, the one zlib and PNG use), for the queue's records.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`, continuing from `crc` (0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        }
        return ~value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
