import Testing

@testable import NMEA

@Suite struct FixedPointTests {
    @Test(arguments: [
        (fp(4_807_038, 3), "4807.038"), (fp(-5, 1), "-0.5"), (fp(12, 0), "12"), (fp(0, 0), "0"), (fp(0, 3), "0.000"),
        (fp(-1, 5), "-0.00001"), (fp(5, 1), "0.5"), (fp(100, 2), "1.00"), (fp(-100, 0), "-100"),
        (fp(472_852_333_055, 10), "47.2852333055"), (fp(85_652_650_040, 10), "8.5652650040"),
        (fp(Int64.max, 0), "9223372036854775807"), (fp(Int64.min, 0), "-9223372036854775808"),
        (fp(Int64.max, 18), "9.223372036854775807"), (fp(Int64.min, 18), "-9.223372036854775808"),
        (fp(1, 18), "0.000000000000000001"),
    ])
    func description(value: FixedPoint, text: String) {
        #expect(value.description == text)
    }

    @Test func descriptionRoundTripsThroughTheReader() throws {
        for text in ["4807.038", "-0.5", "12", "0.000", "004.20", "-12.5"] {
            let value = try #require(try read(text) { (reader) throws(NMEAError) in try reader.fixedPoint() })
            // Leading zeros are not digits of the value; everything else comes back as sent.
            let expected = text == "004.20" ? "4.20" : text
            #expect(value.description == expected)
        }
    }

    static let rescaleCases: [(FixedPoint, UInt8, FixedPoint)] = [
        (fp(5, 1), 3, fp(500, 3)),
        (fp(-5, 1), 3, fp(-500, 3)),
        (fp(125, 2), 1, fp(13, 1)),
        (fp(-125, 2), 1, fp(-13, 1)),
        (fp(124, 2), 1, fp(12, 1)),
        (fp(-124, 2), 1, fp(-12, 1)),
        (fp(126, 2), 1, fp(13, 1)),
        (fp(4_807_038, 3), 0, fp(4807, 0)),
        (fp(4_807_500, 3), 0, fp(4808, 0)),
        (fp(-4_807_500, 3), 0, fp(-4808, 0)),
        (fp(49, 2), 0, fp(0, 0)),
        (fp(4_811_730, 5), 5, fp(4_811_730, 5)),
        (fp(472_852_333_055, 10), 7, fp(472_852_333, 7)),
        (fp(1, 0), 18, fp(1_000_000_000_000_000_000, 18)),
    ]

    @Test(arguments: rescaleCases)
    func rescaled(value: FixedPoint, scale: UInt8, expected: FixedPoint) {
        #expect(value.rescaled(to: scale) == expected)
    }

    @Test(arguments: [
        (fp(4_807_038, 3), 4807.038), (fp(-5, 1), -0.5), (fp(472_852_333_055, 10), 47.2852333055),
        (fp(-1_220_378_263_107, 10), -122.0378263107), (fp(0, 7), 0.0), (fp(9999, 2), 99.99),
        (fp(1, 18), 1e-18), (fp(123_456_789_012_345, 0), 123_456_789_012_345.0),
    ])
    func doubleValue(value: FixedPoint, double: Double) {
        #expect(value.doubleValue == double)
    }

    @Test func integerPartTruncatesTowardZero() {
        #expect(fp(4_807_038, 3).integerPart == 4807)
        #expect(fp(-4_807_038, 3).integerPart == -4807)
        #expect(fp(-5, 1).integerPart == 0)
        #expect(fp(12, 0).integerPart == 12)
    }

    @Test func scalesUpToNineteenAreExact() {
        #expect(fp(1, 18).doubleValue == 1e-18)
        #expect(fp(1, 19).doubleValue == 1e-19)
        #expect(fp(9_000_000_000_000_000_000, 18).integerPart == 9)
        #expect(fp(9_000_000_000_000_000_000, 19).integerPart == 0)
        #expect(fp(12_345, 19).rescaled(to: 15) == fp(1, 15))
    }

    @Test func integerLiteral() {
        let value: FixedPoint = 42
        #expect(value == fp(42, 0))
        #expect(value.description == "42")
    }

    /// Equality is by value: equal numbers written with different digits are equal (and hash alike), while
    /// `description` keeps the digits as sent.
    @Test func equalityIsByValue() {
        #expect(fp(5, 1) == fp(50, 2))
        #expect(fp(5, 1) != fp(51, 2))
        #expect(fp(5, 1).description == "0.5" && fp(50, 2).description == "0.50")
        #expect(fp(50, 2).normalized.scale == 1)
        #expect(Set([fp(5, 1), fp(5, 1), fp(50, 2)]).count == 1)
    }

    @Test func decimalFormatterIntegers() {
        func text(_ value: Int, _ minimumDigits: Int) -> String {
            var text = ""
            DecimalFormatter.write(value, minimumDigits: minimumDigits) {
                text.unicodeScalars.append(Unicode.Scalar($0))
            }
            return text
        }
        #expect(text(7, 3) == "007")
        #expect(text(1234, 2) == "1234")
        #expect(text(0, 1) == "0")
        #expect(text(-7, 3) == "-007")
    }
}
