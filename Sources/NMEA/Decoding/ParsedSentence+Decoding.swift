extension ParsedSentence {
    /// Checks and decodes one line of NMEA text, of any type: an owned value for every type, the types not decoded
    /// here as ``UnknownSentence`` (and `$PUBX,03`, whose satellites are read lazily from the line: see
    /// ``PUBXSatellites``).
    ///
    ///     let parsed = try ParsedSentence(parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A")
    ///
    /// - Throws: a framing error (``NMEAError/checksumMismatch(calculated:found:)``…), or the first bad field
    ///   (``NMEAError/badField(index:reason:)``).
    public init(parsing line: some StringProtocol, checksumPolicy: Framer.ChecksumPolicy = .required)
        throws(NMEAError)
    {
        self = try Sentence.withParsing(line, checksumPolicy: checksumPolicy) { (sentence) throws(NMEAError) in
            try ParsedSentence(owning: sentence)
        }
    }

    /// Checks and decodes one line of NMEA text given as a literal, without making a `String` (nothing is
    /// allocated: for firmware).
    /// - Throws: as ``init(parsing:checksumPolicy:)-(StringProtocol,_)``.
    public init(parsing line: StaticString, checksumPolicy: Framer.ChecksumPolicy = .required) throws(NMEAError) {
        let outcome = line.withUTF8Buffer { bytes -> Result<ParsedSentence, NMEAError> in
            do throws(NMEAError) {
                return .success(
                    try ParsedSentence(parsing: UnsafeRawBufferPointer(bytes), checksumPolicy: checksumPolicy))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// Checks and decodes one line of NMEA given as bytes (its line end may be there or not).
    /// - Throws: as ``init(parsing:checksumPolicy:)-(StringProtocol,_)``.
    public init(parsing bytes: UnsafeRawBufferPointer, checksumPolicy: Framer.ChecksumPolicy = .required)
        throws(NMEAError)
    {
        self = try Sentence.withParsing(bytes: bytes, checksumPolicy: checksumPolicy) {
            (sentence) throws(NMEAError) in try ParsedSentence(owning: sentence)
        }
    }

    /// Checks and decodes one line of NMEA given as bytes (`[UInt8]`, `ArraySlice<UInt8>`…).
    /// - Throws: as ``init(parsing:checksumPolicy:)-(StringProtocol,_)``.
    public init(parsing bytes: some Collection<UInt8>, checksumPolicy: Framer.ChecksumPolicy = .required)
        throws(NMEAError)
    {
        let copy = Array(bytes)
        let outcome = copy.withUnsafeBytes { raw -> Result<ParsedSentence, NMEAError> in
            do throws(NMEAError) {
                return .success(try ParsedSentence(parsing: raw, checksumPolicy: checksumPolicy))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// `sentence` decoded, in a value that owns everything: a `$PUBX,03`, whose ``PUBXSatellites`` reads its list
    /// from the sentence's bytes as it is iterated, is kept as ``UnknownSentence`` instead (decode it inside
    /// ``UnknownSentence/withSentence(_:)``; past ``UnknownSentence/capacity`` bytes its last satellites are lost).
    init(owning sentence: Sentence) throws(NMEAError) {
        let parsed = try ParsedSentence(sentence)
        if case .pubxSatellites = parsed {
            self = .unknown(UnknownSentence(sentence))
        } else {
            self = parsed
        }
    }

    /// Decodes `sentence` by its type, refusing it when any field does not read.
    /// - Throws: the first bad field (``NMEAError/badField(index:reason:)``), or
    ///   ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        guard let kind = SentenceKind(sentence) else {
            self = .unknown(UnknownSentence(sentence))
            return
        }
        var body = Decoding(sentence: sentence, fieldErrors: nil)
        self = try kind.withDecoder(&body)
    }

    /// Decodes `sentence` by its type, keeping every field that reads: the others are absent and listed in
    /// `fieldErrors`.
    /// - Throws: ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence, fieldErrors: inout FieldErrors) throws(NMEAError) {
        fieldErrors = FieldErrors()
        guard let kind = SentenceKind(sentence) else {
            self = .unknown(UnknownSentence(sentence))
            return
        }
        let outcome = withUnsafeMutablePointer(to: &fieldErrors) { errors -> Result<ParsedSentence, NMEAError> in
            var body = Decoding(sentence: sentence, fieldErrors: errors)
            do throws(NMEAError) {
                return .success(try kind.withDecoder(&body))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// The case that holds `decoded`.
    @inlinable @inline(__always)
    public init<S: DecodableSentence>(_ decoded: S) {
        self = decoded.parsedSentence
    }

    /// Which decoder produced this, or `nil` for ``unknown(_:)``.
    @inlinable @inline(__always)
    public var kind: SentenceKind? {
        var visitor = KindVisitor()
        visit(into: &visitor)
        return visitor.kind
    }

    @usableFromInline
    struct Decoding: SentenceDecoderBody {
        @usableFromInline let sentence: Sentence
        /// Where to list the fields that did not read; `nil` to refuse the sentence at the first.
        @usableFromInline let fieldErrors: UnsafeMutablePointer<FieldErrors>?

        @inlinable
        init(sentence: Sentence, fieldErrors: UnsafeMutablePointer<FieldErrors>?) {
            self.sentence = sentence
            self.fieldErrors = fieldErrors
        }

        @inlinable @inline(__always)
        func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) throws(NMEAError)
            -> ParsedSentence
        {
            guard let fieldErrors else { return parsed(try S(sentence)) }
            return parsed(try S(sentence, fieldErrors: &fieldErrors.pointee))
        }
    }

    @usableFromInline
    struct KindVisitor: SentenceVisitor {
        @usableFromInline var kind: SentenceKind?

        @inlinable
        init() {}

        @inlinable @inline(__always)
        mutating func visit<S: DecodableSentence>(_ sentence: S) { kind = S.kind }
    }
}
