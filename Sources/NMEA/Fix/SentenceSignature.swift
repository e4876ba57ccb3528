/// What identifies a sentence's place in a receiver's cycle: talker, type, and for GSV whether it is the last part.
public struct SentenceSignature: Hashable, Sendable, CustomStringConvertible {
    public var talker: Talker
    public var type: SentenceType
    /// For GSV: `true` when this is the last sentence of its group.
    public var isLastPart: Bool

    init(_ talker: Talker, _ type: SentenceType, isLastPart: Bool = true) {
        self.talker = talker
        self.type = type
        self.isLastPart = isLastPart
    }

    public var description: String {
        "\(talker == .proprietary ? "" : talker.description)\(type)\(type == .gsv ? (isLastPart ? " (last)" : "") : "")"
    }
}
