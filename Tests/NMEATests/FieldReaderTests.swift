import Testing

@testable import NMEA

/// Runs `body` on a reader over `fields` (the text after `$GPXXX,`), then throws the first field that did not read,
/// as a decoder that refuses bad fields does (``DecodableSentence/init(_:)``).
func read<R>(_ fields: String, _ body: (inout FieldReader) throws(NMEAError) -> R) throws(NMEAError) -> R {
    try withSentence(withChecksum("$GPXXX," + fields)) { (sentence) throws(NMEAError) in
        var reader = sentence.fieldReader
        let result = try body(&reader)
        if let error = reader.errors.first { throw error }
        return result
    }
}

/// Runs `body` on a reader over `fields` and gives its result with the errors the reader recorded.
func readKeeping<R>(_ fields: String, _ body: (inout FieldReader) -> R) -> (R, [NMEAError]) {
    try! withSentence(withChecksum("$GPXXX," + fields)) { sentence in
        var reader = sentence.fieldReader
        let result = body(&reader)
        return (result, Array(reader.errors))
    }
}

@Suite struct FieldReaderTests {
    // MARK: Numbers

    @Test(arguments: [
        ("4807.038", fp(4_807_038, 3)), ("-12.5", fp(-125, 1)), ("004.20", fp(420, 2)), (".5", fp(5, 1)),
        ("-.5", fp(-5, 1)), ("+3", fp(3, 0)), ("5.", fp(5, 0)), ("0", fp(0, 0)), ("-0.0", fp(0, 1)),
        ("123456789012345678", fp(123_456_789_012_345_678, 0)), ("0.00000000000000001", fp(1, 17)),
        ("-999999999999999999", fp(-999_999_999_999_999_999, 0)),
    ])
    func fixedPoint(text: String, value: FixedPoint) throws {
        #expect(try read(text) { (reader) throws(NMEAError) in reader.fixedPoint() } == value)
    }

    @Test func emptyNumberIsNilNotZero() throws {
        let values = try read(",,5") { (reader) throws(NMEAError) in
            [reader.fixedPoint(), reader.fixedPoint(), reader.fixedPoint(), reader.fixedPoint()]
        }
        #expect(values == [nil, nil, fp(5, 0), nil])
    }

    @Test(arguments: [
        ("1e5", FieldError.notANumber), (".", .notANumber), ("1.2.3", .notANumber), ("--1", .notANumber),
        ("1-", .notANumber), ("1 2", .notANumber), ("0x10", .notANumber), ("-", .notANumber),
        ("+", .notANumber), ("-.", .notANumber), ("1234567890123456789", .overflow),
        ("0.0000000000000000001", .overflow),
    ])
    func malformedNumber(text: String, reason: FieldError) {
        #expect(throws: NMEAError.badField(index: 2, reason: reason)) {
            try read("1," + text + ",3") { (reader) throws(NMEAError) in
                _ = reader.fixedPoint()
                return reader.fixedPoint()
            }
        }
    }

    @Test func integers() throws {
        let values = try read("08,08.,3.0,-7,,+2") { (reader) throws(NMEAError) in
            (0..<6).map { _ in reader.integer() }
        }
        #expect(values == [8, 8, 3, -7, nil, 2])
    }

    /// Issue 12, item 10: a decimal where a whole number is expected reads as its whole part, truncated toward zero
    /// (it was "not a number" before, which cost a GSV its four satellites for one SNR of `24.5`; an SNR is read by
    /// ``FieldReader/signalToNoise()`` now, with its decimals).
    @Test func integerWithAFractionIsTruncated() throws {
        let values = try read("1,3.5,24.5,29.0,-3.7,99.99") { (reader) throws(NMEAError) in
            (0..<6).map { _ in reader.integer() }
        }
        #expect(values == [1, 3, 24, 29, -3, 99])
    }

    @Test func integerInRange() throws {
        #expect(try read("99") { (reader) throws(NMEAError) in reader.integer(in: 0...99) } == 99)
        #expect(try read("") { (reader) throws(NMEAError) in reader.integer(in: 1...2) } == nil)
        #expect(throws: NMEAError.badField(index: 1, reason: .outOfRange)) {
            try read("100") { (reader) throws(NMEAError) in reader.integer(in: 0...99) }
        }
    }

    @Test func hexadecimal() throws {
        let values = try read("1F,ff,0,,FFFFFFFFFFFFFFFF") { (reader) throws(NMEAError) in
            (0..<5).map { _ in reader.hexadecimal() }
        }
        #expect(values == [31, 255, 0, nil, UInt64.max])
        #expect(throws: NMEAError.badField(index: 1, reason: .overflow)) {
            try read("10000000000000000") { (reader) throws(NMEAError) in reader.hexadecimal() }
        }
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) {
            try read("1G") { (reader) throws(NMEAError) in reader.hexadecimal() }
        }
    }

    @Test func characters() throws {
        let values = try read("A,,z") { (reader) throws(NMEAError) in
            [reader.character(), reader.character(), reader.character(), reader.character()]
        }
        #expect(values == [UInt8(ascii: "A"), nil, UInt8(ascii: "z"), nil])
        #expect(throws: NMEAError.badField(index: 1, reason: .badLength)) {
            try read("AB") { (reader) throws(NMEAError) in reader.character() }
        }
    }

    @Test func signedByLetter() throws {
        let values = try read("003.1,W,003.1,E,-1.5,W,2.0,,,W") { (reader) throws(NMEAError) in
            (0..<5).map { _ in reader.signed(positive: "E", negative: "W") }
        }
        #expect(values == [fp(-31, 1), fp(31, 1), fp(-15, 1), fp(20, 1), nil])
    }

    // MARK: Coordinates

    @Test(arguments: [
        ("4807.038", "N", fp(4_811_730_000, 8)),
        ("4807.038", "S", fp(-4_811_730_000, 8)),
        ("0000.0000", "N", fp(0, 9)),
        ("0000.0000", "S", fp(0, 9)),
        ("9000.0000", "N", fp(90_000_000_000, 9)),
        ("9000.0000", "S", fp(-90_000_000_000, 9)),
        ("0030", "N", fp(50_000, 5)),
        ("4717.11399833", "N", fp(472_852_333_055_000, 13)),
        ("4807.038", "", fp(4_811_730_000, 8)),
        // A negative value with no hemisphere keeps its sign; with one, the letter decides.
        ("-4807.038", "", fp(-4_811_730_000, 8)),
        ("-4807.038", "S", fp(-4_811_730_000, 8)),
        ("-4807.038", "N", fp(4_811_730_000, 8)),
        // More than 14 decimal places of minutes are rounded to 14, then converted.
        ("417.113998331234567", "N", fp(4_285_233_305_520_576, 15)),
    ])
    func latitudes(value: String, hemisphere: String, expected: FixedPoint) throws {
        #expect(try read(value + "," + hemisphere) { (reader) throws(NMEAError) in reader.latitude() } == expected)
    }

    @Test(arguments: [
        ("01131.000", "E", fp(1_151_666_667, 8)),
        ("01131.000", "W", fp(-1_151_666_667, 8)),
        ("18000.0000", "E", fp(180_000_000_000, 9)),
        ("18000.0000", "W", fp(-180_000_000_000, 9)),
        ("00833.91590024", "E", fp(85_652_650_040_000, 13)),
        ("12202.26957864", "W", fp(-1_220_378_263_106_667, 13)),
        ("-07400.1234567", "W", fp(-74_002_057_611_667, 12)),
        ("-07400.1234567", "", fp(-74_002_057_611_667, 12)),
        // Rounded to the nearest unit in the last place: 1.67 → 2, 5 → 5, 3.33 → 3, 1.67 → 2.
        ("00000.0001", "W", fp(-1_667, 9)),
        ("00000.00003", "E", fp(5_000, 10)),
        ("00000.00002", "E", fp(3_333, 10)),
        ("00000.00001", "E", fp(1_667, 10)),
    ])
    func longitudes(value: String, hemisphere: String, expected: FixedPoint) throws {
        #expect(try read(value + "," + hemisphere) { (reader) throws(NMEAError) in reader.longitude() } == expected)
    }

    @Test func emptyCoordinateIsNilWhateverTheLetter() throws {
        let values = try read(",N,,X,,") { (reader) throws(NMEAError) in
            [reader.latitude(), reader.latitude(), reader.latitude()]
        }
        #expect(values == [nil, nil, nil])
    }

    @Test(arguments: [
        ("9000.0001", "N", NMEAError.badField(index: 1, reason: .outOfRange)),
        ("9100", "N", .badField(index: 1, reason: .outOfRange)),
        ("4860.0", "N", .badField(index: 1, reason: .outOfRange)),
        ("4807.038", "E", .badField(index: 2, reason: .unexpectedCharacter)),
        ("4807.038", "n", .badField(index: 2, reason: .unexpectedCharacter)),
        ("4807.038", "NS", .badField(index: 2, reason: .badLength)),
        ("48o7.038", "N", .badField(index: 1, reason: .notANumber)),
    ])
    func malformedLatitude(value: String, hemisphere: String, error: NMEAError) {
        #expect(throws: error) {
            try read(value + "," + hemisphere) { (reader) throws(NMEAError) in reader.latitude() }
        }
    }

    @Test func longitudeLimit() {
        #expect(throws: NMEAError.badField(index: 1, reason: .outOfRange)) {
            try read("18000.0001,E") { (reader) throws(NMEAError) in reader.longitude() }
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try read("01131.000,N") { (reader) throws(NMEAError) in reader.longitude() }
        }
    }

    // MARK: Time and date

    @Test(arguments: [
        ("123519", UTCTime.at(12, 35, 19)),
        ("123519.", .at(12, 35, 19)),
        ("123519.5", .at(12, 35, 19, nanoseconds: 500_000_000, digits: 1)),
        ("000000.00", .at(0, 0, 0, digits: 2)),
        ("235960.999", .at(23, 59, 60, nanoseconds: 999_000_000, digits: 3)),
        ("083559.123456789", .at(8, 35, 59, nanoseconds: 123_456_789, digits: 9)),
        ("083559.1234567891", .at(8, 35, 59, nanoseconds: 123_456_789, digits: 9)),
    ])
    func times(text: String, time: UTCTime) throws {
        #expect(try read(text + ",X") { (reader) throws(NMEAError) in reader.time() } == time)
        #expect(try read(text) { (reader) throws(NMEAError) in reader.time() } == time)
    }

    @Test(arguments: [
        ("12351", FieldError.badLength), ("1", .badLength), ("1235199", .notANumber), ("12:35:19", .notANumber),
        ("240000", .outOfRange), ("126000", .outOfRange), ("123561", .outOfRange), ("-12351", .notANumber),
        ("123519.5.", .notANumber), ("123519Z", .notANumber),
    ])
    func malformedTime(text: String, reason: FieldError) {
        #expect(throws: NMEAError.badField(index: 1, reason: reason)) {
            try read(text + ",A") { (reader) throws(NMEAError) in reader.time() }
        }
        #expect(throws: NMEAError.badField(index: 1, reason: reason)) {
            try read(text) { (reader) throws(NMEAError) in reader.time() }
        }
    }

    @Test func dates() throws {
        let values = try read("230394,010100,311279,010180,") { (reader) throws(NMEAError) in
            (0..<5).map { _ in reader.date() }
        }
        #expect(
            values == [
                UTCDate(year: 1994, month: 3, day: 23), UTCDate(year: 2000, month: 1, day: 1),
                UTCDate(year: 2079, month: 12, day: 31), UTCDate(year: 1980, month: 1, day: 1), nil,
            ])
    }

    @Test(arguments: [
        ("23039", FieldError.badLength), ("2303944", .badLength), ("23.394", .notANumber), ("001294", .outOfRange),
        ("320194", .outOfRange), ("010094", .outOfRange), ("011394", .outOfRange),
    ])
    func malformedDate(text: String, reason: FieldError) {
        #expect(throws: NMEAError.badField(index: 1, reason: reason)) {
            try read(text) { (reader) throws(NMEAError) in reader.date() }
        }
    }

    // MARK: Navigation

    @Test func walkingTheFields() throws {
        try read("a,bc,,d") { (reader) throws(NMEAError) in
            #expect(reader.index == 1)
            #expect(reader.hasMore)
            #expect(!reader.isAtLastField)
            #expect(reader.nextField()?.string == "a")
            #expect(reader.index == 2)
            reader.skip()
            #expect(reader.index == 3)
            #expect(reader.nextField()?.isEmpty == true)
            #expect(reader.isAtLastField)
            #expect(reader.nextField()?.string == "d")
            #expect(!reader.hasMore)
            #expect(reader.nextField() == nil)
            #expect(reader.index == 5)
            // Reading past the end gives absent values, and never moves the index.
            #expect(reader.fixedPoint() == nil)
            #expect(reader.time() == nil)
            #expect(reader.index == 5)
        }
    }

    @Test func skipSeveral() throws {
        let field = try read("1,2,3,4,5") { (reader) throws(NMEAError) in
            reader.skip(3)
            return reader.nextField()?.string
        }
        #expect(field == "4")
    }

    @Test func remainderKeepsCommas() throws {
        let (rest, index, more) = try read("01,02,text, with, commas") { (reader) throws(NMEAError) in
            reader.skip(2)
            let rest = String(decoding: reader.remainder(), as: UTF8.self)
            return (rest, reader.index, reader.hasMore)
        }
        #expect(rest == "text, with, commas")
        #expect(index == 6)  // the remainder spans fields 3 to 5
        #expect(!more)
    }

    @Test func textField() throws {
        let (first, second, third) = try read("W84,,x") { (reader) throws(NMEAError) in
            (reader.text(), reader.text(), reader.text())
        }
        #expect(first == "W84")
        #expect(second.isEmpty)
        #expect(third == "x")
    }

    @Test func require() throws {
        try read("1,2,3") { (reader) throws(NMEAError) in
            try reader.require(3)
            #expect(throws: NMEAError.tooFewFields(expected: 4, found: 3)) { try reader.require(4) }
            reader.skip(3)
            try reader.require(3)
            #expect(throws: NMEAError.tooFewFields(expected: 5, found: 3)) { try reader.require(5) }
        }
        let noFields = thrownError { () throws(NMEAError) in
            try withSentence(withChecksum("$GPXXX")) { (sentence) throws(NMEAError) in
                try sentence.fieldReader.require(1)
            }
        }
        #expect(noFields == .tooFewFields(expected: 1, found: 0))
    }
}
