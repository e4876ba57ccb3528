import Testing

@testable import NMEA

// Helpers shared by the NMEA tests: checksums for building sentence variants, short value constructors, and a way to
// run a decoder on one line of text when the result is a view (`ParsedSentence`, `PUBXSatellites`).

/// The NMEA checksum of `body`: the XOR of every byte after the start character (`$` or `!`).
func nmeaChecksum(_ body: String) -> UInt8 {
    body.utf8.dropFirst().reduce(0, ^)
}

/// `body` with its `*hh` checksum appended, so malformed variants of a sentence still pass the framer.
///
///     withChecksum("$GPGSV,1,1,00") == "$GPGSV,1,1,00*79"
func withChecksum(_ body: String, lowercase: Bool = false) -> String {
    let digits = Array(lowercase ? "0123456789abcdef" : "0123456789ABCDEF")
    let checksum = nmeaChecksum(body)
    return body + "*" + String(digits[Int(checksum >> 4)]) + String(digits[Int(checksum & 0xF)])
}

/// `line` with the field at `index` (1 for the first after the address) replaced by `value`, checksum recomputed.
/// `line` may carry a checksum; it is dropped first.
func replacingField(_ index: Int, of line: String, with value: String) -> String {
    var body = line
    if let star = body.lastIndex(of: "*") { body = String(body[..<star]) }
    var parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    precondition(index >= 1 && index < parts.count, "no field \(index) in \(line)")
    parts[index] = value
    return withChecksum(parts.joined(separator: ","))
}

/// `line` cut after its first `fieldCount` fields (after the address), checksum recomputed.
func keepingFields(_ fieldCount: Int, of line: String) -> String {
    var body = line
    if let star = body.lastIndex(of: "*") { body = String(body[..<star]) }
    let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return withChecksum(parts.prefix(fieldCount + 1).joined(separator: ","))
}

/// A line whose checksum is wrong by one, and the mismatch the framer reports for it.
func corruptingChecksum(_ line: String) -> (line: String, error: NMEAError) {
    let star = line.lastIndex(of: "*")!
    let body = String(line[..<star])
    let calculated = nmeaChecksum(body)
    let found = calculated ^ 0x01
    let digits = Array("0123456789ABCDEF")
    let text = body + "*" + String(digits[Int(found >> 4)]) + String(digits[Int(found & 0xF)])
    return (text, .checksumMismatch(calculated: calculated, found: found))
}

/// `FixedPoint(significand:scale:)`, shorter.
func fp(_ significand: Int64, _ scale: UInt8) -> FixedPoint {
    FixedPoint(significand: significand, scale: scale)
}

/// Runs `body` on the one sentence in `line`, the way `init(parsing:)` does, for results that are views.
func withSentence<R>(
    _ line: String, checksumPolicy: Framer.ChecksumPolicy = .required, _ body: (Sentence) throws(NMEAError) -> R
) throws(NMEAError) -> R {
    try Sentence.withParsing(line, checksumPolicy: checksumPolicy, body)
}

/// The decoder `ParsedSentence` picks for `line` (`nil` for `.unknown`).
func parsedKind(_ line: String) throws(NMEAError) -> SentenceKind? {
    try withSentence(line) { (sentence) throws(NMEAError) in try ParsedSentence(sentence).kind }
}

/// The fields of `line` after the address, as text.
func fieldStrings(_ line: String) throws(NMEAError) -> [String] {
    try withSentence(line) { sentence in sentence.fields.map(\.string) }
}

/// The error `body` throws, or `nil` when it returns.
func thrownError<R>(_ body: () throws(NMEAError) -> R) -> NMEAError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

extension UTCTime {
    /// A time with `digits` fraction digits worth `nanoseconds`.
    static func at(_ hour: UInt8, _ minute: UInt8, _ second: UInt8, nanoseconds: UInt32 = 0, digits: UInt8 = 0)
        -> UTCTime
    {
        UTCTime(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds, fractionDigits: digits)
    }
}

/// The fixes a ``FixAssembler`` makes from `lines` (each a sentence with its checksum), decoded in place, finished.
func assembledFixes(_ lines: [String]) -> [Fix] {
    var assembler = FixAssembler()
    var fixes: [Fix] = []
    for line in lines {
        _ = try? withSentence(line) { (sentence) throws(NMEAError) in
            try assembler.add(sentence) { fixes.append($0) }
        }
    }
    assembler.finish { fixes.append($0) }
    return fixes
}

/// The ASCII value of a one-letter string literal, for `UInt8?` fields such as modes and units.
func ascii(_ letter: Unicode.Scalar) -> UInt8 {
    UInt8(ascii: letter)
}

@Suite struct TestSupportTests {
    @Test func withChecksumMatchesKnownSentences() {
        #expect(withChecksum("$GPGSV,1,1,00") == "$GPGSV,1,1,00*79")
        #expect(withChecksum("$GPHDT,274.07,T") == "$GPHDT,274.07,T*03")
        #expect(
            withChecksum("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
                == "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A")
        #expect(
            withChecksum("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84", lowercase: true) == "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6f")
    }

    @Test func replacingAndKeepingFields() {
        let line = "$GPHDT,274.07,T*03"
        #expect(replacingField(1, of: line, with: "1.5") == withChecksum("$GPHDT,1.5,T"))
        #expect(keepingFields(1, of: line) == withChecksum("$GPHDT,274.07"))
        #expect(keepingFields(0, of: line) == withChecksum("$GPHDT"))
        let (bad, error) = corruptingChecksum(line)
        #expect(bad == "$GPHDT,274.07,T*02")
        #expect(error == .checksumMismatch(calculated: 0x03, found: 0x02))
    }
}

/// `line` with every field after its first `fieldCount` (after the address) left empty, checksum recomputed.
func emptyingFields(after fieldCount: Int, of line: String) -> String {
    var body = line
    if let star = body.lastIndex(of: "*") { body = String(body[..<star]) }
    var parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    for index in parts.indices where index > fieldCount { parts[index] = "" }
    return withChecksum(parts.joined(separator: ","))
}

/// Issue 12, item 10: `line` cut short after its first `kept` fields decodes — it is not refused as "too few
/// fields" — and as the whole sentence with the fields it left off empty (absent, never zero); a sentence without a
/// single field is refused. Returns the cut value.
@discardableResult
///
/// `sameAsEmptied: false` for the types where leaving fields off is not the same as leaving them empty: a GLL
/// without its status field (NMEA 2.0) is valid, one with an empty status is not; a GRS has as many residuals as it
/// has fields. `withoutFields` is the error for a sentence of this type without a single field.
func expectCutShort<S: DecodableSentence & Equatable>(
    _ type: S.Type, _ line: String, keeping kept: Int, sameAsEmptied: Bool = true,
    withoutFields: NMEAError = .tooFewFields(expected: 1, found: 0), sourceLocation: SourceLocation = #_sourceLocation
) throws -> S {
    let cut = try S(parsing: keepingFields(kept, of: line))
    if sameAsEmptied {
        #expect(cut == (try S(parsing: emptyingFields(after: kept, of: line))), sourceLocation: sourceLocation)
    }
    #expect(
        cut != (try? S(parsing: emptyingFields(after: 0, of: line))), "the kept fields are read",
        sourceLocation: sourceLocation)
    let address = String(line.prefix { $0 != "," })
    #expect(throws: withoutFields, sourceLocation: sourceLocation) { try S(parsing: withChecksum(address)) }
    return cut
}

/// `sentence` decoded as ``FixReader`` decodes it: every field that reads kept, the others absent.
func decodedKeepingFields(_ sentence: Sentence) -> ParsedSentence? {
    var errors = FieldErrors()
    return try? ParsedSentence(sentence, fieldErrors: &errors)
}
