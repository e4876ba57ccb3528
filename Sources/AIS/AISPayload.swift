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

    /// The payload of one armoured fragment in memory, sixteen bytes at a time (see ``init(armored:fillBits:)``).
    public init(armored: UnsafeRawBufferPointer, fillBits: Int = 0) throws(AISError) {
        self.init()
        try append(armored: armored, fillBits: fillBits)
    }

    /// Appends an armoured fragment: six bits per byte, less `fillBits` padding bits at its end, sixteen bytes at a
    /// time (``appendArmoredPrefix(of:from:)``). After a throw the payload is not to be used.
    public mutating func append(armored: UnsafeRawBufferPointer, fillBits: Int) throws(AISError) {
        guard (0...5).contains(fillBits) else { throw .badFillBits }
        guard bitCount + armored.count * 6 <= Self.capacity else { throw .tooLong }
        let end = appendArmoredPrefix(of: armored, from: 0)
        guard end == armored.count else { throw .badCharacter(armored[end]) }
        try removeFillBits(fillBits)
    }

    /// Appends the six-bit values of `bytes` from `start` up to the first byte outside the armouring alphabet, the
    /// end of `bytes` or ``capacity``, whichever comes first, and returns where it stopped: a sentence's payload is
    /// unarmoured as its end, the next comma, is looked for. Sixteen bytes per step (``sixBits(sixteen:)``), the
    /// bits gathered in a register and stored a word at a time; the last few bytes copied into one more vector.
    mutating func appendArmoredPrefix(of bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let limit = min(bytes.count, start &+ (Self.capacity &- bitCount) / 6)
        let bitCount = self.bitCount
        let end = withUnsafeMutablePointer(to: &words) { words in
            var writer = BitWriter(UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt64.self), bitCount)
            var index = start
            // Vectors of sixteen valid bytes.
            while index &+ 16 <= limit {
                let vector = base.loadUnaligned(fromByteOffset: index, as: Vector.self)
                let (bits, invalid) = Self.sixBits(sixteen: vector)
                if invalid.first | invalid.second != 0 { break }
                writer.append(top: bits.first &<< 16, count: 48)
                writer.append(top: bits.second &<< 16, count: 48)
                index &+= 16
            }
            // The vector with the first invalid byte, or the bytes before the limit (fewer than sixteen) followed by
            // zeros, which are not in the alphabet.
            let rest = limit &- index
            if rest > 0 {
                var vector = Vector()
                if rest >= 16 {
                    vector = base.loadUnaligned(fromByteOffset: index, as: Vector.self)
                } else {
                    withUnsafeMutableBytes(of: &vector) { $0.copyMemory(from: .init(start: base + index, count: rest)) }
                }
                let (bits, invalid) = Self.sixBits(sixteen: vector)
                let valid =
                    invalid.first != 0
                    ? invalid.first.trailingZeroBitCount &>> 3 : 8 &+ invalid.second.trailingZeroBitCount &>> 3
                writer.append(top: Self.firstLanes(bits.first, min(valid, 8)), count: min(valid, 8) &* 6)
                if valid > 8 { writer.append(top: Self.firstLanes(bits.second, valid &- 8), count: (valid &- 8) &* 6) }
                index &+= valid
            }
            writer.finish()
            return index
        }
        storedBitCount = bitCount &+ (end &- start) &* 6
        return end
    }

    /// Sixteen armouring bytes.
    typealias Vector = SIMD16<UInt8>
    /// What is found of the first eight and the second eight bytes of a ``Vector``.
    typealias Halves = (first: UInt64, second: UInt64)

    /// The first `count` (0…8) six-bit values of the 48 `bits` (the first on top), on top of a word, zeros below.
    @inline(__always)
    private static func firstLanes(_ bits: UInt64, _ count: Int) -> UInt64 {
        bits &<< 16 & ~(UInt64.max &>> UInt64(count &* 6))
    }

    /// Bits appended at the end of a payload's words, gathered in a register and stored a word at a time.
    private struct BitWriter {
        let words: UnsafeMutablePointer<UInt64>
        /// The word being filled (its index), its bits so far on top, and how many there are.
        var word: Int
        var current: UInt64
        var used: Int

        /// A writer after the first `bitCount` bits of `words`.
        @inline(__always)
        init(_ words: UnsafeMutablePointer<UInt64>, _ bitCount: Int) {
            self.words = words
            word = bitCount &>> 6
            used = bitCount & 63
            current = words[word]
        }

        /// Appends the `count` (at most 48) bits on top of `top`, the bits below them zeros.
        @inline(__always)
        mutating func append(top: UInt64, count: Int) {
            current |= top &>> UInt64(used)
            if used &+ count >= 64 {
                words[word] = current
                word &+= 1
                // `used` is 16 or more here: the shift is at most 48, and leaves the bits that did not fit.
                current = top &<< UInt64(64 &- used)
                used = used &+ count &- 64
            } else {
                used &+= count
            }
        }

        /// Stores the word being filled.
        @inline(__always)
        func finish() { words[word] = current }
    }

    /// Removes the last `fillBits` bits (padding that ends an armoured payload), at most 5.
    /// - Throws: ``AISError/badFillBits`` for a count outside 0…5.
    @inline(__always)
    mutating func removeFillBits(_ fillBits: Int) throws(AISError) {
        guard (0...5).contains(fillBits) else { throw .badFillBits }
        storedBitCount = max(0, bitCount - fillBits)
        clearPadding()
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

    /// The bits of sixteen armouring bytes, 48 for each eight (the first byte's six bits on top), with `invalid` 0;
    /// or `invalid` with the high bit set in the byte lane of each byte outside the alphabet (the first eight bytes'
    /// lanes in `first`, the first byte in its low byte). Every test and subtraction works on the sixteen bytes at
    /// once, with no borrow from one byte to the next.
    @inline(__always)
    static func sixBits(sixteen bytes: Vector) -> (bits: Halves, invalid: Halves) {
        let high = Vector(repeating: 0x80)
        // Valid bytes are 0x30…0x57 and 0x60…0x77. Flags: a high bit set, below 0x30, above 0x77, 0x58…0x5F.
        let below = ~(bytes &+ 0x50)
        let above = bytes &+ 0x08
        let gap = (bytes &+ 0x28) & ~(bytes &+ 0x20)
        let invalid = unsafeBitCast((bytes | below | above | gap) & high, to: SIMD2<UInt64>.self)
        // 0x30…0x57 are 0…39; 0x60…0x77 are 48…71 less 8.
        let offset = bytes &- 0x30
        let values = offset &- ((offset &+ 0x58) & high) &>> 4
        // Six bits a byte, the first byte on top, packed pairwise: 12 bits in 16, 24 in 32, 48 in 64.
        let pairs = unsafeBitCast(values, to: SIMD8<UInt16>.self)
        let twelve = unsafeBitCast((pairs & 0x3F) &<< 6 | pairs &>> 8 & 0x3F, to: SIMD4<UInt32>.self)
        let twentyFour = unsafeBitCast((twelve & 0xFFF) &<< 12 | twelve &>> 16, to: SIMD2<UInt64>.self)
        let bits = (twentyFour & 0xFF_FFFF) &<< 24 | twentyFour &>> 32
        return ((bits[0], bits[1]), (invalid[0], invalid[1]))
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
    /// zeros for its missing bits (as gpsd reads a text of fixed length); without, it is left out. Ten characters a
    /// step: the `@` that ends the text and the spaces that pad it are found in a word of ten six-bit lanes.
    func text(_ start: Int, characters: Int, partial: Bool = false) -> AISText {
        let end = partial ? bitCount + 5 : bitCount
        let count = end > start ? min(characters, (end - start) / 6) : 0
        var length = 0
        var index = 0
        while index < count {
            let lanes = min(10, count - index)
            // Ten characters in the low 60 bits, the first on top; the lanes past `lanes` are not looked at.
            let chunk = window(start + index * 6) >> 4
            let inChunk = Self.laneTops & ~((1 << UInt64(60 - 6 * lanes)) &- 1)
            let terminators = Self.zeroLanes(chunk) & inChunk
            // Lane j's top bit is bit 59 - 6j: the first `@` is the highest one.
            let read = terminators == 0 ? lanes : (terminators.leadingZeroBitCount - 4) / 6
            let kept = Self.laneTops & ~((1 << UInt64(60 - 6 * read)) &- 1)
            let printed = ~Self.zeroLanes(chunk ^ Self.spaces) & kept
            if printed != 0 { length = index + (59 - printed.trailingZeroBitCount) / 6 + 1 }
            if read < lanes { break }
            index += lanes
        }
        return AISText(start: start, count: length)
    }

    /// The top bit of each of ten six-bit lanes in the low 60 bits of a word.
    private static let laneTops: UInt64 = 0x0820_8208_2082_0820
    /// A space (32) in each of the ten lanes.
    private static let spaces: UInt64 = laneTops
    /// The top bit of each lane of `lanes` (ten six-bit lanes in the low 60 bits) that is zero; exact, no borrow
    /// crosses from one lane to the next.
    @inline(__always)
    private static func zeroLanes(_ lanes: UInt64) -> UInt64 {
        let low: UInt64 = laneTops >> 5 &* 31
        return ~(((lanes & low) &+ low) | lanes) & laneTops
    }

    /// The 64 bits from bit `start` (below 1,029), the bits past the last word zeros.
    @inline(__always)
    func window(_ start: Int) -> UInt64 {
        let word = start >> 6
        let offset = UInt64(start & 63)
        let next = word < 16 ? words[word + 1] : 0
        return words[word] << offset | (offset == 0 ? 0 : next >> (64 - offset))
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
