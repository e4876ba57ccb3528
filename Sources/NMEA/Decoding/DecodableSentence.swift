/// A typed sentence that decodes from a ``Sentence`` view: `RMC`, `GGA`, `GSV`…
///
/// Decoders are initializers that throw typed errors, so a failure costs no allocation:
///
///     let rmc = try RMC(sentence)            // inside a Framer callback
///     let rmc = try RMC(parsing: "$GPRMC,…*6A")   // from one line of text
public protocol DecodableSentence: Sendable {
    /// The type this decoder reads (`RMC`), as it appears in the address after the talker.
    static var sentenceType: SentenceType { get }

    /// Decodes `sentence`, which must be of type ``sentenceType``.
    init(_ sentence: Sentence) throws(NMEAError)
}

extension DecodableSentence {
    /// Checks and decodes one line of NMEA text.
    /// - Throws: a framing error (``NMEAError/checksumMismatch(calculated:found:)``…),
    ///   ``NMEAError/wrongType(expected:found:)`` for a sentence of another type, or the decoder's error.
    public init(parsing line: some StringProtocol, checksumPolicy: Framer.ChecksumPolicy = .required)
        throws(NMEAError)
    {
        self = try Sentence.withParsing(line, checksumPolicy: checksumPolicy) { (sentence) throws(NMEAError) in
            guard sentence.type == Self.sentenceType else {
                throw .wrongType(expected: Self.sentenceType, found: sentence.type)
            }
            return try Self(sentence)
        }
    }
}
