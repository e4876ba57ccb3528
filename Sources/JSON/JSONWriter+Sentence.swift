import NMEA

extension JSONWriter {
    /// A sentence as one object (``JSONText/writeSentence(_:decoded:fieldErrors:receivedMilliseconds:)``), in one
    /// piece.
    public mutating func writeSentence<S: DecodableSentence>(
        _ sentence: Sentence, decoded: S, fieldErrors: FieldErrors = FieldErrors(), receivedMilliseconds: Int64? = nil
    ) {
        write {
            $0.writeSentence(
                sentence, decoded: decoded, fieldErrors: fieldErrors, receivedMilliseconds: receivedMilliseconds)
        }
    }

    /// See ``JSONText/writeUnknownSentence(_:receivedMilliseconds:)``.
    public mutating func writeUnknownSentence(_ sentence: Sentence, receivedMilliseconds: Int64? = nil) {
        write { $0.writeUnknownSentence(sentence, receivedMilliseconds: receivedMilliseconds) }
    }

    /// See ``JSONText/writeUndecodableSentence(_:error:receivedMilliseconds:)``.
    public mutating func writeUndecodableSentence(
        _ sentence: Sentence, error: NMEAError, receivedMilliseconds: Int64? = nil
    ) {
        write { $0.writeUndecodableSentence(sentence, error: error, receivedMilliseconds: receivedMilliseconds) }
    }

    /// See ``JSONText/writeRawFields(of:)``.
    public mutating func writeRawFields(of sentence: Sentence) { write { $0.writeRawFields(of: sentence) } }
}

/// A decoded sentence's named fields as JSON members, as `nmea parse` prints them: each type's
/// ``NMEA/DecodableSentence/describe(to:)`` writes through these, absent values left out.
extension JSONText: SentenceFieldSink {
    /// The fields of `sentence` (which `decoded` was decoded from) as one object: `talker`, `type` (and `id` for a
    /// message told apart by its first field: `$PUBX,00`, `$PTNL,GGK`), `received` when the input gave a receive time
    /// (``FixReader/Context/receivedMilliseconds``), then the decoded fields, and `"errors"` for the fields that did
    /// not read (absent from the rest).
    public mutating func writeSentence<S: DecodableSentence>(
        _ sentence: Sentence, decoded: S, fieldErrors: FieldErrors = FieldErrors(), receivedMilliseconds: Int64? = nil
    ) {
        beginObject()
        key("talker")
        asciiString(sentence.talker.write)
        key("type")
        string(bytes: sentence.typeName.bytes)
        if let messageID = S.address(of: sentence).messageIDText { field("id", messageID) }
        writeReceived(receivedMilliseconds)
        decoded.describe(to: &self)
        if !fieldErrors.isEmpty {
            key("errors")
            beginArray()
            for error in fieldErrors { string(error.description) }
            endArray()
        }
        endObject()
    }

    /// A sentence of a type not decoded here: its address, its receive time if known, and its raw fields.
    public mutating func writeUnknownSentence(_ sentence: Sentence, receivedMilliseconds: Int64? = nil) {
        beginObject()
        key("talker")
        asciiString(sentence.talker.write)
        key("type")
        string(bytes: sentence.typeName.bytes)
        writeReceived(receivedMilliseconds)
        writeRawFields(of: sentence)
        endObject()
    }

    /// A sentence whose checksum was right but whose fields could not be decoded: its raw fields and the reason.
    public mutating func writeUndecodableSentence(
        _ sentence: Sentence, error: NMEAError, receivedMilliseconds: Int64? = nil
    ) {
        beginObject()
        key("talker")
        asciiString(sentence.talker.write)
        key("type")
        string(bytes: sentence.typeName.bytes)
        writeReceived(receivedMilliseconds)
        field("error", error.description)
        writeRawFields(of: sentence)
        endObject()
    }

    /// `"received":"2023-11-07T23:42:57.561Z"` (to the millisecond, three digits) when `milliseconds` is known.
    mutating func writeReceived(_ milliseconds: Int64?) {
        guard let milliseconds else { return }
        key("received")
        asciiString { output in
            ISO8601.write(nanosecondsSinceEpoch: milliseconds &* 1_000_000, fraction: .milliseconds, to: output)
        }
    }

    /// `"fields":[…]`, every field after the address as a string.
    public mutating func writeRawFields(of sentence: Sentence) {
        key("fields")
        beginArray()
        var reader = sentence.fieldReader
        while let field = reader.nextField() { string(bytes: field.bytes) }
        endArray()
    }

    // MARK: SentenceFieldSink (the FixedPoint, Int and Bool fields are the writer's own)

    public mutating func field(_ name: StaticString, _ time: UTCTime?) {
        guard let time else { return }
        key(name)
        asciiString(time.write)
    }

    public mutating func field(_ name: StaticString, _ date: UTCDate?) {
        guard let date else { return }
        key(name)
        asciiString(date.write)
    }

    public mutating func field(_ name: StaticString, letter: UInt8?) {
        guard let letter else { return }
        key(name)
        withUnsafeBytes(of: letter) { string(bytes: $0) }
    }

    public mutating func field(_ name: StaticString, letters: some Sequence<UInt8>) {
        key(name)
        asciiString { output in for letter in letters { output(letter) } }
    }

    public mutating func field(_ name: StaticString, code: ShortCode) {
        key(name)
        asciiString(code.write)
    }

    public mutating func field(_ name: StaticString, text: ShortText) {
        key(name)
        text.withBytes { string(bytes: $0) }
    }

    public mutating func beginList(_ name: StaticString) {
        key(name)
        beginArray()
    }

    public mutating func endList() { endArray() }

    public mutating func beginGroup() { beginObject() }

    public mutating func endGroup() { endObject() }

    public mutating func element(_ value: FixedPoint?) {
        if let value { number(value) } else { null() }
    }

    public mutating func element(_ value: Int) { number(value) }

    public mutating func element(letters: some Sequence<UInt8>) {
        asciiString { output in for letter in letters { output(letter) } }
    }
}
