/// The bits of one AIS message, unarmoured from the six-bit ASCII of `!AIVDM` payloads and stored inline: up to
/// ``capacity`` bits (five slots of a multi-slot message fit), never on the heap.
///
/// Bits are numbered from 0, the first bit of the message, as ITU-R M.1371 numbers them. Reads past the end of the
/// message give zeros, as the standard's "not transmitted" trailing fields are; ``bitCount`` says where the message
/// ends, so a decoder can tell a field it was sent from one it was not.
public struct AISPayload: Sendable {
    /// The most bits a payload holds: 1,024 (a five-slot message is at most 1,008).
    public static let capacity = 1024

    @usableFromInline var words: InlineArray<17, UInt64>
    /// The number of bits in the message.
    @usableFromInline var storedBitCount: Int
    /// The number of bits in the message.
    @inlinable public var bitCount: Int { storedBitCount }

    /// An empty payload.
    @inlinable
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

    /// Appends an armoured fragment: six bits per byte, less `fillBits` padding bits at its end. Six bits at a time
    /// into a 64-bit word kept in a register, stored as it fills. After a throw the payload is not to be used.
    public mutating func append(armored: some Collection<UInt8>, fillBits: Int) throws(AISError) {
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
    }

    /// The six-bit value an armouring byte stands for: `0`…`W` are 0…39, `` ` ``…`w` are 40…63.
    @inlinable
    static func sixBits(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 48...87: UInt64(byte &- 48)
        case 96...119: UInt64(byte &- 56)
        default: nil
        }
    }

    @inlinable
    mutating func appendSixBits(_ value: UInt64) throws(AISError) {
        guard bitCount + 6 <= Self.capacity else { throw .tooLong }
        let word = bitCount >> 6
        let offset = bitCount & 63
        if offset <= 58 {
            words[unchecked: word] |= value << UInt64(58 - offset)
        } else {
            let spill = offset - 58  // bits that go to the next word
            words[unchecked: word] |= value >> UInt64(spill)
            words[unchecked: word + 1] |= value << UInt64(64 - spill)
        }
        storedBitCount += 6
    }

    /// The unsigned integer of `width` bits (at most 32) from bit `start`.
    @inlinable @inline(__always)
    public func unsigned(_ start: Int, _ width: Int) -> UInt32 {
        precondition(start >= 0 && width >= 0 && width <= 32 && start + width <= Self.capacity)
        if width == 0 { return 0 }
        let word = start >> 6
        let offset = start & 63
        let span = words.span
        var value = span[unchecked: word] << UInt64(offset)
        if offset + width > 64 { value |= span[unchecked: word + 1] >> UInt64(64 - offset) }
        return UInt32(truncatingIfNeeded: value >> UInt64(64 - width))
    }

    /// The two's-complement integer of `width` bits (at most 32) from bit `start`.
    @inlinable @inline(__always)
    public func signed(_ start: Int, _ width: Int) -> Int32 {
        let raw = unsigned(start, width)
        if width == 0 || width == 32 { return Int32(bitPattern: raw) }
        let shift = UInt32(32 - width)
        return Int32(bitPattern: raw << shift) >> Int32(shift)
    }

    /// The bit at `index`.
    @inlinable @inline(__always)
    public func bit(_ index: Int) -> Bool { unsigned(index, 1) == 1 }

    /// The six-bit text of `characters` characters from bit `start`, as the standard writes names and call signs:
    /// `@` (0) ends it, trailing spaces are dropped. Stops at the end of the message.
    public func text(_ start: Int, characters: Int) -> AISText {
        var length = 0
        var index = 0
        var position = start
        while index < characters, position + 6 <= bitCount {
            if unsigned(position, 6) == 0 { break }
            index += 1
            position += 6
            length = index
        }
        // Trailing spaces (32) are padding.
        while length > 0, unsigned(start + (length - 1) * 6, 6) == 32 { length -= 1 }
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
