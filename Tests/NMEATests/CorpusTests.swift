import Foundation
import Simulation
import TestSupport
import Testing

@testable import NMEA

/// The real-receiver logs in the shared corpus, framed and decoded end to end.
///
/// The corpus is not part of this repository (its licences differ, and it is large). It is found through the
/// `NMEA_CORPUS` environment variable, else at `../shared/nmea-corpus` beside the package root (TestSupport's
/// `Locations.corpus`); without it the tests are skipped, and say so.
@Suite(
    "Real corpus",
    .enabled(if: Corpus.directory != nil, "corpus not found: set NMEA_CORPUS or put it at ../shared/nmea-corpus"))
struct CorpusTests {
    /// Every input log: the framer hands out exactly the sentences that an independent, byte-by-byte count finds.
    @Test("the framer finds exactly the checksum-valid sentences an independent count finds")
    func framedSentencesMatchAnIndependentCount() throws {
        let files = try Corpus.inputFiles()
        #expect(files.count == 177)
        var rows: [(agrees: Bool, text: String)] = []
        var totalFramed = 0
        var totalCounted = 0
        for file in files {
            let bytes = try Corpus.read(file)
            let framed = Corpus.frame(bytes, chunkSizes: nil)
            let counted = IndependentCount(bytes)
            totalFramed += framed.statistics.sentences
            totalCounted += counted.validSentences
            let agrees =
                framed.statistics.sentences == counted.validSentences - counted.emptyAddresses
                && framed.statistics.badAddresses == counted.emptyAddresses
                && framed.statistics.overlong == counted.overlong
                && framed.statistics.commentLines == counted.commentLines
            let columns = [
                String(framed.statistics.sentences), String(counted.validSentences),
                "\(framed.statistics.badAddresses)/\(counted.emptyAddresses)",
                "\(framed.statistics.overlong)/\(counted.overlong)",
                "\(framed.statistics.commentLines)/\(counted.commentLines)",
                String(framed.statistics.rejected), String(counted.binaryFrames),
            ]
            rows.append((agrees, file.padding(56) + columns.map { $0.padding(11) }.joined()))
        }
        let mismatches = rows.filter { !$0.agrees }
        // NMEA_CORPUS_REPORT=1 prints every file; otherwise only the ones that disagree.
        let printAll = ProcessInfo.processInfo.environment["NMEA_CORPUS_REPORT"] == "1"
        if !mismatches.isEmpty || printAll {
            print(
                "file".padding(56)
                    + ["framed", "counted", "empty-addr", "overlong", "comments", "rejected", "UBX"]
                    .map { $0.padding(11) }.joined())
            for row in rows where printAll || !row.agrees { print((row.agrees ? "  " : "! ") + row.text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) files disagree; see the table above")
        #expect(totalFramed == Corpus.expectedTotalSentences)
        #expect(totalCounted == Corpus.expectedTotalSentences)
    }

    /// Every input log, fed in random chunks (1 byte to 8 KiB), gives the same sentences and counters as fed whole.
    @Test("random chunking gives the same sentences and counters as one whole buffer")
    func randomChunksGiveTheSameResult() throws {
        var random = SplitMix64(seed: 0x4E4D_4541_2D30_3138)
        var differences: [String] = []
        for file in try Corpus.inputFiles() {
            let bytes = try Corpus.read(file)
            let whole = Corpus.frame(bytes, chunkSizes: nil)
            for round in 0..<3 {
                // Round 0: tiny chunks (1–16 bytes) so that nearly every sentence is split; then mixed sizes.
                let largest = round == 0 ? 16 : 8192
                var sizes: [Int] = []
                var covered = 0
                while covered < bytes.count {
                    let size = Int(random.next() % UInt64(largest)) + 1
                    sizes.append(size)
                    covered += size
                }
                let chunked = Corpus.frame(bytes, chunkSizes: sizes)
                if chunked.statistics != whole.statistics || chunked.digest != whole.digest
                    || chunked.rejections != whole.rejections
                {
                    differences.append("\(file) round \(round): \(chunked.statistics) vs \(whole.statistics)")
                }
            }
        }
        for line in differences { print(line) }
        #expect(differences.isEmpty)
    }

    /// Decoding every framed sentence: a sentence with a field that does not read (decoded without it) or with
    /// nothing to decode is rare, and each one is a sentence known to be malformed. (Since issue 12, item 10, a
    /// sentence cut short decodes: the GPSBabel `$GPGSA,A,` and saab-r4's `$GPDTM,W84,C` are no longer listed.)
    @Test("decode failures are exactly the known malformed sentences")
    func decodeFailuresAreTheKnownOnes() throws {
        var failures: [Corpus.DecodeFailure] = []
        var sentences = 0
        var decoded = 0
        for file in try Corpus.inputFiles() {
            let bytes = try Corpus.read(file)
            let result = Corpus.frame(bytes, chunkSizes: nil, file: file)
            failures += result.decodeFailures
            sentences += result.statistics.sentences
            decoded += result.decoder.totalDecoded
        }
        for failure in failures { print("decode failure: \(failure)") }
        let expected = Set(
            Corpus.expectedDecodeFailures.flatMap { group in
                group.lines.map { Corpus.FailureKey(file: group.file, line: $0, error: group.error) }
            })
        let found = Set(failures.map(\.key))
        let unexpected = found.subtracting(expected).map(\.description).sorted()
        let missing = expected.subtracting(found).map(\.description).sorted()
        #expect(unexpected.isEmpty, "new decode failures: \(unexpected)")
        #expect(missing.isEmpty, "expected failures that no longer happen: \(missing)")
        // 99 before issue 12's item 10: 13 cut-short sentences now decode, 25 Motorola RMCs have a bad letter; 112
        // with issue 16's `$PTNL,VGK`.
        #expect(failures.count == 112)
        #expect(found.count == failures.count)
        // Rare: fewer than one sentence in 500.
        #expect(failures.count * 500 < sentences)
        #expect(sentences == Corpus.expectedTotalSentences)
        #expect(decoded == Corpus.expectedTotalDecoded)
    }
}

// MARK: - The corpus

enum Corpus {
    /// The corpus directory, or `nil` when it is not there.
    static var directory: URL? { Locations.corpus.map { URL(fileURLWithPath: $0) } }

    /// Sentences with a valid checksum in all input logs (framed and independently counted).
    /// (63,122 before issue 12's item 14: the 96 Android GnssLogger lines of gnss_lib_py/pixel6.nmea were rejected.)
    static let expectedTotalSentences = 63_218
    /// Of those, the ones decoded into a type (the rest are unknown types or decode failures).
    /// (54,860 before issue 12's item 10: the 99 sentences that were refused then all decode now; and 96 more since
    /// item 14, pixel6.nmea's.)
    /// (57,389 since issue 16: the corpus's 2,334 HDG, HDM, ROT, DPT, DBT and DBS sentences, every one of them; 58,384 with
    /// the 995 framed waypoint, route and steering sentences, and no new failures; 59,628 with the 1,244 MWV, MWD, VHW,
    /// VBW, VLW, MTW, XDR and ALF sentences of the input logs, every one without a bad field, and no new failures;
    /// 59,807 with the 179 receiver-proprietary and secondary-antenna ones, of which one, a misprint, reads with a
    /// bad field; 59,811 since issue 25 with pynmeagps's Trimble log's `$PTNL,BPQ`, `$PTNL,PJT` and two `$PTNL,DG`,
    /// none with a bad field.)
    static let expectedTotalDecoded = 59_811

    /// Input logs, relative to the corpus directory, sorted: every file but expected outputs and documentation.
    static func inputFiles() throws -> [String] {
        let root = try #require(directory)
        let excludedSuffixes = [".chk", ".gpx", ".csv", ".md", ".tsv"]
        var files: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard
                FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(path).path,
                    isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let name = (path as NSString).lastPathComponent
            if excludedSuffixes.contains(where: { name.hasSuffix($0) }) || name.contains(".expected") { continue }
            files.append(path)
        }
        return files.sorted()
    }

    static func read(_ file: String) throws -> [UInt8] {
        let url = try #require(directory).appendingPathComponent(file)
        return [UInt8](try Data(contentsOf: url))
    }

    /// A sentence that framed but did not decode.
    struct DecodeFailure: CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var error: NMEAError
        /// File, line and error: what the expected list names.
        var key: FailureKey { FailureKey(file: file, line: line, error: error) }
        var description: String { "\(file):\(line): \(error): \(text)" }
    }

    struct Result {
        var statistics = FramerStatistics()
        var decoder = DecoderStatistics()
        /// FNV-1a over every sentence's bytes and line number, in order.
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        /// Every rejection's error and line, in order.
        var rejections: [String] = []
        var decodeFailures: [DecodeFailure] = []
    }

    /// Frames `bytes` (whole, or in chunks of the given sizes) with a required checksum and a 1024-byte limit, and
    /// decodes every sentence.
    static func frame(_ bytes: [UInt8], chunkSizes: [Int]?, file: String = "") -> Result {
        var result = Result()
        var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
        func handle(_ event: FramerEvent) {
            switch event {
            case .sentence(let sentence):
                for byte in sentence.bytes { result.digest = (result.digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
                result.digest = (result.digest ^ UInt64(sentence.line)) &* 0x100_0000_01B3
                var fieldErrors = FieldErrors()
                do {
                    // As FixReader decodes: a bad field is left out and listed, the sentence's other fields kept.
                    let parsed = try ParsedSentence(sentence, fieldErrors: &fieldErrors)
                    result.decoder.record(parsed)
                    touch(parsed)
                    if let first = fieldErrors.first {
                        result.decoder.recordFieldErrors()
                        result.decodeFailures.append(
                            DecodeFailure(
                                file: file, line: sentence.line, text: String(decoding: sentence.bytes, as: UTF8.self),
                                error: first))
                    }
                } catch {
                    result.decoder.recordFailure()
                    result.decodeFailures.append(
                        DecodeFailure(
                            file: file, line: sentence.line, text: String(decoding: sentence.bytes, as: UTF8.self),
                            error: error))
                }
            case .rejected(let rejection):
                result.rejections.append("\(rejection.line) \(rejection.error) \(rejection.bytes.count)")
            case .binaryFrame(let frame):
                for byte in frame.bytes { result.digest = (result.digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
            }
        }
        bytes.withUnsafeBytes { all in
            var offset = 0
            var sizes = (chunkSizes ?? [all.count]).makeIterator()
            while offset < all.count {
                let size = min(sizes.next() ?? all.count, all.count - offset)
                framer.feed(UnsafeRawBufferPointer(rebasing: all[offset..<offset + size])) { handle($0) }
                offset += size
            }
        }
        framer.finish { handle($0) }
        result.statistics = framer.statistics
        return result
    }

    /// Reads every decoded value, so that a crash in a description or a lazy list would show here.
    static func touch(_ parsed: ParsedSentence) {
        switch parsed {
        case .pubxSatellites(let pubx): _ = String(describing: Array(pubx.satellites))
        case .unknown(let sentence): _ = sentence.fields
        default: _ = String(describing: parsed)
        }
    }

    struct FailureKey: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var error: NMEAError
        var description: String { "\(file):\(line) \(error)" }
    }

    /// Sentences in the corpus that are malformed as sent, so their decoders rightly reject them: file, lines, the
    /// error, and why the sentence is wrong.
    static let expectedDecodeFailures: [(file: String, lines: [Int], error: NMEAError, reason: String)] = [
        (
            "gpsbabel/nmeadatetime.nmea", [17, 18, 33, 34],
            .badField(index: 1, reason: .notANumber),
            "GPSBabel's deliberately malformed times `222515.x` and `222523.0x` (times padded with spaces are read)"
        ),
        (
            "gpsbabel/nmeadatetime.nmea", [37, 38], .badField(index: 1, reason: .badLength),
            "GPSBabel's deliberately malformed time `.1`"
        ),
        (
            "gpsd/april6_2019.log", [15], .badField(index: 9, reason: .notANumber),
            "Telit RMC date `2208-1` after the April 2019 GPS week rollover"
        ),
        (
            "gpsd/beidou-bd.log", [59, 60, 73, 74, 79, 80, 85, 86, 91, 92], .badField(index: 18, reason: .notANumber),
            "SiRF-TriG GSA with a decimal 18th field (`3.3`) where NMEA 4.10 has the integer system ID (header says so)"
        ),
        (
            "gpsd/eXplorist110.log", [7, 14, 21, 28, 35, 36, 43, 50, 57, 58, 65],
            .badField(index: 6, reason: .unexpectedCharacter),
            "Magellan GLL status `N` while without a fix; only `A` and `V` are defined"
        ),
        (
            "gpsd/motorola-t805.log", Array(stride(from: 17, through: 65, by: 2)),
            .badField(index: 11, reason: .unexpectedCharacter),
            "Motorola RMC `…,181207,0,A`: a magnetic variation of 0 followed by the mode, its E/W field left out; the "
                + "letter is no direction, so the variation is left absent (its time, status, position, speed kept)"
        ),
        (
            "gpsd/mtk-3301.log", [24, 28, 32, 36, 40, 47], .badField(index: 2, reason: .outOfRange),
            "no-fix placeholder latitude `8960.000000` (89° 60′) in GGA: minutes must be below 60"
        ),
        (
            "gpsd/mtk-3301.log", [25, 29, 33, 37, 44, 52], .badField(index: 3, reason: .outOfRange),
            "no-fix placeholder latitude `8960.000000` (89° 60′) in RMC: minutes must be below 60"
        ),
        (
            "gpsd/st-teseo-liv4f.log", [20, 24, 317, 321], .badField(index: 1, reason: .notANumber),
            "ST Teseo TXT with free text where the sentence count, number and identifier belong"
        ),
        (
            "gpsd/tcp-torture.log", [12], .badField(index: 1, reason: .notANumber),
            "torture test: bytes of the time and latitude replaced by `|` (`|19322|1.00`), checksum still valid"
        ),
        (
            "gpsd/tn200-all.log", [13, 19, 25, 31, 37, 43, 52, 61, 70], .badField(index: 1, reason: .outOfRange),
            "no-fix placeholder position `36000.0000,N,72000.0000,E` (360°, 720°) in GLL"
        ),
        (
            "gpsd/tn200-all.log", [15, 21, 27, 33, 39, 48, 57, 66, 75], .badField(index: 3, reason: .outOfRange),
            "no-fix placeholder position `36000.0000,N,72000.0000,E` (360°, 720°) in RMC"
        ),
        (
            "gpsd/tn200.log", [14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 47, 50, 53, 56, 59, 65, 68, 71, 74],
            .badField(index: 3, reason: .outOfRange),
            "no-fix placeholder position `36000.0000,N,72000.0000,E` (360°, 720°) in RMC"
        ),
        (
            "gpsd/tr737A+.log", [7, 12], .badField(index: 3, reason: .outOfRange),
            "no-fix placeholder latitude `8960.0000` (89° 60′) in RMC: minutes must be below 60"
        ),
        (
            "gpsd/tr737A+.log", [8], .badField(index: 2, reason: .outOfRange),
            "no-fix placeholder latitude `8960.0000` (89° 60′) in GGA: minutes must be below 60"
        ),
        (
            "pynmeagps/pygpsdata-nmeafoo2.log", [1], .badField(index: 7, reason: .notANumber),
            "pynmeagps's deliberately bad speed `X.138`"
        ),
        (
            "pynmeagps/trimble_nmea.log", [16], .badField(index: 10, reason: .unexpectedCharacter),
            "Trimble's manuals' `$PTNL,VGK` example with its DOP misprinted `1,4`: the `4` stands where the unit `M` "
                + "belongs (the DOP reads as 1)"
        ),
    ]
}

// MARK: - An independent count

/// Counts checksum-valid sentences byte by byte, without the framer.
///
/// It applies the framing rules as documented, by a different method: it walks an array with an index, cuts a
/// candidate at the first byte that cannot be inside a sentence (a control byte, a byte of 0x80 or more, or `$`/`!`,
/// which start the next candidate), and checks the candidate's `*hh` by parsing the two digits as text and XOR-ing the
/// bytes with `reduce`. Like the framer it skips `#` comment lines (a `#` right after a line ending or at the start),
/// u-blox UBX frames (`B5 62` class id length(2, LE) payload ck ck) with a payload of at most 4096 bytes and RTCM 3
/// frames (`D3`, a 10-bit length, payload, CRC-24Q), each only when its checksum verifies: otherwise it goes on right
/// after the sync bytes.
struct IndependentCount {
    /// Candidates whose `*hh` matches the XOR of the bytes between the start character and `*`.
    var validSentences = 0
    /// Of those, the ones with an empty address (`$,…`, `$*hh`), which the framer rejects.
    var emptyAddresses = 0
    /// Candidates longer than 1024 bytes.
    var overlong = 0
    /// `#` lines skipped.
    var commentLines = 0
    /// UBX frames skipped.
    var binaryFrames = 0

    static let maximumLength = 1024
    static let maximumBinaryPayload = 4096

    init(_ bytes: [UInt8]) {
        let dollar = UInt8(ascii: "$")
        let bang = UInt8(ascii: "!")
        func cannotBeInSentence(_ byte: UInt8) -> Bool { byte < 0x20 || byte >= 0x80 || byte == dollar || byte == bang }
        func isLineEnding(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

        var index = 0
        var atLineStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") && atLineStart {
                commentLines += 1
                while index < bytes.count && !isLineEnding(bytes[index]) { index += 1 }
                continue
            }
            if byte == 0xB5 && index + 1 < bytes.count && bytes[index + 1] == 0x62 {
                atLineStart = false
                if let length = Self.verifiedUBXLength(bytes, at: index) {
                    binaryFrames += 1
                    index += length
                } else {
                    index += 2  // not a frame after all: only its sync bytes are garbage
                }
                continue
            }
            if byte == 0xD3, let length = Self.verifiedRTCMLength(bytes, at: index) {
                atLineStart = false
                binaryFrames += 1
                index += length
                continue
            }
            if byte == dollar || byte == bang {
                atLineStart = false
                var end = index + 1
                while end < bytes.count && !cannotBeInSentence(bytes[end]) { end += 1 }
                var candidate = bytes[index..<end]
                index = end
                // An Android GnssLogger line ends `*hh,<Unix ms>` at its line ending: the time is not the sentence's.
                if end == bytes.count || isLineEnding(bytes[end]),
                    let comma = candidate.lastIndex(of: UInt8(ascii: ",")), comma + 1 < end,
                    end - comma - 1 <= 18, candidate[(comma + 1)...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    comma - 3 > candidate.startIndex, candidate[comma - 3] == UInt8(ascii: "*")
                {
                    candidate = candidate[..<comma]
                }
                if candidate.count > Self.maximumLength {
                    overlong += 1
                } else if Self.hasValidChecksum(candidate) {
                    validSentences += 1
                    let afterStart = candidate.dropFirst()
                    if afterStart.first == UInt8(ascii: ",") || afterStart.first == UInt8(ascii: "*") {
                        emptyAddresses += 1
                    }
                }
                continue
            }
            atLineStart = isLineEnding(byte)
            index += 1
        }
    }

    /// The length of the UBX frame at `index` when it is whole and its Fletcher-8 checksum (over class, id, length
    /// and payload) matches.
    static func verifiedUBXLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 6 <= bytes.count else { return nil }
        let payload = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8
        guard payload <= Self.maximumBinaryPayload, index + 8 + payload <= bytes.count else { return nil }
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes[(index + 2)..<(index + 6 + payload)] {
            a &+= byte
            b &+= a
        }
        return a == bytes[index + 6 + payload] && b == bytes[index + 7 + payload] ? 8 + payload : nil
    }

    /// The length of the RTCM 3 frame at `index` when it is whole, its reserved bits are zero and its CRC-24Q matches.
    static func verifiedRTCMLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 3 <= bytes.count, bytes[index + 1] & 0xFC == 0 else { return nil }
        let payload = Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        guard index + 6 + payload <= bytes.count else { return nil }
        let crc = crc24q(Array(bytes[index..<(index + 3 + payload)]))
        let sent = bytes[(index + 3 + payload)..<(index + 6 + payload)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return crc == sent ? 6 + payload : nil
    }

    /// `true` when `candidate` ends in `*hh` whose value is the XOR of the bytes between its first byte and the `*`.
    static func hasValidChecksum(_ candidate: ArraySlice<UInt8>) -> Bool {
        guard candidate.count >= 4 else { return false }
        let star = candidate.endIndex - 3
        guard candidate[star] == UInt8(ascii: "*") else { return false }
        let digits = String(decoding: candidate[(star + 1)...], as: UTF8.self)
        guard digits.allSatisfy(\.isHexDigit), let found = UInt8(digits, radix: 16) else { return false }
        let calculated = candidate[(candidate.startIndex + 1)..<star].reduce(0, ^)
        return found == calculated
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
