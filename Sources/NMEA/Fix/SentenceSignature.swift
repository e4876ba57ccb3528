/// What identifies a sentence's place in a receiver's cycle: talker, type, and for GSV whether it is the last part.
public struct SentenceSignature: Hashable, Sendable, CustomStringConvertible {
    /// Who sent the sentence.
    public var talker: Talker
    /// Its type (`RMC`, `GSV`…).
    public var type: SentenceType
    /// For GSV: `true` when this is the last sentence of its group.
    public var isLastPart: Bool

    init(_ talker: Talker, _ type: SentenceType, isLastPart: Bool = true) {
        self.talker = talker
        self.type = type
        self.isLastPart = isLastPart
    }

    /// The signature of `sentence` (its talker and type), for a sentence read outside the core
    /// (``FixReader/Options/sentenceDecoder``).
    public init(of sentence: Sentence) {
        self.init(sentence.talker, sentence.type)
    }

    /// The signature of a binary message (a UBX class and ID, `0xB562_0107` for NAV-PVT): proprietary, its number as
    /// its type.
    public init(binaryMessage number: UInt64) {
        self.init(.proprietary, SentenceType(rawValue: number | 1 << 63))
    }

    /// One of 64 bits for this signature, for telling cheaply whether it came before in an epoch (two signatures
    /// may share a bit: then a first one is taken for a repeat, which only delays learning the cycle's end).
    var bit: UInt64 {
        let key = type.rawValue ^ (UInt64(talker.rawValue) << 48) ^ (isLastPart ? 0 : 1 << 47)
        return 1 << ((key &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// A readable form, for messages and tests.
    public var description: String {
        "\(talker == .proprietary ? "" : talker.description)\(type)\(type == .gsv ? (isLastPart ? " (last)" : "") : "")"
    }
}
