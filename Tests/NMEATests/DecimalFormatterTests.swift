import Simulation
import Testing

@testable import NMEA

/// The one number writer: shortest digits that read back exactly, never an exponent; fixed and at-most decimals.
@Suite struct DecimalFormatterTests {
    @Test(arguments: [
        (0.00001, "0.00001"), (-1.5e-7, "-0.00000015"), (1e16, "10000000000000000"), (123.456, "123.456"),
        (-0.0, "0"), (520.0, "520"), (48.1374, "48.1374"), (0.1 + 0.2, "0.30000000000000004"),
        (1.0e-3, "0.001"), (-2.5e16, "-25000000000000000"), (1234.5e-9, "0.0000012345"),
        (1e15 + 0.5, "1000000000000000.5"),
        (Double.leastNonzeroMagnitude, "0.\(String(repeating: "0", count: 323))5"),
    ])
    func shortestWithoutExponent(value: Double, text: String) {
        #expect(DecimalFormatter.string(value) == text)
    }

    /// The positive control: the standard library's own text has the exponent the writer must not.
    @Test func theStandardLibraryWritesExponents() {
        #expect((0.00001).description == "1e-05")
        #expect(DecimalFormatter.string(0.00001) == "0.00001")
    }

    /// The fast path (``DecimalFormatter/fewestDecimals(_:)``) writes the digits of the standard library's shortest
    /// text, for a million values of the kinds positions, altitudes and DOPs take, and for values at every magnitude
    /// it takes; and it does take the usual ones (the positive control that it is used at all).
    @Test func theFewestDecimalsAreTheShortestText() {
        var generator = SplitMix64(seed: 33)
        var taken = 0
        for index in 0..<1_000_000 {
            let random = generator.next()
            let value: Double
            switch index % 4 {
            case 0: value = Double(Int64(random % 180_000_000_001) - 90_000_000_000) / 1e9
            case 1: value = Double(random % 100_000_000) / 60e5 + Double(random % 180)
            case 2: value = Double(Int64(random % 2_000_001) - 1_000_000) / 100
            default: value = Double(bitPattern: random)
            }
            guard value.isFinite, value != value.rounded(.towardZero) else { continue }
            guard let (significand, decimals) = DecimalFormatter.fewestDecimals(value) else { continue }
            taken += 1
            let text = DecimalFormatter.withDigits(significand, scale: decimals, minimumDigits: 1) {
                String(decoding: $0, as: UTF8.self)
            }
            if text != value.description {
                Issue.record("\(value): \(text), the standard library \(value.description)")
                return
            }
        }
        #expect(taken > 500_000)
        #expect(DecimalFormatter.fewestDecimals(48.1173)! == (481173, 4))
        #expect(DecimalFormatter.fewestDecimals(0.00001) == nil)
    }

    /// Values with each number of decimals from 1 to 15, of either sign, on both sides of the magnitude (112,589)
    /// below which one try at ten decimals stands for the first ten: the standard library's digits, each number of
    /// trailing zeros dropped.
    @Test(arguments: [0.5, 3.25, 47.3, 999.999, 11.5756191667, 48.1374795, 112_588.5, 112_589.25, 1_000_000.125])
    func everyNumberOfDecimalsIsTheShortestText(base: Double) {
        var generator = SplitMix64(seed: 7)
        for decimals in 1...15 {
            for _ in 0..<50 {
                var power = 1.0
                for _ in 0..<decimals { power *= 10 }
                let digits = Double(generator.next() % 1_000_000) + 1
                for sign in [1.0, -1.0] {
                    let value = sign * (base + digits / power)
                    guard value != value.rounded(.towardZero),
                        let (significand, count) = DecimalFormatter.fewestDecimals(value)
                    else { continue }
                    let text = DecimalFormatter.withDigits(significand, scale: count, minimumDigits: 1) {
                        String(decoding: $0, as: UTF8.self)
                    }
                    #expect(text == value.description, "\(decimals) decimals")
                }
            }
        }
        #expect(DecimalFormatter.fewestDecimals(0.5)! == (5, 1))
        #expect(DecimalFormatter.fewestDecimals(-0.1234567891)! == (-1_234_567_891, 10))
        #expect(DecimalFormatter.fewestDecimals(0.12345678912)! == (12_345_678_912, 11))
    }

    /// Every magnitude from 1e-30 to 1e30: digits and a point only, and the text reads back as the same `Double`.
    @Test func roundTripsAtEveryMagnitude() {
        var generator = SplitMix64(seed: 11)
        var checked = 0
        for exponent in -30...30 {
            for _ in 0..<200 {
                let mantissa = Double(generator.next() % 1_000_000_007) / 1_000_000_007 + 1
                var value = mantissa
                for _ in 0..<abs(exponent) { value = exponent < 0 ? value / 10 : value * 10 }
                if generator.next() % 2 == 0 { value = -value }
                let text = DecimalFormatter.string(value)
                #expect(text.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" }, "\(text)")
                #expect(Double(text) == value, "\(value) written as \(text)")
                checked += 1
            }
        }
        #expect(checked == 61 * 200)
    }

    @Test func fixedDecimals() {
        #expect(DecimalFormatter.string(2.5, decimals: 0) == "3")
        #expect(DecimalFormatter.string(-0.04, decimals: 1) == "0.0")
        #expect(DecimalFormatter.string(-1.25, decimals: 1) == "-1.3")
        #expect(DecimalFormatter.string(1234.5678, decimals: 3) == "1234.568")
        #expect(DecimalFormatter.string(0.05, decimals: 2) == "0.05")
        #expect(DecimalFormatter.string(12.5, decimals: 3) == "12.500")
        #expect(DecimalFormatter.string(48.1374, decimals: 9) == "48.137400000")
        // Too large for the decimals asked: the shortest digits, still without an exponent.
        #expect(DecimalFormatter.string(1e20, decimals: 2) == "100000000000000000000")
    }

    @Test func atMostDecimals() {
        #expect(DecimalFormatter.string(12.345, maximumDecimals: 1) == "12.3")
        #expect(DecimalFormatter.string(12.04, maximumDecimals: 1) == "12")
        #expect(DecimalFormatter.string(-0.25, maximumDecimals: 2) == "-0.25")
        #expect(DecimalFormatter.string(-0.01, maximumDecimals: 1) == "0")
        #expect(DecimalFormatter.string(3.05, maximumDecimals: 3) == "3.05")
        #expect(DecimalFormatter.string(100, maximumDecimals: 1) == "100")
        // A speed converted from knots, to the millimetre per second.
        #expect(DecimalFormatter.string(0.17 * 1852 / 3600, maximumDecimals: Fix.speedDecimals) == "0.087")
        #expect(DecimalFormatter.string(12.49997111111111, maximumDecimals: Fix.speedDecimals) == "12.5")
    }

    @Test func notANumberAndTheInfinities() {
        #expect(DecimalFormatter.string(.nan) == "nan")
        #expect(DecimalFormatter.string(.infinity, decimals: 2) == "inf")
        #expect(DecimalFormatter.string(-.infinity, maximumDecimals: 2) == "-inf")
    }

    @Test func integersAndSentenceDigits() {
        var text = ""
        DecimalFormatter.write(7, minimumDigits: 3) { text.unicodeScalars.append(.init($0)) }
        DecimalFormatter.write(FixedPoint(significand: -5, scale: 2)) { text.unicodeScalars.append(.init($0)) }
        #expect(text == "007-0.05")
    }
}
