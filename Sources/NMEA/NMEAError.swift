/// Everything that can be wrong with a line of NMEA, with the data needed to say exactly what.
///
/// The framer reports the first group (checksum, length, framing); decoders report the second (fields).
public enum NMEAError: Error, Hashable, Sendable {
    // MARK: Framing

    /// The checksum after `*` does not match the XOR of the bytes between `$` and `*`.
    case checksumMismatch(calculated: UInt8, found: UInt8)
    /// The sentence has no `*hh` checksum and the framer's policy requires one.
    case missingChecksum
    /// The characters after `*` are not two hexadecimal digits.
    case malformedChecksum
    /// The line grew past the framer's length limit before it ended.
    case overlong(limit: Int)
    /// The sentence was cut off by the start of another (`$`, `!`) or by a control or binary byte.
    case truncated
    /// The address field (`GPRMC`) is empty or not letters and digits.
    case badAddress

    // MARK: Decoding

    /// A decoder was given a sentence of another type (`RMC(parsing:)` of a GGA line).
    case wrongType(expected: SentenceType, found: SentenceType)
    /// The sentence has fewer fields than its type needs.
    case tooFewFields(expected: Int, found: Int)
    /// A field could not be read. `index` counts from 1 for the first field after the address, as in field diagrams.
    case badField(index: Int, reason: FieldError)
}

/// Why a field could not be read.
public enum FieldError: UInt8, Hashable, Sendable {
    /// A character that does not belong in a number.
    case notANumber
    /// A number that is out of range for the field (a minute of 61, a month of 13).
    case outOfRange
    /// A single-letter field with a letter that is not one of the allowed ones (hemisphere `X`, status `Q`).
    case unexpectedCharacter
    /// A time or date field with the wrong number of digits.
    case badLength
    /// More digits than a 64-bit integer holds.
    case overflow
}

extension NMEAError: CustomStringConvertible {
    /// A readable form, for messages and tests.
    public var description: String {
        switch self {
        case .checksumMismatch(let calculated, let found):
            "checksum mismatch: calculated \(Hex.string(UInt64(calculated), minimumDigits: 2)), found \(Hex.string(UInt64(found), minimumDigits: 2))"
        case .missingChecksum: "missing checksum"
        case .malformedChecksum: "malformed checksum (expected two hexadecimal digits after '*')"
        case .overlong(let limit): "line longer than \(limit) characters"
        case .truncated: "sentence cut off before its end"
        case .badAddress: "bad address field"
        case .wrongType(let expected, let found): "expected a \(expected) sentence, found \(found)"
        case .tooFewFields(let expected, let found): "too few fields: expected \(expected), found \(found)"
        case .badField(let index, let reason): "field \(index): \(reason)"
        }
    }
}

extension FieldError: CustomStringConvertible {
    /// A readable form, for messages and tests.
    public var description: String {
        switch self {
        case .notANumber: "not a number"
        case .outOfRange: "out of range"
        case .unexpectedCharacter: "unexpected character"
        case .badLength: "wrong number of digits"
        case .overflow: "number too large"
        }
    }
}
