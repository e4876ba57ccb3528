extension SentenceKind {
    /// The decoder for `sentence`, or `nil` when none decodes its type.
    ///
    /// One hashed lookup on the packed letters of the address, in a table built once from the registry.
    @inlinable @inline(__always)
    public init?(_ sentence: Sentence) {
        guard let kind = SentenceKindTable.kind(of: sentence) else { return nil }
        self = kind
    }

    /// How sentences of this kind are addressed.
    public var address: SentenceAddress {
        struct Address: SentenceDecoderBody {
            func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) -> SentenceAddress {
                S.address
            }
        }
        var body = Address()
        return withDecoder(&body)
    }

    /// The second address this kind's sentences arrive under (``DecodableSentence/alternativeAddress``), if any.
    public var alternativeAddress: SentenceAddress? {
        struct Address: SentenceDecoderBody {
            func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) -> SentenceAddress? {
                S.alternativeAddress
            }
        }
        var body = Address()
        return withDecoder(&body)
    }

    /// The name used in output: `"RMC"`, `"PUBX,00"`, `"PGRME"`…
    public var name: String { address.name }
}

/// What ``SentenceKind/withDecoder(_:)`` hands a kind's decoder type to: a generic function, written as a type.
@usableFromInline
package protocol SentenceDecoderBody {
    associatedtype Output = Void
    associatedtype Failure: Error = Never
    /// Called with the decoder `type` and `parsed`, the ``ParsedSentence`` case that holds its values.
    mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) throws(Failure)
        -> Output
}

/// Address → kind for every kind of the registry (every kind's address, and its alternative address where it has
/// one): open addressing over 128 slots keyed by the packed type letters. The table itself, ``slots``, is written out
/// by `scripts/generate-registry` into `Generated/SentenceKind+Dispatch.swift`, in static storage (no allocation and
/// no check at each lookup: firmware counts on both); ``built(from:)`` makes it here, for `RegistryTests` to compare.
@usableFromInline
enum SentenceKindTable {
    /// One slot of the table.
    @usableFromInline
    struct Slot: Sendable, Equatable {
        /// The packed letters of the type; 0 for an empty slot (no registered type packs to 0).
        @usableFromInline var type: UInt64
        /// As ``SentenceAddress/messageID``.
        @usableFromInline var messageID: UInt64
        @usableFromInline var isProprietary: Bool
        @usableFromInline var kind: SentenceKind

        /// A slot of the generated table (`type` 0: an empty one).
        @inlinable
        init(_ type: UInt64, _ messageID: UInt64, _ isProprietary: Bool, _ kind: SentenceKind) {
            self.type = type
            self.messageID = messageID
            self.isProprietary = isProprietary
            self.kind = kind
        }
    }

    @usableFromInline static let mask = 127

    /// The table for `kinds`, inserted in their order (the address, then the alternative), probing linearly: what
    /// ``slots`` must be.
    package static func built(from kinds: [SentenceKind]) -> InlineArray<128, Slot> {
        var slots = InlineArray<128, Slot>(repeating: Slot(0, 0, false, .rmc))
        func insert(_ address: SentenceAddress, _ kind: SentenceKind) {
            precondition(address.type.rawValue != 0, "a kind has an empty type")
            var index = slot(address.type)
            while slots[index].type != 0 { index = (index + 1) & mask }
            slots[index] = Slot(address.type.rawValue, address.messageID, address.isProprietary, kind)
        }
        for kind in kinds {
            insert(kind.address, kind)
            if let alternative = kind.alternativeAddress { insert(alternative, kind) }
        }
        return slots
    }

    @inlinable @inline(__always)
    static func slot(_ type: SentenceType) -> Int {
        Int(truncatingIfNeeded: (type.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    @inlinable @inline(__always)
    static func kind(of sentence: Sentence) -> SentenceKind? {
        let type = sentence.type.rawValue
        let proprietary = sentence.talker == .proprietary
        var index = slot(sentence.type)
        while true {
            let slot = SentenceKindTable.slots[index]
            if slot.type == 0 { return nil }
            if slot.type == type && slot.isProprietary == proprietary
                && (slot.messageID == 0 || sentence.hasMessageID(slot.messageID))
            {
                return slot.kind
            }
            index = (index + 1) & mask
        }
    }
}

extension Sentence {
    /// `true` when field 1 is the message `id` (``SentenceAddress/messageID``): the same characters, all of them, or
    /// for ``SentenceAddress/numberMessageID`` a field that begins with a digit or is empty (anything but a word).
    /// Only proprietary addresses shared by several messages ask.
    @usableFromInline @inline(never)
    func hasMessageID(_ id: UInt64) -> Bool {
        guard fieldsOffset < bytes.count else {
            return id == SentenceAddress.numberMessageID && fieldsOffset == bytes.count
        }
        let start = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + fieldsOffset
        let count = bytes.count - fieldsOffset
        if id == SentenceAddress.numberMessageID {
            return start[0] == UInt8(ascii: ",") || start[0] &- UInt8(ascii: "0") < 10
        }
        var packed: UInt64 = 0
        var offset = 0
        while offset < count && start[offset] != UInt8(ascii: ",") {
            guard offset < 8 else { return false }
            packed |= UInt64(start[offset]) << (8 * UInt64(offset))
            offset += 1
        }
        return packed == id
    }
}
