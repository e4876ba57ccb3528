/// The bits of one AIS message, unarmoured from the six-bit ASCII of `!AIVDM` payloads and stored inline: up to
/// ``capacity`` bits (five slots of a multi-slot message fit), never on the heap.
///
/// Bits are numbered from 0, the first bit of the message, as ITU-R M.1371 numbers them. Reads past the end of the
/// message give zeros, as the standard's "not transmitted" trailing fields are; ``bitCount`` says where the message
/// ends, so a decoder can tell a field it was sent from one it was not.
public struct AISPayload: Sendable {
    /// The most bits a payload holds: 1,024 (a five-slot message is at most 1,008).
    public static let capacity = 1024

    var words: InlineArray<17, UInt64>
    /// The number of bits in the message.
    var storedBitCount: Int
    /// The number of bits in the message.
    public var bitCount: Int { storedBitCount }

    /// An empty payload.
    public init() {
        words = InlineArray(repeating: 0)
        storedBitCount = 0
    }

    /// The payload of one armoured string (`15M67N0P00G?Uf6E`…), with `fillBits` bits of padding at its end.
    /// - Throws: ``AISError/badCharacter`` for a byte outside the armouring alphabet, ``AISError/tooLong`` past
    ///   ``capacity`` bits, ``AISError/badFillBits`` for padding outside 0…5.
    public init(armored: some Collection<UInt8>, fillBits: Int = 0) throws(AISError) {
        self.init()
        try append(armored: armored, fillBits: fillBits)
    }

    /// The payload of one armoured fragment in memory, eight bytes at a time (see ``init(armored:fillBits:)``).
    public init(armored: UnsafeRawBufferPointer, fillBits: Int = 0) throws(AISError) {
        self.init()
        try append(armored: armored, fillBits: fillBits)
    }

    /// Appends an armoured fragment: six bits per byte, less `fillBits` padding bits at its end. Eight bytes at a time
    /// (``sixBits(eight:)``), the last few from one more load. After a throw the payload is not to be used.
    public mutating func append(armored: UnsafeRawBufferPointer, fillBits: Int) throws(AISError) {
        guard (0...5).contains(fillBits) else { throw .badFillBits }
        guard bitCount + armored.count * 6 <= Self.capacity else { throw .tooLong }
        var index = 0
        while index + 8 <= armored.count {
            let word = UInt64(littleEndian: armored.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            try appendSixBits(eight: word, count: 8, at: index, of: armored)
            index += 8
        }
        // The last few bytes, in a word filled up with `0`s (six zero bits each, not appended): the payload's last
        // eight bytes when it has eight, shifted down past those already read, else one byte at a time.
        let rest = armored.count - index
        if rest > 0 {
            let zeros: UInt64 = 0x3030_3030_3030_3030
            let kept = UInt64(rest * 8)
            var word: UInt64
            if armored.count >= 8 {
                let last = UInt64(
                    littleEndian: armored.loadUnaligned(fromByteOffset: armored.count - 8, as: UInt64.self))
                word = last >> (64 - kept) | zeros << kept
            } else {
                word = zeros
                for offset in 0..<rest {
                    let shift = UInt64(offset * 8)
                    word = word & ~(0xFF << shift) | UInt64(armored[index + offset]) << shift
                }
            }
            try appendSixBits(eight: word, count: rest, at: index, of: armored)
        }
        storedBitCount = max(0, bitCount - fillBits)
        clearPadding()
    }

    /// Appends the six-bit values of the first `count` of the eight armouring bytes in `word` (the first in its low
    /// byte), which are `armored[index...]`; throws for the first byte outside the alphabet.
    @_transparent
    private mutating func appendSixBits(
        eight word: UInt64, count: Int, at index: Int, of armored: UnsafeRawBufferPointer
    ) throws(AISError) {
        var (bits, invalid) = Self.sixBits(eight: word)
        if count < 8 {
            invalid &= (1 << UInt64(count * 8)) - 1
            bits >>= UInt64(48 - count * 6)
        }
        guard invalid == 0 else { throw .badCharacter(armored[index + invalid.trailingZeroBitCount >> 3]) }
        appendBits(bits, count: count * 6)
    }

    /// Appends an armoured fragment one byte at a time (bytes in memory take the eight-at-a-time overload).
    public mutating func append(armored: some Collection<UInt8>, fillBits: Int) throws(AISError) {
        try appendEach(armored, fillBits: fillBits)
    }

    /// Six bits per byte into a 64-bit word kept in a register, stored as it fills, less `fillBits` padding bits at
    /// the end. After a throw the payload is not to be used.
    private mutating func appendEach(_ armored: some Collection<UInt8>, fillBits: Int) throws(AISError) {
        guard (0...5).contains(fillBits) else { throw .badFillBits }
        let added = armored.count * 6
        guard bitCount + added <= Self.capacity else { throw .tooLong }
        var word = bitCount >> 6
        var used = bitCount & 63
        var current = words[unchecked: word]
        for byte in armored {
            guard let value = Self.sixBits(byte) else { throw .badCharacter(byte) }
            if used <= 58 {
                current |= value << UInt64(58 - used)
                used += 6
                if used == 64 {
                    words[unchecked: word] = current
                    word += 1
                    current = 0
                    used = 0
                }
            } else {
                let spill = used - 58  // bits that go to the next word
                words[unchecked: word] = current | value >> UInt64(spill)
                word += 1
                current = value << UInt64(64 - spill)
                used = spill
            }
        }
        words[unchecked: word] = current
        storedBitCount = max(0, bitCount + added - fillBits)
        clearPadding()
    }

    /// Zeroes the padding bits after the message's last bit, so that reads past the end give zeros.
    @inline(__always)
    mutating func clearPadding() {
        let word = bitCount >> 6  // at most 16: the 17th word is only ever read, as zeros
        let kept = bitCount & 63
        words[unchecked: word] &= kept == 0 ? 0 : ~0 << UInt64(64 - kept)
        if word < 16 { words[unchecked: word + 1] = 0 }
    }

    /// The 48 bits of eight armouring bytes, the first byte's six bits on top, with `invalid` 0; or `invalid` with
    /// the high bit set in the byte lane of the first byte outside the alphabet (`word` holds the first byte in its
    /// low byte). SWAR: every test and subtraction works on the eight bytes at once, and none carries into the next
    /// byte once each byte is known to be below 0x80.
    @_transparent
    static func sixBits(eight word: UInt64) -> (bits: UInt64, invalid: UInt64) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Valid bytes are 0x30…0x57 and 0x60…0x77. Flags: a high bit set, below 0x30, above 0x77, 0x58…0x5F.
        let below = ~(word &+ ones &* 0x50)
        let above = word &+ ones &* 0x08
        let gap = (word &+ ones &* 0x28) & ~(word &+ ones &* 0x20)
        let invalid = (word | below | above | gap) & (ones &* 0x80)
        // 0x30…0x57 are 0…39; 0x60…0x77 are 48…71 less 8.
        let offset = word &- ones &* 0x30
        let value = offset &- (((offset &+ ones &* 0x58) & (ones &* 0x80)) >> 4)
        // Six bits a byte, first byte on top, packed pairwise: 12 bits in 16, 24 in 32, 48 in 64.
        let bytes = value.byteSwapped
        let twelve = (bytes & 0x3F00_3F00_3F00_3F00) >> 2 | bytes & 0x003F_003F_003F_003F
        let twentyFour = (twelve & 0x0FFF_0000_0FFF_0000) >> 4 | twelve & 0x0000_0FFF_0000_0FFF
        return ((twentyFour & 0x00FF_FFFF_0000_0000) >> 8 | twentyFour & 0x0000_0000_00FF_FFFF, invalid)
    }

    /// Appends the low `count` bits of `value` (at most 58), the caller having checked the room.
    @_transparent
    mutating func appendBits(_ value: UInt64, count: Int) {
        let word = bitCount >> 6
        let offset = bitCount & 63
        if offset + count <= 64 {
            words[unchecked: word] |= value << UInt64(64 - count - offset)
        } else {
            let spill = offset + count - 64  // bits that go to the next word
            words[unchecked: word] |= value >> UInt64(spill)
            words[unchecked: word + 1] |= value << UInt64(64 - spill)
        }
        storedBitCount += count
    }

    /// The six-bit value an armouring byte stands for: `0`…`W` are 0…39, `` ` ``…`w` are 40…63.
    @inline(__always)
    static func sixBits(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 48...87: UInt64(byte &- 48)
        case 96...119: UInt64(byte &- 56)
        default: nil
        }
    }

    /// Calls `body` with a view of the bits where they are, valid only inside `body`. Reads through the view load
    /// the word they need, where reading a value's stored array would copy all of it at every read. Read many fields in
    /// one view.
    @inline(__always)
    func withBits<Result>(_ body: (AISBitReader) throws -> Result) rethrows -> Result {
        let bitCount = self.bitCount
        return try withUnsafePointer(to: words) { words in
            let start = UnsafeRawPointer(words).assumingMemoryBound(to: UInt64.self)
            return try body(AISBitReader(words: start, bitCount: bitCount))
        }
    }

    /// The unsigned integer of `width` bits (at most 32) from bit `start`.
    public func unsigned(_ start: Int, _ width: Int) -> UInt32 { withBits { $0.unsigned(start, width) } }

    /// The two's-complement integer of `width` bits (at most 32) from bit `start`.
    public func signed(_ start: Int, _ width: Int) -> Int32 { withBits { $0.signed(start, width) } }

    /// The bit at `index`.
    public func bit(_ index: Int) -> Bool { withBits { $0.bit(index) } }

    /// The six-bit text of `characters` characters from bit `start`, as the standard writes names and call signs:
    /// `@` (0) ends it, trailing spaces are dropped. Stops at the end of the message.
    public func text(_ start: Int, characters: Int) -> AISText { withBits { $0.text(start, characters: characters) } }
}

/// The bits of a payload read in place (``AISPayload/withBits(_:)``): the one reader of fields, numbers and texts.
struct AISBitReader {
    let words: UnsafePointer<UInt64>
    /// The number of bits in the message.
    let bitCount: Int

    /// The unsigned integer of `width` bits (at most 32) from bit `start`.
    @_transparent
    func unsigned(_ start: Int, _ width: Int) -> UInt32 {
        precondition(start >= 0 && width >= 0 && width <= 32 && start + width <= AISPayload.capacity)
        if width == 0 { return 0 }
        let word = start >> 6
        let offset = start & 63
        var value = words[word] << UInt64(offset)
        if offset + width > 64 { value |= words[word + 1] >> UInt64(64 - offset) }
        return UInt32(truncatingIfNeeded: value >> UInt64(64 - width))
    }

    /// The two's-complement integer of `width` bits (at most 32) from bit `start`.
    @_transparent
    func signed(_ start: Int, _ width: Int) -> Int32 { Self.signExtended(unsigned(start, width), width) }

    /// `raw`, a two's-complement number of `width` bits, as an `Int32`.
    @_transparent
    static func signExtended(_ raw: UInt32, _ width: Int) -> Int32 {
        if width == 0 || width == 32 { return Int32(bitPattern: raw) }
        let shift = UInt32(32 - width)
        return Int32(bitPattern: raw << shift) >> Int32(shift)
    }

    /// The bit at `index`.
    @inline(__always)
    func bit(_ index: Int) -> Bool { unsigned(index, 1) == 1 }

    /// The unsigned integer of `width` bits (at most 32) from bit `start`, the bits past the message's end zeros.
    @inline(__always)
    func paddedUnsigned(_ start: Int, _ width: Int) -> UInt32 {
        guard start < bitCount else { return 0 }
        let available = min(width, bitCount - start)
        return unsigned(start, available) << UInt32(width - available)
    }

    /// The two's-complement integer of `width` bits (at most 32) from bit `start`, the bits past the end zeros.
    @inline(__always)
    func paddedSigned(_ start: Int, _ width: Int) -> Int32 {
        Self.signExtended(paddedUnsigned(start, width), width)
    }

    /// See ``AISPayload/text(_:characters:)``. With `partial`, a last character the message cuts short is read with
    /// zeros for its missing bits (as gpsd reads a text of fixed length); without, it is left out.
    func text(_ start: Int, characters: Int, partial: Bool = false) -> AISText {
        var length = 0
        var index = 0
        var position = start
        let end = partial ? bitCount + 5 : bitCount
        while index < characters, position + 6 <= end {
            if paddedUnsigned(position, 6) == 0 { break }
            index += 1
            position += 6
            length = index
        }
        // Trailing spaces (32) are padding.
        while length > 0, paddedUnsigned(start + (length - 1) * 6, 6) == 32 { length -= 1 }
        return AISText(start: start, count: length)
    }
}

/// Why a sentence or a payload does not make an AIS message.
public enum AISError: Error, Sendable, Hashable {
    /// A payload byte outside the six-bit armouring alphabet.
    case badCharacter(UInt8)
    /// A fill-bit count outside 0…5.
    case badFillBits
    /// More bits than a message can have (``AISPayload/capacity``).
    case tooLong
    /// Fewer bits than the message type needs.
    case tooShort(type: Int, bits: Int, needed: Int)
    /// A fragment count or number that is not a number from 1 to 9, or a number past the count.
    case badFragment
    /// Not an encapsulated AIS sentence (`!xxVDM`, `!xxVDO`) with its six fields.
    case notAIS
}
