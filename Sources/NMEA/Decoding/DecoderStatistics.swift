/// Counts of decoded sentences per type, unknown types, and decode failures.
public struct DecoderStatistics: Hashable, Sendable {
    /// The most kinds the counters have room for. `SentenceKind.allCases.count` may not exceed it: `RegistryTests`
    /// checks that it does not, and a kind past it would stop the program at its first count (the counters are
    /// subscripted with bounds checks), never write out of bounds.
    public static let capacity = 128

    /// Decoded sentences, indexed by ``SentenceKind/rawValue``; those past the last kind stay 0. Loops over them run
    /// over the indices, not `SentenceKind.allCases` (an array made at each call).
    @usableFromInline var decoded: InlineArray<128, Int>
    /// Sentences of types no decoder reads (handed out as ``ParsedSentence/unknown(_:)``).
    public var unknown = 0
    /// Sentences that could not be decoded at all (not a single field).
    public var failed = 0
    /// Of the decoded sentences, those with a field that did not read: decoded without it, its other fields kept.
    public var withFieldErrors = 0
    /// Sentences of a kind the reader was told not to decode (GSV when ``FixReader/Options/readsSky`` is `false`):
    /// framed and checked, not read, not in ``totalDecoded``.
    public var skipped = 0

    /// Zeroed counters.
    public init() {
        precondition(SentenceKind.allCases.count <= DecoderStatistics.capacity, "more sentence kinds than counters")
        decoded = InlineArray(repeating: 0)
    }

    /// Decoded sentences of `kind`.
    public subscript(kind: SentenceKind) -> Int { decoded[kind.rawValue] }

    /// Every sentence decoded into a type.
    public var totalDecoded: Int { decoded.indices.reduce(0) { $0 + decoded[$1] } }

    /// Counts the outcome of one ``ParsedSentence/init(_:)``.
    @inlinable @inline(__always)
    public mutating func record(_ result: ParsedSentence) {
        record(result.kind)
    }

    /// Counts one decoded sentence of `kind`, or an unknown one for `nil`.
    @inlinable @inline(__always)
    public mutating func record(_ kind: SentenceKind?) {
        if let kind { decoded[kind.rawValue] &+= 1 } else { unknown &+= 1 }
    }

    /// Counts one decode failure.
    @inlinable
    public mutating func recordFailure() { failed &+= 1 }

    /// Counts one decoded sentence that had a field that did not read.
    @inlinable
    public mutating func recordFieldErrors() { withFieldErrors &+= 1 }

    /// Counts one sentence not decoded.
    @inlinable
    public mutating func recordSkipped() { skipped &+= 1 }

    /// The counts of both, added.
    public static func + (lhs: DecoderStatistics, rhs: DecoderStatistics) -> DecoderStatistics {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// Adds the counts of `rhs` in place (no copy of the counters: a piece's counts join a reader's at each piece).
    public static func += (lhs: inout DecoderStatistics, rhs: DecoderStatistics) {
        for index in lhs.decoded.indices { lhs.decoded[index] += rhs.decoded[index] }
        lhs.unknown += rhs.unknown
        lhs.failed += rhs.failed
        lhs.withFieldErrors += rhs.withFieldErrors
        lhs.skipped += rhs.skipped
    }

    /// The counts since `earlier`, a snapshot of the same counters.
    public func since(_ earlier: DecoderStatistics) -> DecoderStatistics {
        var difference = self
        for index in difference.decoded.indices { difference.decoded[index] -= earlier.decoded[index] }
        difference.unknown -= earlier.unknown
        difference.failed -= earlier.failed
        difference.withFieldErrors -= earlier.withFieldErrors
        difference.skipped -= earlier.skipped
        return difference
    }

    /// Equal when every value is.
    public static func == (lhs: DecoderStatistics, rhs: DecoderStatistics) -> Bool {
        lhs.unknown == rhs.unknown && lhs.failed == rhs.failed && lhs.withFieldErrors == rhs.withFieldErrors
            && lhs.skipped == rhs.skipped
            && lhs.decoded.indices.allSatisfy { lhs.decoded[$0] == rhs.decoded[$0] }
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        for index in decoded.indices { hasher.combine(decoded[index]) }
        hasher.combine(unknown)
        hasher.combine(failed)
        hasher.combine(withFieldErrors)
        hasher.combine(skipped)
    }
}
