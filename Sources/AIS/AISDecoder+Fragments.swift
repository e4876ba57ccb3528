import NMEA

/// A stream read in parts on several threads: each part's decoder takes the sentences whose messages stand alone,
/// and keeps the others as fragments for one decoder to take in stream order. Most messages are single sentences
/// that need nothing before them; a part of a multi-part message needs its other parts, and a type 24 part B its
/// part A, which may have come in any earlier part of the stream.
extension AISDecoder {
    /// An `!xxVDM`/`!xxVDO` sentence whose message depends on the sentences before it, copied out of its bytes, to
    /// be added to the decoder of the whole stream, in order (``add(_:_:)-(Fragment,_)``).
    public struct Fragment: @unchecked Sendable {
        /// The sentence's fields, their view of the payload emptied (it pointed into the sentence's bytes): the only
        /// reference they hold, which is why a fragment can cross threads.
        let fields: AISSentenceFields
        /// The payload's armoured bytes.
        let payload: [UInt8]

        init(_ fields: AISSentenceFields) {
            payload = Array(fields.payload)
            var kept = fields
            kept.payload = UnsafeRawBufferPointer(start: nil, count: 0)
            // Its bits are not kept: the fragment's payload is unarmoured again when it is added.
            kept.isUnarmoured = false
            self.fields = kept
        }
    }

    /// Adds the sentence when its message stands alone, as ``add(_:_:)-(Sentence,_)`` adds it; otherwise adds
    /// nothing and returns it as a fragment, for the decoder of the whole stream to add in order. A message depends
    /// on the sentences before it when it is in parts, or of type 24 (whose parts A and B are paired); any other
    /// single-sentence message, or a sentence that does not read, every decoder takes alike, whatever it has seen.
    public mutating func addUnlessOrdered(_ sentence: Sentence, _ body: (borrowing AISMessage) -> Void)
        throws(AISError) -> Fragment?
    {
        var fields = AISSentenceFields()
        var message = AISMessage()
        guard fields.read(sentence, into: &message.payload) else { throw .notAIS }
        // A single sentence's message type is its first six bits: the payload's first character.
        if fields.count != 1 || fields.payload.first.flatMap(AISPayload.sixBits) == 24 {
            return Fragment(fields)
        }
        try add(counting: fields, &message, body)
        return nil
    }

    /// Adds a fragment as ``add(_:_:)-(Sentence,_)`` adds the sentence it was made from.
    public mutating func add(_ fragment: Fragment, _ body: (borrowing AISMessage) -> Void) throws(AISError) {
        var fields = fragment.fields
        // (`withUnsafeBytes` throws untyped errors: the decoder's is carried out of it.)
        let failure = fragment.payload.withUnsafeBytes { payload -> AISError? in
            fields.payload = payload
            do throws(AISError) {
                var message = AISMessage()
                try add(counting: fields, &message, body)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Adds the counts of `other`, a decoder of another part of the same stream, to these.
    public mutating func addCounts(of other: AISDecoder) {
        counts.sentences += other.counts.sentences
        counts.messages += other.counts.messages
        counts.incomplete += other.counts.incomplete
        counts.duplicates += other.counts.duplicates
        counts.errors += other.counts.errors
        counts.unpairedStaticParts += other.counts.unpairedStaticParts
    }
}
