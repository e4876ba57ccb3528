import Foundation
import NMEA
import TestSupport
import Testing

// The README's library section, compiled: the code between each `README` marker pair below is the README's code
// block of that number, character for character (`readmeShowsThisCode` checks it), and runs in `readmeCodeRuns`.

/// The examples' `print`, counted instead of printed.
private nonisolated(unsafe) var printed = 0
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") { printed += 1 }

private func readmeExamples(chunks: [[UInt8]], bytes: [UInt8]) throws -> (FixReader.Statistics, Double) {
    // README 1
    var reader = FixReader()  // framing, decoding, epochs and their counters in one value
    for chunk in chunks {  // a file's blocks, a serial port's reads: any chunking
        reader.read(chunk) { fix in print(fix.latitude as Any, fix.longitude as Any, fix.mode) }
    }
    reader.finish { fix in print(fix.iso8601 as Any) }  // end of this input: its last epoch, fixes held for a date
    print(reader.statistics.framer.rejected, reader.statistics.decoder.failed, reader.statistics.assembler.fixes)

    let lines = [
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", "$GPHDT,274.07,T*03", "$PINV,17,ON*06",
    ]
    for line in lines {
        switch try ParsedSentence(parsing: line) {  // one sentence of any type: an owned value, typed errors
        case .gga(let gga): print(gga.latitude as Any, gga.satellitesUsed as Any)  // Optional(48.11730000) Optional(8)
        case .hdt(let hdt): print(hdt.headingDegrees as Any)  // Optional(274.07)
        case .unknown(let other): print(other.address, other.fields)  // PINV ["17", "ON"], kept inline
        default: break
        }
    }
    // README end
    let firstInput = reader.statistics

    // README 2
    struct Speeds: FixReader.Handler {
        var fastest = 0.0
        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            if case .rmc(let rmc) = ParsedSentence(decoded) { fastest = max(fastest, rmc.speedKnots?.doubleValue ?? 0) }
        }
        mutating func rejected(_ rejection: Rejection, _ context: FixReader.Context) {
            print("line \(context.line): \(rejection.error)")  // bad checksum, overlong, truncated…
        }
    }
    var speeds = Speeds()
    reader.read(bytes, handler: &speeds) { fix in print(fix.speed as Any) }
    reader.finish(handler: &speeds) { fix in print(fix.speed as Any) }
    // README end
    #expect(reader.statistics.assembler.fixes == 2 * firstInput.assembler.fixes)
    return (firstInput, speeds.fastest)
}

@Suite(.serialized) struct ReadmeTests {
    @Test func readmeCodeRuns() throws {
        let url = URL(fileURLWithPath: Locations.packageRoot + "/nmea-samples/faulty.nmea")
        let bytes = Array(try Data(contentsOf: url))
        let chunks = stride(from: 0, to: bytes.count, by: 1000).map { Array(bytes[$0..<min($0 + 1000, bytes.count)]) }
        var fixes = 0
        var reader = FixReader()
        reader.read(bytes) { _ in fixes += 1 }
        reader.finish { _ in fixes += 1 }
        printed = 0
        let (statistics, fastest) = try readmeExamples(chunks: chunks, bytes: bytes)
        #expect(fixes > 100)
        #expect(statistics.framer.rejected > 0)
        #expect(fastest > 1)
        // One line per fix of each pass, the statistics, the three parsed sentences, and one per rejected line of
        // the second.
        #expect(
            printed == 2 * fixes + 4 + statistics.framer.rejected,
            "fixes \(fixes), rejected \(statistics.framer.rejected), \(statistics.assembler)")
    }

    /// The code blocks of the README's "The library" section, with their indentation.
    static func readmeBlocks() throws -> [String] {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: Locations.packageRoot + "/README.md"),
            encoding: .utf8)
        let section = readme.components(separatedBy: "## The library\n")[1].components(separatedBy: "\n## ")[0]
        return section.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    /// The code between `// README n` and `// README end` in this file, four spaces of indentation removed.
    static func compiledBlocks() throws -> [String] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        return source.components(separatedBy: "    // README ").dropFirst().compactMap { part -> String? in
            guard part.first?.isNumber == true else { return nil }
            let body = part.drop { $0 != "\n" }.dropFirst()
            let lines = body.components(separatedBy: "    // README end")[0]
                .split(separator: "\n", omittingEmptySubsequences: false)
            return lines.map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        }
    }

    @Test func readmeShowsThisCode() throws {
        let shown = try Self.readmeBlocks()
        let compiled = try Self.compiledBlocks()
        #expect(shown.count == 2)
        #expect(compiled.count == 2)
        // The README's first block starts with the import this file has at its top.
        #expect(shown.first?.hasPrefix("import NMEA\n\n") == true)
        for (index, (readme, code)) in zip(shown, compiled).enumerated() {
            let readme = index == 0 ? String(readme.dropFirst("import NMEA\n\n".count)) : readme
            #expect(readme == code, "README block \(index + 1) differs from the compiled example")
        }
    }
}
