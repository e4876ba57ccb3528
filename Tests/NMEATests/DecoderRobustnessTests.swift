import Simulation
import Testing

@testable import NMEA

/// Malformed variants of every sentence decode or fail with a decoding error that names a real field; none traps.
@Suite struct DecoderRobustnessTests {
    static let lines: [String] =
        ParsedSentenceTests.examples.map(\.0) + [
            RMCTests.nmea410, GGATests.rtk, "$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*09",
            "$GAGSV,1,1,03,02,22,096,,08,17,037,,30,38,311,,7*4C", "$PQGSA,A,3,193,194,195,,,,,,,,,,1.9,1.1,1.5,5*0B",
        ]

    static let garbage = [
        "", "-", "+", ".", "-.", "x", "A", "0", "-1", "99999999999999999999", "123456789012345678", "1.2.3",
        "1e5", "FFFF", "-0", "0.", ".0", "235960", "999999", "9999.9999", "-9999.9999", "N", "S", "E", "W", "AB",
        String(repeating: "9", count: 40),
    ]

    /// The outcome of decoding `line`: `nil` when it decoded, else the error, which must be a decoding error.
    static func check(_ line: String) -> NMEAError? {
        let fieldCount = (try? withSentence(line) { $0.fieldCount }) ?? -1
        let error = thrownError { () throws(NMEAError) in try parsedKind(line) }
        switch error {
        case nil:
            break
        case .badField(let index, _)?:
            #expect(index >= 1 && index <= fieldCount, "\(line): \(error!)")
        case .tooFewFields(let expected, let found)?:
            #expect(found == fieldCount && expected > found, "\(line): \(error!)")
        default:
            Issue.record("\(line): unexpected \(error!)")
        }
        return error
    }

    @Test(arguments: lines)
    func everyFieldReplaced(line: String) throws {
        #expect(Self.check(line) == nil)
        let fieldCount = try withSentence(line) { $0.fieldCount }
        for index in 1...fieldCount {
            for value in Self.garbage {
                _ = Self.check(replacingField(index, of: line, with: value))
            }
        }
    }

    @Test(arguments: lines)
    func everyLengthFromEmpty(line: String) throws {
        let fieldCount = try withSentence(line) { $0.fieldCount }
        for count in 0...fieldCount {
            _ = Self.check(keepingFields(count, of: line))
        }
        _ = Self.check(withChecksum(String(line[..<line.lastIndex(of: "*")!]) + ",,,,,,,,,,,,,,,,,,,,,,,,,"))
    }

    @Test func randomCharacterMutations() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("0123456789.,-+ANSEWVDxyz*")
        for line in Self.lines {
            let body = Array(String(line[..<line.lastIndex(of: "*")!]))
            for _ in 0..<200 {
                var mutated = body
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 7..<mutated.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: mutated[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                    case 1:
                        mutated.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)], at: position)
                    default: if mutated.count > 8 { mutated.remove(at: position) }
                    }
                }
                let text = String(mutated)
                // A `*` inside the body makes the framer reject it; that is the framer's business.
                guard !text.dropFirst().contains("*") else { continue }
                _ = Self.check(withChecksum(text))
            }
        }
    }
}
