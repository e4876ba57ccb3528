/// Counts of decoded sentences per type, unknown types, and decode failures.
public struct DecoderStatistics: Hashable, Sendable {
    /// Decoded sentences, indexed by ``SentenceKind/rawValue``.
    public private(set) var decoded: [Int]
    /// Sentences of types no decoder reads (handed out as ``ParsedSentence/unknown(_:)``).
    public var unknown = 0
    /// Sentences whose fields could not be decoded.
    public var failed = 0

    /// Zeroed counters. (The one allocation happens here, not per sentence.)
    public init() {
        decoded = Array(repeating: 0, count: SentenceKind.allCases.count)
    }

    /// Decoded sentences of `kind`.
    public subscript(kind: SentenceKind) -> Int { decoded[kind.rawValue] }

    /// Every sentence decoded into a type.
    public var totalDecoded: Int { decoded.reduce(0, +) }

    /// Counts the outcome of one ``ParsedSentence/init(_:)``.
    @inline(__always)
    public mutating func record(_ result: ParsedSentence) {
        if let kind = result.kind { decoded[kind.rawValue] += 1 } else { unknown += 1 }
    }

    /// Counts one decode failure.
    @inline(__always)
    public mutating func recordFailure() { failed += 1 }

    public static func + (lhs: DecoderStatistics, rhs: DecoderStatistics) -> DecoderStatistics {
        var sum = lhs
        for index in sum.decoded.indices { sum.decoded[index] += rhs.decoded[index] }
        sum.unknown += rhs.unknown
        sum.failed += rhs.failed
        return sum
    }
}
