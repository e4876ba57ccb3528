/// A sentence of a type this library does not decode, owned: its bytes (address and fields, up to ``capacity``)
/// are kept inline, so it is made without allocating and may be kept, copied and sent anywhere, unlike the
/// ``Sentence`` view it was made from.
///
///     if case .unknown(let other) = try ParsedSentence(parsing: "$PINV,17,ON*14") {
///         print(other.address, other.fieldCount)  // PINV 2
///         let state = try other.withSentence { (sentence) throws(NMEAError) in
///             var fields = sentence.fieldReader
///             return fields.integer(in: 0...99)  // decode your own type from the fields
///         }
///     }
public struct UnknownSentence: Hashable, Sendable {
    /// The most bytes of a sentence kept (from `$` to the last field, without the checksum): NMEA's limit is 82
    /// with the checksum and line end; a longer sentence keeps its first 96 bytes and sets ``isTruncated``.
    public static let capacity = 96
    @usableFromInline var storage: InlineArray<96, UInt8>
    /// The number of bytes kept.
    public private(set) var count: Int
    /// `true` when the sentence was longer than ``capacity`` bytes and its end was dropped.
    public private(set) var isTruncated: Bool
    /// Who sent it; ``Talker/proprietary`` for a proprietary sentence.
    public let talker: Talker
    /// Its type (`XYZ` of `$GPXYZ`), or for a proprietary sentence its whole address, up to eight letters.
    public let type: SentenceType
    /// The checksum it carried, if any.
    public let checksum: UInt8?

    /// Copies `sentence`'s address and fields.
    public init(_ sentence: Sentence) {
        storage = InlineArray(repeating: 0)
        count = min(sentence.bytes.count, UnknownSentence.capacity)
        isTruncated = sentence.bytes.count > UnknownSentence.capacity
        for index in 0..<count { storage[index] = sentence.bytes[index] }
        talker = sentence.talker
        type = sentence.type
        checksum = sentence.checksum
    }

    /// Calls `body` with a ``Sentence`` view of the kept bytes, valid during the call: its
    /// ``Sentence/fieldReader`` reads the fields as the library's decoders do.
    /// - Throws: what `body` throws.
    public func withSentence<R>(_ body: (Sentence) throws(NMEAError) -> R) throws(NMEAError) -> R {
        var copy = storage
        let kept = count
        let checksum = checksum
        return try withUnsafeBytes(of: &copy) { (raw) throws(NMEAError) -> R in
            let sentence = try Sentence(unchecked: UnsafeRawBufferPointer(rebasing: raw[0..<kept]), checksum: checksum)
            return try body(sentence)
        }
    }

    /// The address as written, without `$`: `GPXYZ`, `PINV`.
    public var address: String {
        var text = ""
        for index in 1..<count {
            let byte = storage[index]
            if byte == UInt8(ascii: ",") { break }
            text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        return text
    }

    /// The number of fields after the address.
    public var fieldCount: Int {
        var fields = 0
        var afterAddress = false
        for index in 0..<count where storage[index] == UInt8(ascii: ",") {
            fields += 1
            afterAddress = true
        }
        return afterAddress ? fields : 0
    }

    /// The fields' text, in order (invalid UTF-8 repaired).
    public var fields: [String] {
        var fields: [String] = []
        withUnsafeBytes(of: storage) { raw in
            var start = -1
            for index in 0...count {
                guard index == count || raw[index] == UInt8(ascii: ",") else { continue }
                if start >= 0 {
                    fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<index]), as: UTF8.self))
                }
                start = index + 1
            }
        }
        return fields
    }

    /// Equal when the same bytes were kept from the same sentence.
    public static func == (lhs: UnknownSentence, rhs: UnknownSentence) -> Bool {
        guard lhs.count == rhs.count, lhs.isTruncated == rhs.isTruncated, lhs.checksum == rhs.checksum else {
            return false
        }
        for index in 0..<lhs.count where lhs.storage[index] != rhs.storage[index] { return false }
        return true
    }

    /// Hashes the kept bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count { hasher.combine(storage[index]) }
    }
}
