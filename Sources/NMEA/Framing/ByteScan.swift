/// The framer's inner loop: finds where a sentence's body ends and XORs the bytes on the way, eight at a time.
///
/// A sentence body is printable ASCII. It ends at the first byte that is a control character (`\r`, `\n`, NUL…), a
/// byte of 0x80 or above (binary data), or the start of another sentence (`$`, `!`). Looking at eight bytes per step
/// with the SWAR "has a zero byte" tricks keeps this near the speed of `memchr`. The one public scan,
/// ``firstIndex(of:in:from:)``, is the same trick for decoders above the core (an AIS payload's end).
public enum ByteScan {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A word with the high bit set in the lowest byte of `word` that *may* end a sentence body: any byte below
    /// 0x25 (control characters, space, `!`, `"`, `#`, `$`) or of 0x80 and above. One subtraction tests them all;
    /// the few that are not stops (space, `"`, `#`) are passed over by the caller. Bytes above the lowest flagged
    /// one may also be flagged (borrows carry upward), so only the lowest flag is exact.
    @inline(__always)
    static func candidateMask(_ word: UInt64) -> UInt64 {
        ((word &- 0x25 &* ones) & ~word | word) & highBits
    }

    /// `true` for a byte that ends a sentence body.
    @inline(__always)
    static func isStop(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!")
    }

    /// `true` for the bytes ``candidateMask(_:)`` flags that are ordinary text.
    @inline(__always)
    static func isPlainCandidate(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#")
    }

    /// XOR of the eight bytes of `word`.
    @inline(__always)
    static func fold(_ word: UInt64) -> UInt8 {
        var folded = word ^ (word >> 32)
        folded ^= folded >> 16
        folded ^= folded >> 8
        return UInt8(truncatingIfNeeded: folded)
    }

    /// Scans `[start, limit)` for the first stop byte.
    /// - Returns: its position (or `limit` when there is none) and the XOR of every byte before it.
    @inline(__always)
    static func scan(from start: UnsafePointer<UInt8>, to limit: UnsafePointer<UInt8>)
        -> (stop: UnsafePointer<UInt8>, xor: UInt8)
    {
        var cursor = start
        var accumulator: UInt64 = 0
        // The last address from which eight bytes can be loaded (below `start` when the range is shorter).
        let wordLimit = UInt(bitPattern: limit) &- 8
        while UInt(bitPattern: cursor) <= wordLimit {
            let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
            let mask = candidateMask(word)
            if _slowPath(mask != 0) {
                let stopIndex = mask.trailingZeroBitCount >> 3
                let before: UInt64 = stopIndex == 0 ? 0 : UInt64.max >> (64 - 8 * UInt64(stopIndex))
                accumulator ^= word & before
                cursor += stopIndex
                let byte = cursor.pointee
                if isPlainCandidate(byte) {
                    // A space or a quote in text: part of the body; go on after it.
                    accumulator ^= UInt64(byte)
                    cursor += 1
                    continue
                }
                return (cursor, fold(accumulator))
            }
            accumulator ^= word
            cursor += 8
        }
        var xor = fold(accumulator)
        while cursor < limit {
            let byte = cursor.pointee
            if isStop(byte) { break }
            xor ^= byte
            cursor += 1
        }
        return (cursor, xor)
    }

    /// The high bit of each byte of `word` set exactly when that byte is zero (no false positives).
    @inlinable @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low7) &+ low7) | word | low7)
    }

    /// The index of the first `byte` in `bytes` at or after `start`, or `bytes.count` when there is none; eight bytes
    /// per step, never reading outside `bytes`.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let matches = zeroBytes(word ^ pattern)
            if matches != 0 { return index + matches.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < bytes.count, bytes[index] != byte { index += 1 }
        return index
    }

    /// The number of `byte`s in `[start, end)`, eight bytes per step.
    static func count(_ byte: UInt8, from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> Int {
        let pattern = UInt64(byte) &* ones
        guard end - start >= 8 else {
            var count = 0
            var cursor = start
            while cursor < end {
                if cursor.pointee == byte { count += 1 }
                cursor += 1
            }
            return count
        }
        // One bit per matching byte, at the bottom of the byte: lanes add up without carrying for 255 words.
        var lanes: UInt64 = 0
        var cursor = start
        while end - cursor >= 8 {
            lanes &+= zeroBytes(UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self) ^ pattern) >> 7
            cursor += 8
            if _slowPath(cursor - start >= 8 * 255) { return sum(lanes) &+ count(byte, from: cursor, to: end) }
        }
        let tail = end - cursor
        if tail > 0 {
            // The last eight bytes, of which the first `8 - tail` were counted above: shifted out.
            let word = UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self) ^ pattern
            lanes &+= (zeroBytes(word) >> 7) >> UInt64(8 * (8 - tail))
        }
        return sum(lanes)
    }

    /// The sum of the eight byte lanes of `lanes` (each at most 255): the multiplication adds them into the top
    /// byte. Cheaper than a population count where the CPU has none built in.
    @inline(__always)
    static func sum(_ lanes: UInt64) -> Int {
        let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
    }
}
