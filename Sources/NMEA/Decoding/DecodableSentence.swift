/// A typed sentence that decodes from a ``Sentence`` view: `RMC`, `GGA`, `GSV`…
///
/// Each type lives in one file: its field diagram and a sample, its values, the one decoding initializer, and
/// ``describe(to:)``, which names its fields once for every output (JSON, tables…). ``SentenceKind`` lists the
/// types: dispatch by address, names, statistics and ``ParsedSentence`` all derive from it.
///
/// Decoders are initializers that throw typed errors, so a failure costs no allocation:
///
///     let rmc = try RMC(sentence)            // inside a Framer or FixReader callback
///     let rmc = try RMC(parsing: "$GPRMC,…*6A")   // from one line of text
///
/// Those two refuse a sentence with any field that does not read (they throw the first of them). To keep the fields
/// that do, with the bad ones absent and listed — as ``FixReader`` does — pass a ``FieldErrors``:
///
///     var errors = FieldErrors()
///     let ths = try THS(sentence, fieldErrors: &errors)   // $GPTHS,77.52,B: the heading, no mode, one error
public protocol DecodableSentence {
    /// This type's entry in the registry.
    static var kind: SentenceKind { get }
    /// How sentences of this type are addressed: `$--RMC` from any talker, `$PUBX,00`, `$PGRME`.
    static var address: SentenceAddress { get }
    /// One sentence of this type as a receiver sent it, checksum included.
    static var sample: String { get }

    /// Who sent the sentence; ``Talker/proprietary`` for a proprietary one.
    var talker: Talker { get }

    /// The type's one decoding body: decodes `sentence`, which must be of this type, reading its fields from
    /// `fields` (a reader at its first field), for sentences handed out by a ``Framer`` and for views made with
    /// ``Sentence/init(unchecked:checksum:line:)`` alike. A field that does not read is left absent and recorded in
    /// the reader's ``FieldReader/errors``.
    /// - Throws: only when there is nothing to decode: ``NMEAError/tooFewFields(expected:found:)`` for a sentence
    ///   without a single field, and, for proprietary messages told apart by their first field, one of another.
    init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError)

    /// Hands each named value to `sink`, in the order of the field diagram: the one description of this type's
    /// fields, from which `nmea parse` writes its JSON.
    func describe(to sink: inout some SentenceFieldSink)
}

extension DecodableSentence {
    /// Decodes `sentence`, which must be of this type, refusing it when any field does not read.
    /// - Throws: the first bad field as ``NMEAError/badField(index:reason:)``, or ``NMEAError/tooFewFields(expected:found:)``
    ///   for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        try self.init(sentence, reading: &fields)
        if let error = fields.errors.first { throw error }
    }

    /// Decodes `sentence`, which must be of this type, keeping every field that reads: those that do not are absent,
    /// and listed in `fieldErrors` (empty when all read).
    /// - Throws: ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence, fieldErrors: inout FieldErrors) throws(NMEAError) {
        var fields = sentence.fieldReader
        try self.init(sentence, reading: &fields)
        fieldErrors = fields.errors
    }

    /// The type this decoder reads (`RMC`), as it appears in the address after the talker; the whole address of a
    /// proprietary sentence (`PUBX`).
    @inlinable
    public static var sentenceType: SentenceType { address.type }

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

/// How a type of sentence is addressed: the letters after the talker (`RMC` in `$GPRMC`, from any talker), or a
/// proprietary address (`$PGRME`), maybe with the message ID that its first field carries (`$PUBX,00`).
public struct SentenceAddress: Hashable, Sendable {
    /// `RMC`; for a proprietary sentence its whole address, `PUBX`.
    public var type: SentenceType
    /// `true` for `$P…` addresses, which have no talker.
    public var isProprietary: Bool
    /// The two characters of the first field that tell apart proprietary messages sharing an address (`00` in
    /// `$PUBX,00`), packed first in the low byte; 0 when the address alone says it.
    public var messageID: UInt16

    /// A standard sentence, read from any talker.
    @inlinable
    public static func standard(_ type: SentenceType) -> SentenceAddress {
        SentenceAddress(type: type, isProprietary: false, messageID: 0)
    }

    /// A proprietary sentence whose address alone says what it is.
    @inlinable
    public static func proprietary(_ type: SentenceType) -> SentenceAddress {
        SentenceAddress(type: type, isProprietary: true, messageID: 0)
    }

    /// A proprietary sentence told apart by the two characters of its first field (`"0", "0"` for `$PUBX,00`).
    @inlinable
    public static func proprietary(_ type: SentenceType, messageID first: Unicode.Scalar, _ second: Unicode.Scalar)
        -> SentenceAddress
    {
        let id = UInt16(truncatingIfNeeded: first.value) | UInt16(truncatingIfNeeded: second.value) << 8
        return SentenceAddress(type: type, isProprietary: true, messageID: id)
    }

    @inlinable
    init(type: SentenceType, isProprietary: Bool, messageID: UInt16) {
        self.type = type
        self.isProprietary = isProprietary
        self.messageID = messageID
    }

    /// The message ID as text (`"00"`), or `nil` when the address has none.
    public var messageIDText: String? {
        guard messageID != 0 else { return nil }
        return String(
            decoding: [UInt8(truncatingIfNeeded: messageID), UInt8(truncatingIfNeeded: messageID >> 8)],
            as: UTF8.self)
    }

    /// As the address is written: `RMC`, `PUBX,00`, `PGRME`.
    public var name: String {
        guard let id = messageIDText else { return type.description }
        return "\(type),\(id)"
    }
}
