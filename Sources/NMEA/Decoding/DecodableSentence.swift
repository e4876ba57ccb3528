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
    /// A second address the same message arrives under, or `nil` (the default): Trimble's manuals write the DGPS
    /// status `$PTNLDG`, and logs also hold it as `$PTNL,DG`. The decoder reads both; ``address`` names the type.
    static var alternativeAddress: SentenceAddress? { get }
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

    /// This value in its ``ParsedSentence`` case (written from the registry).
    var parsedSentence: ParsedSentence { get }

    /// Merges this sentence's facts for a fix (a time, a position, a heading…) into the epoch `assembler` is
    /// building, and gives the sentence's place in the receiver's cycle, or `nil` when it belonged to an epoch
    /// already handed out. ``FixAssembler`` calls it, specialized for each type (no dynamic cast); to add a sentence
    /// yourself, use ``FixAssembler/add(_:_:)-(ParsedSentence,_)``. The default, for types without fix data, takes
    /// only the sentence's place in the cycle.
    func merge(into assembler: inout FixAssembler) -> SentenceSignature?
}

extension DecodableSentence {
    /// No fix data: only the sentence's place in the receiver's cycle. Proprietary messages that share an address
    /// are told apart from the one without a message ID.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        let address = Self.address
        return SentenceSignature(talker, address.type, isLastPart: address.messageID == 0)
    }

    /// None: one address says what the sentence is.
    @inlinable
    public static var alternativeAddress: SentenceAddress? { nil }

    /// The address `sentence`, a sentence of this type, came under: ``address``, or ``alternativeAddress`` when its
    /// type is that one's.
    @inlinable
    public static func address(of sentence: Sentence) -> SentenceAddress {
        if let alternative = alternativeAddress, sentence.type == alternative.type { return alternative }
        return address
    }

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
            guard sentence.type == Self.sentenceType || sentence.type == Self.alternativeAddress?.type else {
                throw .wrongType(expected: Self.sentenceType, found: sentence.type)
            }
            return try Self(sentence)
        }
    }
}

/// How a type of sentence is addressed: the letters after the talker (`RMC` in `$GPRMC`, from any talker), or a
/// proprietary address (`$PGRME`), maybe with the message ID that its first field carries (`$PUBX,00`,
/// `$PTNL,GGK`, `$PFEC,GPatt`).
public struct SentenceAddress: Hashable, Sendable {
    /// `RMC`; for a proprietary sentence its whole address, `PUBX`.
    public var type: SentenceType
    /// `true` for `$P…` addresses, which have no talker.
    public var isProprietary: Bool
    /// What the first field must be for proprietary messages sharing an address: its characters, the whole field
    /// (`00` of `$PUBX,00`, `GGK` of `$PTNL,GGK`, `GPatt` of `$PFEC,GPatt`; up to eight), packed first in the low
    /// byte as ``SentenceType`` packs letters; or ``numberMessageID`` for the one message of an address whose first
    /// field is a number (or empty); 0 when the address alone says it.
    public var messageID: UInt64

    /// The ``messageID`` of a message whose first field is a number (a time) or empty, told apart from the other
    /// messages of its address, whose first fields are words: the attitude `$PASHR,hhmmss.ss,…` beside Ashtech's
    /// `$PASHR,POS,…`. (No field packs to it: a framed sentence holds no byte above 0x7F.)
    public static let numberMessageID: UInt64 = 0xFF

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

    /// A proprietary sentence told apart by its first field, two to five characters (`"0", "0"` for `$PUBX,00`,
    /// `"G", "G", "K"` for `$PTNL,GGK`).
    @inlinable
    public static func proprietary(
        _ type: SentenceType, messageID first: Unicode.Scalar, _ second: Unicode.Scalar,
        _ third: Unicode.Scalar = "\0", _ fourth: Unicode.Scalar = "\0", _ fifth: Unicode.Scalar = "\0"
    ) -> SentenceAddress {
        let id =
            UInt64(first.value) | UInt64(second.value) << 8 | UInt64(third.value) << 16 | UInt64(fourth.value) << 24
            | UInt64(fifth.value) << 32
        return SentenceAddress(type: type, isProprietary: true, messageID: id)
    }

    /// A proprietary sentence told apart from the others of its address by a first field that is a number (see
    /// ``numberMessageID``).
    @inlinable
    public static func proprietaryNumbered(_ type: SentenceType) -> SentenceAddress {
        SentenceAddress(type: type, isProprietary: true, messageID: numberMessageID)
    }

    @inlinable
    init(type: SentenceType, isProprietary: Bool, messageID: UInt64) {
        self.type = type
        self.isProprietary = isProprietary
        self.messageID = messageID
    }

    /// The message ID as text (`"00"`, `"GGK"`), or `nil` when the address has none (or wants a number).
    public var messageIDText: String? {
        guard messageID != 0, messageID != SentenceAddress.numberMessageID else { return nil }
        return String(writing: SentenceType(rawValue: messageID).write)
    }

    /// As the address is written: `RMC`, `PUBX,00`, `PTNL,GGK`, `PGRME`.
    public var name: String {
        guard let id = messageIDText else { return type.description }
        return "\(type),\(id)"
    }
}
