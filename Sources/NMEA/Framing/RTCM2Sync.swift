/// RTCM SC-104 version 2 as it arrives on a serial line: six data bits a byte (bytes `0x40`…`0x7F`, the bits least
/// significant first), 30-bit words of 24 data bits and 6 parity bits (IS-GPS-200's Hamming code, chained through
/// the last two bits of the word before, which also say when the data bits are sent inverted), a message of a
/// two-word header and as many words as the header says (at most 31).
///
/// The framer hands it the bytes it finds between sentences. Unlocked, it slides a bit at a time until a word
/// starts with the preamble `0x66` and its parity checks, as gpsd does; locked, it takes a word every 30 bits and
/// loses the lock at a parity failure (then slides again from there). A message whose words all check is held
/// (``message``: its words, 4 bytes each, big-endian, the 30 bits of each with the data bits as meant) until the
/// next byte. Memory is fixed: 33 words.
struct RTCM2Sync {
    static let preamble: UInt32 = 0x66

    /// The last 32 bits received: the word now ending in bits 29…0, the two bits before it (D29*, D30*) above.
    private var register: UInt32 = 0
    /// Locked: bits taken since the last word ended.
    private var bitsInWord = 0
    private(set) var isLocked = false
    /// The message's words so far, 4 bytes each, big-endian: at most the header's two and 31 more.
    private var bytes = InlineArray<132, UInt8>(repeating: 0)
    private var wordCount = 0
    /// The header's length field (the words after the header), once the second word is in.
    private var length = 0
    /// The words of the message completed by the last byte, when it completed one.
    private(set) var completedWords = 0

    /// `true` when nothing of a stream is held: unlocked, and no bits gathered since the last line feed.
    var isPristine: Bool { !isLocked && register == 0 }

    /// A line feed between sentences: unlocked, the bits gathered are dropped (RTCM 2 has no line feeds; a locked
    /// stream goes on past a stray one, as gpsd's does).
    mutating func lineEnded() {
        if !isLocked { register = 0 }
    }

    /// Takes one byte (in `0x40…0x7F`; any other is not RTCM 2 and leaves the state as it is); `true` when it
    /// completed a message (``withMessage(_:)``).
    mutating func add(_ byte: UInt8) -> Bool {
        completedWords = 0
        guard byte & 0xC0 == 0x40 else { return false }
        let data = byte & 0x3F
        var completed = false
        // The six bits go least significant first.
        for shift in 0..<6 {
            register = register << 1 | UInt32(data >> UInt8(shift) & 1)
            if isLocked {
                bitsInWord += 1
                if bitsInWord == 30 { completed = takeWord() || completed }
            } else if Self.word(register) >> 22 & 0xFF == Self.preamble, Self.parityHolds(register) {
                isLocked = true
                wordCount = 0
                bitsInWord = 30
                completed = takeWord() || completed
            }
        }
        return completed
    }

    /// The word just ended: kept when its parity holds (the message's first must be a preamble), else the lock is
    /// lost. `true` when it completed a message.
    private mutating func takeWord() -> Bool {
        bitsInWord = 0
        var candidate = register
        // D30* set: the data bits were sent inverted.
        if candidate & 0x4000_0000 != 0 { candidate ^= 0x3FFF_FFC0 }
        guard Self.parityHolds(candidate) else {
            isLocked = false
            return false
        }
        let word = Self.word(candidate)
        if wordCount == 0 && word >> 22 & 0xFF != Self.preamble {
            isLocked = false
            return false
        }
        for byte in 0..<4 { bytes[wordCount * 4 + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * byte)) }
        wordCount += 1
        if wordCount == 2 { length = Int(word >> 9 & 0x1F) }
        guard wordCount >= 2, wordCount == length + 2 else { return false }
        completedWords = wordCount
        wordCount = 0
        return true
    }

    /// The 30 bits of a word.
    @inline(__always)
    private static func word(_ bits: UInt32) -> UInt32 { bits & 0x3FFF_FFFF }

    /// Whether the six parity bits (D25…D30, bits 5…0) are what IS-GPS-200 computes from the data bits (29…6) and the
    /// previous word's D29* and D30* (bits 31 and 30).
    private static func parityHolds(_ bits: UInt32) -> Bool {
        @inline(__always) func bit(_ mask: UInt32) -> UInt32 { UInt32((bits & mask).nonzeroBitCount & 1) }
        let parity =
            bit(0xBB1F_3480) << 5 | bit(0x5D8F_9A40) << 4 | bit(0xAEC7_CD00) << 3 | bit(0x5763_E680) << 2
            | bit(0x6BB1_F340) << 1 | bit(0x8B7A_89C0)
        return parity == bits & 0x3F
    }

    /// The completed message's words, 4 bytes each, big-endian; valid only during the call.
    func withMessage<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = completedWords * 4
        return try bytes.span.withUnsafeBytes { (all) throws(E) in
            try body(UnsafeRawBufferPointer(rebasing: all[..<count]))
        }
    }
}
