import Foundation
import Simulation
import TestSupport
import Testing

@testable import NMEA

/// Each decoder has one body, which reads a sentence in two ways: up to the stop byte the framer guarantees after
/// every sentence it hands out (digit loops never compare against the end), and — for a view of the caller's own
/// bytes made with `Sentence(unchecked:)`, which has no stop byte — with its last field read from a copy. These tests
/// decode each sentence both ways and expect the same values and errors, and expect recorded results:
/// `ExpectedDecodings` holds the digests of those results, recorded first from the decoders as they were before they
/// had one body (when a fast path and `init(carefully:)` stood side by side), and again when issue 12 (item 10) made
/// a bad field cost only itself (values kept beside the field errors, decimals in whole-number fields truncated,
/// sentences cut short decoded, spaces read as padding).
@Suite struct ExpectedDecodingTests {
    /// A decoding result as text that tells every value apart (`FixedPoint` prints its digits and scale).
    static func describe(_ result: Result<ParsedSentence, NMEAError>) -> String {
        switch result {
        case .failure(let error): return "error \(error)"
        case .success(.unknown(let sentence)): return "unknown \(sentence.talker.rawValue) \(sentence.type.rawValue)"
        case .success(.pubxSatellites(let pubx)): return "pubx03 \(pubx.count) \(Array(pubx.satellites))"
        case .success(let parsed): return String(describing: parsed)
        }
    }

    /// A decoding result and the fields that did not read (absent from the value).
    static func decode(_ sentence: Sentence) -> (Result<ParsedSentence, NMEAError>, FieldErrors) {
        var errors = FieldErrors()
        do throws(NMEAError) {
            return (.success(try ParsedSentence(sentence, fieldErrors: &errors)), errors)
        } catch {
            return (.failure(error), errors)
        }
    }

    /// ``describe(_:)`` of a result, then its field errors.
    static func describe(_ outcome: (Result<ParsedSentence, NMEAError>, FieldErrors)) -> String {
        let errors = outcome.1.isEmpty ? "" : " without \(outcome.1)"
        return describe(outcome.0) + errors
    }

    /// Each sentence in `text` decoded as framed (fed in `chunk`-byte pieces, so terminated) and from a copy of its
    /// bytes (not terminated).
    static func outcomes(_ text: String, chunk: Int = .max, policy: Framer.ChecksumPolicy = .required)
        -> [(kind: SentenceKind?, fast: String, careful: String, terminated: Bool)]
    {
        var results: [(kind: SentenceKind?, fast: String, careful: String, terminated: Bool)] = []
        var framer = Framer(checksumPolicy: policy)
        let handle: (FramerEvent) -> Void = { event in
            guard case .sentence(let sentence) = event else { return }
            let fast = describe(decode(sentence))
            let copy = Array(sentence.bytes)
            let careful = copy.withUnsafeBytes { buffer in
                let view = try! Sentence(unchecked: buffer, checksum: sentence.checksum, line: sentence.line)
                precondition(!view.isTerminated)
                return describe(decode(view))
            }
            results.append((SentenceKind(sentence), fast, careful, sentence.isTerminated))
        }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count - offset, chunk) + offset
            framer.feed(bytes[offset..<end], handle)
            offset = end
        }
        framer.finish(handle)
        return results
    }

    /// Tokens that exercise every branch of the decoders: the usual forms, signs, padding, overlong numbers, and
    /// errors.
    static let tokens = [
        "", "0", "00", "7", "07", "1", "3", "12", "89", "90", "91", "99", "100", "359", "360", "361", "999", "0045",
        "65535", "65536", "12345", "1234567", "-5", "+5", "-0214.41", "1.5", "5.", ".5", ".", "1.28", "0.80", "A", "a",
        "F", "1A", " 5", "5 ", "-", "9999999999999999999", "1.23456789012", "4807.038", "4807.03800000", "01131.000",
        "1131.000", "9000.0000", "18000.000", "8959.99999", "N", "S", "E", "W", "V", "M", "K", "T", "123519",
        "123519.00", "123519.123456789012", "235960", "240000", "12351", " 123519", "230394", "320194", "011300",
        "2026", "*", "!", "$",
    ]

    static let bases = [
        "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74",
        "$GPGSV,3,1,12,02,77,226,40,05,61,122,42,07,69,325,43,09,68,168,40,1*67",
        "$GAGSV,1,1,03,02,22,096,,08,17,037,,30,38,311,,7*4C",
        "$GLGSV,3,3,09,88,,,28,1*7B",
        "$GPGSV,1,1,00*79",
        "$GPGSV,1,1,00,1*64",
        "$GNGSA,A,3,02,05,07,09,18,20,24,26,29,30,,,1.28,0.80,1.04,1*0F",
        "$GNGSA,A,3,03,13,26,,,,,,,,,,4.27,2.67,3.47,3*04",
        "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39",
        "$GPGSA,M,1,,,,,,,,,,,,,,,*12",
        "$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*09",
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A",
        "$GNRMC,080000.00,A,4808.24400,N,01134.53000,E,24.298,45.00,301126,,,A,V*06",
        "$GNGGA,080000.00,4808.24400,N,01134.53000,E,1,24,0.50,520.0,M,47.3,M,,*49",
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
        "$GNVTG,45.00,T,,M,24.298,N,45.000,K,A*16",
        "$GNGLL,4808.24400,N,01134.53000,E,080000.00,A,A*78",
        "$GNZDA,080000.00,30,11,2026,00,00*75",
    ].map { line in withChecksum(String(line[..<line.lastIndex(of: "*")!])) }

    /// Decodes `text` both ways, expects the same, and returns what they gave.
    @discardableResult
    static func expectSame(_ text: String, chunk: Int = .max, policy: Framer.ChecksumPolicy = .required) -> [String] {
        var results: [String] = []
        for outcome in outcomes(text, chunk: chunk, policy: policy) {
            #expect(outcome.terminated)
            #expect(outcome.fast == outcome.careful, "\(text.debugDescription), chunk \(chunk)")
            results.append(outcome.careful)
        }
        return results
    }

    /// FNV-1a over text, as `ExpectedDecodings` was computed.
    struct Digest {
        var count = 0
        var value: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func add(_ text: String) {
            for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }

        mutating func add(_ results: [String], prefix: String) {
            for result in results {
                add("\(prefix)|\(result)\n")
                count += 1
            }
        }

        func matches(_ expected: ExpectedDecodings.Digest) -> Bool {
            count == expected.count && value == expected.digest
        }
    }

    @Test func baseSentencesDecodeAlikeHoweverTheyAreFed() {
        for line in Self.bases {
            Self.expectSame(line + "\r\n")
            Self.expectSame(line + "\r\n", chunk: 1)
            Self.expectSame(line)  // no final newline: completed by `finish`
            Self.expectSame(line, chunk: 7)
        }
    }

    @Test func everyFieldReplacedByEveryTokenDecodesAsExpected() {
        var compared = 0
        for (line, expected) in zip(Self.bases, ExpectedDecodings.tokens) {
            var digest = Digest()
            let fieldCount = line.split(separator: ",", omittingEmptySubsequences: false).count - 1
            for index in 1...fieldCount {
                for token in Self.tokens {
                    let variant = replacingField(index, of: line, with: token)
                    digest.add(Self.expectSame(variant + "\r\n"), prefix: "\(index)|\(token)")
                    compared += 1
                }
            }
            #expect(digest.matches(expected), "\(line): \(digest) != \(expected)")
        }
        #expect(compared > 10_000)
    }

    /// Every type, not only the common ones: the examples of each kind with every field replaced and cut short.
    @Test func everyTypeDecodesAsExpected() {
        #expect(ParsedSentenceTests.examples.count == ExpectedDecodings.samples.count)
        for ((line, _, _), expected) in zip(ParsedSentenceTests.examples, ExpectedDecodings.samples) {
            var digest = Digest()
            let fieldCount = line.split(separator: ",", omittingEmptySubsequences: false).count - 1
            for index in 1...fieldCount {
                for token in Self.tokens {
                    let variant = replacingField(index, of: line, with: token)
                    digest.add(Self.expectSame(variant + "\r\n"), prefix: "\(index)|\(token)")
                }
            }
            for kept in 0...fieldCount {
                digest.add(Self.expectSame(keepingFields(kept, of: line) + "\n"), prefix: "\(kept)")
            }
            #expect(digest.matches(expected), "\(line): \(digest) != \(expected)")
        }
    }

    /// The same inputs as the two tests below, in the order their digests were recorded.
    @Test func shorterLongerAndUnchecksummedSentencesDecodeAsExpected() {
        for (line, expected) in zip(Self.bases, ExpectedDecodings.shorterLongerAndWithoutChecksum) {
            var digest = Digest()
            let fieldCount = line.split(separator: ",", omittingEmptySubsequences: false).count - 1
            for kept in 0...fieldCount {
                digest.add(Self.expectSame(keepingFields(kept, of: line) + "\n"), prefix: "\(kept)")
            }
            let body = String(line[..<line.lastIndex(of: "*")!])
            for extra in [",", ",1", ",,", ",1,2", ",A", ",1.5", ",,,,,"] {
                digest.add(Self.expectSame(withChecksum(body + extra) + "\n"), prefix: extra)
            }
            let unchecked =
                Self.expectSame(body + "\r\n", policy: .optional)
                + Self.expectSame(body + "$GPXXX,1*00\n", policy: .optional)
            digest.add(unchecked, prefix: "none")
            #expect(digest.matches(expected), "\(line): \(digest) != \(expected)")
        }
    }

    @Test func shorterAndLongerSentencesDecodeAlike() {
        for line in Self.bases {
            let fieldCount = line.split(separator: ",", omittingEmptySubsequences: false).count - 1
            for kept in 0...fieldCount {
                let short = keepingFields(kept, of: line)
                Self.expectSame(short + "\n")
                Self.expectSame(short + "\n", chunk: 3)
            }
            let body = String(line[..<line.lastIndex(of: "*")!])
            for extra in [",", ",1", ",,", ",1,2", ",A", ",1.5", ",,,,,"] {
                Self.expectSame(withChecksum(body + extra) + "\n")
            }
        }
    }

    @Test func sentencesWithoutChecksumDecodeAlike() {
        for line in Self.bases {
            let body = String(line[..<line.lastIndex(of: "*")!])
            Self.expectSame(body + "\r\n", policy: .optional)
            Self.expectSame(body + "\r\n", chunk: 1, policy: .optional)
            Self.expectSame(body, chunk: 5, policy: .optional)  // completed by `finish` from the framer's buffer
            Self.expectSame(body + "$GPXXX,1*00\n", policy: .optional)  // ended by the next sentence's `$`
        }
    }

    /// Random damage to real sentences (bytes replaced, dropped, inserted; checksums present or not; line endings or
    /// not), fed in random chunks that each sit in an allocation of exactly their size: both readings must agree,
    /// and under `swift test --sanitize=address` any read past the bytes the framer was given is reported. (A GSA
    /// with an empty first field at the end of a sentence without checksum once read the byte after the stop byte.)
    @Test func damagedSentencesInExactChunksDecodeAlike() {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array("0123456789,.,,*-+ANSEWV$\r\n".utf8)
        var compared = 0
        var digest = Digest()
        for round in 0..<6000 {
            var text: [UInt8] = []
            for _ in 0..<random.next(upTo: 6) + 1 {
                let base = Self.bases[random.next(upTo: Self.bases.count)]
                var body = Array(base[..<base.lastIndex(of: "*")!].utf8)
                for _ in 0..<random.next(upTo: 7) {
                    let index = random.next(upTo: body.count - 1) + 1
                    switch random.next(upTo: 3) {
                    case 0: body[index] = alphabet[random.next(upTo: alphabet.count)]
                    case 1: body.remove(at: index)
                    default: body.insert(alphabet[random.next(upTo: alphabet.count)], at: index)
                    }
                }
                if random.next(upTo: 4) == 0,
                    let comma = body.indices.filter({ body[$0] == UInt8(ascii: ",") })
                        .dropFirst(random.next(upTo: 4)).first
                {
                    body.removeSubrange((comma + 1)...)  // cut after a comma: the fields end with an empty one
                }
                if random.next(upTo: 2) == 0 {
                    body = Array(withChecksum(String(decoding: body, as: UTF8.self)).utf8)
                }
                if random.next(upTo: 4) > 0 { body += Array("\r\n".utf8) }
                text += body
            }
            var framer = Framer(maximumLength: 64 + round % 64, checksumPolicy: round % 2 == 0 ? .optional : .required)
            let handle: (FramerEvent) -> Void = { event in
                guard case .sentence(let sentence) = event else { return }
                let careful = Array(sentence.bytes).withUnsafeBytes { buffer in
                    Self.describe(Self.decode(try! Sentence(unchecked: buffer, checksum: sentence.checksum)))
                }
                let fast = Self.describe(Self.decode(sentence))
                compared += 1
                digest.add(careful + "\n")
                digest.count += 1
                #expect(fast == careful, "\(String(decoding: sentence.bytes, as: UTF8.self).debugDescription)")
            }
            var offset = 0
            while offset < text.count {
                let count = min(random.next(upTo: 40) + 1, text.count - offset)
                let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
                chunk.copyBytes(from: text[offset..<offset + count])
                framer.feed(UnsafeRawBufferPointer(chunk), handle)
                chunk.deallocate()
                offset += count
            }
            framer.finish(handle)
        }
        #expect(compared > 10000)
        #expect(digest.matches(ExpectedDecodings.damaged), "\(digest) != \(ExpectedDecodings.damaged)")
    }

    /// Every sentence of the project's samples and of the shared real-world corpus, file by file.
    @Test func samplesAndCorpusDecodeAsExpected() throws {
        var files = try FileManager.default.contentsOfDirectory(
            at: URL(fileURLWithPath: Locations.packageRoot + "/nmea-samples"), includingPropertiesForKeys: nil)
        let corpus = Locations.corpus.map { URL(fileURLWithPath: $0) }
        if let corpus, let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where !url.hasDirectoryPath { files.append(url) }
        }
        let root = Locations.packageRoot + "/"
        var compared = 0
        var checkedFiles = 0
        for file in files.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: file) else { continue }
            var framer = Framer(checksumPolicy: .optional)
            var mismatches = 0
            var digest = Digest()
            let handle: (FramerEvent) -> Void = { event in
                guard case .sentence(let sentence) = event else { return }
                let fast = Self.describe(Self.decode(sentence))
                let careful = Array(sentence.bytes).withUnsafeBytes { buffer in
                    Self.describe(Self.decode(try! Sentence(unchecked: buffer, checksum: sentence.checksum)))
                }
                compared += 1
                digest.add(careful + "\n")
                digest.count += 1
                if fast != careful && mismatches < 5 {
                    mismatches += 1
                    Issue.record("\(file.lastPathComponent) line \(sentence.line): \(fast) != \(careful)")
                }
            }
            framer.feed(Array(data), handle)
            framer.finish(handle)
            var name = file.path
            if let corpus, name.hasPrefix(corpus.path + "/") {
                name = "corpus:" + name.dropFirst(corpus.path.count + 1)
            } else if name.hasPrefix(root) {
                name.removeFirst(root.count)
            }
            guard digest.count > 0 else { continue }
            let expected = try #require(ExpectedDecodings.files[name], "no expected decodings for \(name): \(digest)")
            #expect(digest.matches(expected), "\(name): \(digest) != \(expected)")
            checkedFiles += 1
        }
        #expect(compared > 1000)
        if corpus != nil { #expect(checkedFiles == ExpectedDecodings.files.count) }
    }

    /// `FixAssembler.add(_ sentence:)` (decoding in place through a visitor, fixes queued) gives the same fixes,
    /// in the same order and at the same sentences, as decoding into a `ParsedSentence` and adding that.
    @Test func assemblingInPlaceMatchesAssemblingParsedSentences() throws {
        var files = try FileManager.default.contentsOfDirectory(
            at: URL(fileURLWithPath: Locations.packageRoot + "/nmea-samples"), includingPropertiesForKeys: nil)
        if let corpus = Locations.corpus.map({ URL(fileURLWithPath: $0) }),
            let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        {
            for case let url as URL in enumerator where !url.hasDirectoryPath { files.append(url) }
        }
        var totalFixes = 0
        for file in files {
            guard let data = try? Data(contentsOf: file) else { continue }
            var results: [[String]] = []
            for inPlace in [false, true] {
                var framer = Framer(checksumPolicy: .optional)
                var assembler = FixAssembler(options: .init(provisionalPositions: true))
                var emitted: [String] = []
                var sentences = 0
                let handle: (FramerEvent) -> Void = { event in
                    guard case .sentence(let sentence) = event else { return }
                    sentences += 1
                    let record: (Fix) -> Void = { emitted.append("\(sentences) \($0)") }
                    if inPlace {
                        _ = try? assembler.add(sentence, record)
                    } else if let parsed = try? ParsedSentence(sentence) {
                        assembler.add(parsed, record)
                    }
                }
                framer.feed(Array(data), handle)
                framer.finish(handle)
                assembler.finish { emitted.append("finish \($0)") }
                emitted.append("\(assembler.statistics)")
                results.append(emitted)
            }
            totalFixes += results[0].count
            #expect(results[0] == results[1], "\(file.lastPathComponent)")
        }
        #expect(totalFixes > 1000)
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
