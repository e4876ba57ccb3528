/// Receives each sentence decoded into its type, in place: the zero-copy alternative to ``ParsedSentence``.
///
/// ``Sentence/decode(into:)`` picks the decoder by the sentence's type and calls ``visit(_:)`` with the decoded
/// value, which the visitor borrows. Nothing is copied into an enum, and dispatch is inlined and specialized for
/// your visitor, so testing the type folds away: a visitor that reads a few fields costs only the decoding.
///
///     struct Positions: SentenceVisitor {
///         var count = 0
///         mutating func visit<S: DecodableSentence>(_ sentence: S) {
///             if let rmc = sentence as? RMC, rmc.latitude != nil { count += 1 }
///             if let gga = sentence as? GGA, gga.latitude != nil { count += 1 }
///         }
///     }
///
///     var positions = Positions()
///     try framer.feed(bytes) { event in
///         guard case .sentence(let sentence) = event else { return }
///         _ = try? sentence.decode(into: &positions)
///     }
///
/// ``ParsedSentence/init(_:)`` uses the same dispatch; ``ParsedSentence/visit(into:)`` hands a decoded enum to a
/// visitor in turn.
public protocol SentenceVisitor {
    /// A decoded sentence of type `S`. ``PUBXSatellites`` is a view, valid only during the call, like the
    /// ``Sentence`` it reads.
    mutating func visit<S: DecodableSentence>(_ sentence: S)
    /// A sentence of a type not decoded here.
    mutating func visitUnknown(_ sentence: Sentence)
}

extension SentenceVisitor {
    /// Nothing: unknown sentences are skipped unless you implement it.
    @inlinable public mutating func visitUnknown(_ sentence: Sentence) {}
}

extension Sentence {
    /// Decodes this sentence by its type and hands the result to `visitor`, refusing it when any field does not
    /// read.
    ///
    /// - Returns: which decoder read it, or `nil` for a type not decoded here (handed to
    ///   ``SentenceVisitor/visitUnknown(_:)``).
    /// - Throws: the first bad field, or ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single
    ///   field; `visitor` is then not called.
    ///
    /// Inlinable, so that it is specialized for the caller's visitor: its `visit` method is then called directly.
    @inlinable @inline(__always) @discardableResult
    public func decode<Visitor: SentenceVisitor>(into visitor: inout Visitor) throws(NMEAError) -> SentenceKind? {
        try decode(into: &visitor, fieldErrors: nil)
    }

    /// Decodes this sentence by its type and hands the result to `visitor`, keeping every field that reads: the
    /// others are absent, and listed in `fieldErrors` before `visitor` is called.
    /// - Throws: ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field; `visitor` is
    ///   then not called.
    @inlinable @inline(__always) @discardableResult
    public func decode<Visitor: SentenceVisitor>(into visitor: inout Visitor, fieldErrors: inout FieldErrors)
        throws(NMEAError) -> SentenceKind?
    {
        fieldErrors = FieldErrors()
        return try withUnsafeMutablePointer(to: &fieldErrors) { (errors) throws(NMEAError) -> SentenceKind? in
            try decode(into: &visitor, fieldErrors: errors)
        }
    }

    @inlinable @inline(__always)
    func decode<Visitor: SentenceVisitor>(into visitor: inout Visitor, fieldErrors: UnsafeMutablePointer<FieldErrors>?)
        throws(NMEAError) -> SentenceKind?
    {
        try decode(as: SentenceKind(self), into: &visitor, fieldErrors: fieldErrors)
    }

    /// ``decode(into:fieldErrors:)`` with the kind already looked up (`nil`: a type not decoded here).
    @inlinable @inline(__always)
    func decode<Visitor: SentenceVisitor>(
        as kind: SentenceKind?, into visitor: inout Visitor, fieldErrors: UnsafeMutablePointer<FieldErrors>?
    ) throws(NMEAError) -> SentenceKind? {
        guard let kind else {
            visitor.visitUnknown(self)
            return nil
        }
        // The decoder points at the sentence rather than holding a copy of its 85 bytes.
        let failure = withUnsafePointer(to: self) { sentence in
            withUnsafeMutablePointer(to: &visitor) { pointer -> NMEAError? in
                var step = VisitingDecoder(sentence: sentence, visitor: pointer, fieldErrors: fieldErrors)
                do throws(NMEAError) {
                    try kind.withDecoder(&step)
                    return nil
                } catch {
                    return error
                }
            }
        }
        if let failure { throw failure }
        return kind
    }
}

/// Decodes a sentence with the decoder the registry gives and hands the value to a visitor.
@usableFromInline
struct VisitingDecoder<Visitor: SentenceVisitor>: SentenceDecoderBody {
    @usableFromInline let sentence: UnsafePointer<Sentence>
    @usableFromInline let visitor: UnsafeMutablePointer<Visitor>
    /// Where to list the fields that did not read; `nil` to refuse the sentence at the first.
    @usableFromInline let fieldErrors: UnsafeMutablePointer<FieldErrors>?

    @inlinable
    init(
        sentence: UnsafePointer<Sentence>, visitor: UnsafeMutablePointer<Visitor>,
        fieldErrors: UnsafeMutablePointer<FieldErrors>?
    ) {
        self.sentence = sentence
        self.visitor = visitor
        self.fieldErrors = fieldErrors
    }

    @inlinable @inline(__always)
    mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence)
        throws(NMEAError)
    {
        // The decoding body once, whichever the rule: inlined twice, each type's decoder would be twice the code.
        var fields = sentence.pointee.fieldReader
        let decoded = try S(sentence.pointee, reading: &fields)
        if let fieldErrors {
            fieldErrors.pointee = fields.errors
        } else if let error = fields.errors.first {
            throw error
        }
        visitor.pointee.visit(decoded)
    }
}
