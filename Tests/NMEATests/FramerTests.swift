import Simulation
import Testing

@testable import NMEA

// MARK: Transcripts

/// Everything a framer did with an input: one line of text per event, and the final counters.
struct FramerTranscript: Equatable, CustomStringConvertible {
    var events: [String] = []
    var statistics = FramerStatistics()

    var description: String { events.joined(separator: "\n") + "\n\(statistics)" }
}

/// `line text*hh` for a sentence (`*hh` only when it carried a checksum).
func sentenceEvent(_ line: Int, _ text: String, checksum: UInt8? = nil) -> String {
    "\(line) \(text)" + (checksum.map { "*" + Hex.string(UInt64($0), minimumDigits: 2) } ?? "")
}

/// `line error | bytes` for a rejection.
func rejectionEvent(_ line: Int, _ error: NMEAError, _ bytes: String) -> String {
    "\(line) \(error) | \(bytes)"
}

func describe(_ event: FramerEvent) -> String {
    switch event {
    case .sentence(let sentence):
        sentenceEvent(sentence.line, String(decoding: sentence.bytes, as: UTF8.self), checksum: sentence.checksum)
    case .rejected(let rejection):
        rejectionEvent(rejection.line, rejection.error, String(decoding: rejection.bytes, as: UTF8.self))
    case .binaryFrame(let frame):
        binaryFrameEvent(frame.line, frame.kind, Array(frame.bytes))
    }
}

/// `line kind count bytes, digest` for a binary frame handed out (the digest shows a frame gathered wrongly from
/// its chunks).
func binaryFrameEvent(_ line: Int, _ kind: BinaryFrame.Kind, _ bytes: [UInt8]) -> String {
    let digest = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    return "\(line) \(kind) \(bytes.count) bytes, \(Hex.string(digest, minimumDigits: 16))"
}

/// Frames `input` fed in chunks of the given sizes (which must add up to `input.count`), each chunk copied into a
/// buffer of its own, then calls `finish`. With `storageBytes`, the framer keeps split sentences and frames in that
/// many bytes of the caller's (``Framer/init(maximumLength:checksumPolicy:storage:)``) instead of its own.
func frame(
    _ input: [UInt8], chunks: [Int], maximumLength: Int = 1024, checksumPolicy: Framer.ChecksumPolicy = .required,
    storageBytes: Int? = nil
) -> FramerTranscript {
    guard let storageBytes else {
        var framer = Framer(maximumLength: maximumLength, checksumPolicy: checksumPolicy)
        return frame(input, chunks: chunks, with: &framer)
    }
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: storageBytes, alignment: 8)
    defer { storage.deallocate() }
    var framer = Framer(maximumLength: maximumLength, checksumPolicy: checksumPolicy, storage: storage)
    return frame(input, chunks: chunks, with: &framer)
}

private func frame(_ input: [UInt8], chunks: [Int], with framer: inout Framer) -> FramerTranscript {
    precondition(chunks.reduce(0, +) == input.count, "chunks must cover the input")
    var transcript = FramerTranscript()
    var offset = 0
    for size in chunks {
        let chunk = Array(input[offset..<offset + size])
        offset += size
        chunk.withUnsafeBytes { buffer in
            framer.feed(buffer) { transcript.events.append(describe($0)) }
        }
    }
    framer.finish { transcript.events.append(describe($0)) }
    transcript.statistics = framer.statistics
    return transcript
}

/// Frames `input` in one piece.
func frame(_ input: [UInt8], maximumLength: Int = 1024, checksumPolicy: Framer.ChecksumPolicy = .required)
    -> FramerTranscript
{
    frame(input, chunks: [input.count], maximumLength: maximumLength, checksumPolicy: checksumPolicy)
}

func frame(_ input: String, maximumLength: Int = 1024, checksumPolicy: Framer.ChecksumPolicy = .required)
    -> FramerTranscript
{
    frame(Array(input.utf8), maximumLength: maximumLength, checksumPolicy: checksumPolicy)
}

/// Chunk sizes drawn from `sizes` (zero-length chunks included when the range allows) covering `count` bytes.
func randomChunks(count: Int, sizes: ClosedRange<Int>, generator: inout SplitMix64) -> [Int] {
    var chunks: [Int] = []
    var remaining = count
    while remaining > 0 {
        let size = min(Int.random(in: sizes, using: &generator), remaining)
        chunks.append(size)
        remaining -= size
    }
    return chunks
}

/// A UBX frame with a correct Fletcher checksum.
func ubxFrame(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
    let body = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in body {
        a &+= byte
        b &+= a
    }
    return [0xB5, 0x62] + body + [a, b]
}

// MARK: Tests

@Suite struct FramerTests {
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    static let ggaBody = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    static let hdt = "$GPHDT,274.07,T*03"
    static let gsv = "$GPGSV,1,1,00*79"

    // MARK: Line endings

    @Test(arguments: ["\n", "\r\n", "\r\r\n"])
    func lineEndings(ending: String) {
        let transcript = frame(Self.gga + ending + Self.hdt + ending + Self.gsv + ending)
        #expect(
            transcript.events == [
                sentenceEvent(1, Self.ggaBody, checksum: 0x47),
                sentenceEvent(2, "$GPHDT,274.07,T", checksum: 0x03),
                sentenceEvent(3, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.sentences == 3)
        #expect(transcript.statistics.garbageBytes == 0)
        #expect(transcript.statistics.rejected == 0)
    }

    /// Carriage returns alone end sentences too; the line number counts `\n` only, so it stays at 1.
    @Test func carriageReturnOnly() {
        let transcript = frame(Self.gga + "\r" + Self.hdt + "\r" + Self.gsv + "\r")
        #expect(
            transcript.events == [
                sentenceEvent(1, Self.ggaBody, checksum: 0x47),
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03),
                sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.garbageBytes == 0)
    }

    @Test func blankLinesAreNotGarbage() {
        let transcript = frame("\n\r\n\n" + Self.hdt + "\n\n")
        #expect(transcript.events == [sentenceEvent(4, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 0)
    }

    // MARK: Noise between sentences

    @Test func garbageBeforeDollarIsCounted() {
        let transcript = frame("noise" + Self.hdt + "\nxy" + Self.gsv + "\n")
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.garbageBytes == 7)
    }

    @Test func doubleDollar() {
        let transcript = frame("$" + Self.gga + "\n")
        #expect(transcript.events == [sentenceEvent(1, Self.ggaBody, checksum: 0x47)])
        #expect(transcript.statistics.garbageBytes == 1)
        #expect(transcript.statistics.truncated == 0)
        #expect(transcript.statistics.sentences == 1)
    }

    @Test func loneDollarAtTheEndIsGarbage() {
        let transcript = frame(Self.hdt + "\n$")
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 1)
    }

    @Test func commentLines() {
        let transcript = frame("# captured 2026-01-02\n" + Self.hdt + "\n#" + Self.gsv + "\r\n# last\n")
        #expect(transcript.events == [sentenceEvent(2, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.commentLines == 3)
        #expect(transcript.statistics.garbageBytes == 0)
        #expect(transcript.statistics.sentences == 1)
    }

    @Test func hashInsideALineIsNotAComment() {
        let transcript = frame("x# " + Self.hdt + "\n")
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.commentLines == 0)
        #expect(transcript.statistics.garbageBytes == 3)
    }

    @Test func commentAfterACarriageReturn() {
        let transcript = frame(Self.hdt + "\r# note " + Self.gsv + "\r" + Self.gsv + "\r")
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.commentLines == 1)
    }

    @Test func nulBytes() {
        let input: [UInt8] =
            [0, 0] + Array((Self.hdt + "\n").utf8) + [0] + Array("$GPHDT,27".utf8) + [0]
            + Array("4.07,T*03\n".utf8) + Array(Self.gsv.utf8) + [0, 0x0A]
        let transcript = frame(input)
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03),
                rejectionEvent(2, .truncated, "$GPHDT,27"),
                sentenceEvent(3, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        // Two NULs, one NUL, the NUL that cut the sentence and the rest of its line, the NUL after *79.
        #expect(transcript.statistics.garbageBytes == 2 + 1 + 1 + 9 + 1)
        #expect(transcript.statistics.truncated == 1)
    }

    // MARK: UBX binary frames

    @Test func ubxFramesBetweenSentences() {
        let navPVT = ubxFrame(class: 0x01, id: 0x07, payload: Array(0..<92))
        let ack = ubxFrame(class: 0x05, id: 0x01, payload: [0x06, 0x8A])
        let input = navPVT + Array((Self.hdt + "\r\n").utf8) + ack + Array((Self.gsv + "\n").utf8) + navPVT
        let transcript = frame(input)
        // Each frame is handed out whole, on the line it began on.
        #expect(
            transcript.events == [
                binaryFrameEvent(1, .ubx, navPVT), sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03),
                binaryFrameEvent(2, .ubx, ack), sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
                binaryFrameEvent(3, .ubx, navPVT),
            ])
        #expect(transcript.statistics.ubxFrames == 3)
        #expect(transcript.statistics.binaryFrameBytes == 2 * 100 + 10)
        #expect(transcript.statistics.garbageBytes == 0)
    }

    /// A payload holding `$`, `\n` and `#` must not start a sentence, end a line or start a comment.
    @Test func ubxPayloadWithDollarAndNewline() {
        let payload = Array("\n$GPGSV,1,1,00*79\n#".utf8)
        let frameBytes = ubxFrame(class: 0x0A, id: 0x04, payload: payload)
        let input = Array((Self.hdt + "\n").utf8) + frameBytes + Array((Self.gsv + "\n").utf8)
        let transcript = frame(input)
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), binaryFrameEvent(2, .ubx, frameBytes),
                sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.binaryFrameBytes == frameBytes.count)
        #expect(transcript.statistics.sentences == 2)
        #expect(transcript.statistics.commentLines == 0)
    }

    @Test func ubxFrameCutsASentence() {
        let posllh = ubxFrame(class: 0x01, id: 0x02, payload: [1, 2, 3, 4])
        let input = Array("$GPHDT,274".utf8) + posllh + Array(("\n" + Self.gsv + "\n").utf8)
        let transcript = frame(input)
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPHDT,274"), binaryFrameEvent(1, .ubx, posllh),
                sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.binaryFrameBytes == 12)
    }

    @Test func b5NotFollowedBy62IsGarbage() {
        let input: [UInt8] = [0xB5, 0x00, 0xB5] + Array((Self.hdt + "\n").utf8)
        let transcript = frame(input)
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 3)
        #expect(transcript.statistics.binaryFrameBytes == 0)
    }

    @Test func implausibleUBXLengthIsGarbage() {
        let input: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x01, 0x10] + Array((Self.hdt + "\n").utf8)
        let transcript = frame(input)
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 6)
        #expect(transcript.statistics.binaryFrameBytes == 0)
    }

    @Test func largestUBXPayloadIsSkipped() {
        let frameBytes = ubxFrame(
            class: 0x02, id: 0x15, payload: Array(repeating: 0x24, count: Framer.maximumBinaryPayload))
        let transcript = frame(frameBytes + Array((Self.hdt + "\n").utf8))
        #expect(
            transcript.events == [
                binaryFrameEvent(1, .ubx, frameBytes), sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03),
            ])
        #expect(transcript.statistics.binaryFrameBytes == Framer.maximumBinaryPayload + 8)
    }

    /// A frame cut off by the end never verified: its sync bytes are garbage, and the bytes after them are framed
    /// again (here the payload's bytes 0–33: 32 of them garbage, `\n` and `\r` line endings, `!` a lone start).
    @Test func unfinishedUBXFrameAtTheEndIsFramedAgain() {
        let frameBytes = ubxFrame(class: 0x01, id: 0x07, payload: Array(0..<92))
        let transcript = frame(Array((Self.hdt + "\n").utf8) + frameBytes.prefix(40))
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 2 + 4 + 32)
        #expect(transcript.statistics.damagedBinaryFrames == 1)
        #expect(transcript.statistics.binaryFrameBytes == 0)
    }

    // MARK: End of input

    @Test func missingFinalNewlineIsCompletedByFinish() {
        var framer = Framer()
        var events: [String] = []
        framer.feed(Array((Self.hdt + "\n" + Self.gsv).utf8)) { events.append(describe($0)) }
        #expect(events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        framer.finish { events.append(describe($0)) }
        #expect(
            events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(framer.statistics.sentences == 2)
        framer.finish { events.append(describe($0)) }
        #expect(events.count == 2)
    }

    @Test func unfinishedSentenceAtTheEndIsRejectedByFinish() {
        #expect(frame("$GPHDT,274.0").events == [rejectionEvent(1, .missingChecksum, "$GPHDT,274.0")])
        #expect(frame("$GPHDT,274.07,T*0").events == [rejectionEvent(1, .malformedChecksum, "$GPHDT,274.07,T*0")])
    }

    @Test func framerIsReusableAfterFinish() {
        var framer = Framer()
        var events: [String] = []
        framer.feed(Array("$GPHDT,274.07,T*".utf8)) { events.append(describe($0)) }
        framer.finish { events.append(describe($0)) }
        framer.feed(Array((Self.gsv + "\n").utf8)) { events.append(describe($0)) }
        framer.finish { events.append(describe($0)) }
        #expect(
            events == [
                rejectionEvent(1, .malformedChecksum, "$GPHDT,274.07,T*"),
                sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
    }

    // MARK: Length limit

    @Test func overlongLineIsRejectedThenFramingResumesOnTheNextLine() {
        let long = "$GPTXT,01,01,02," + String(repeating: "A", count: 120)
        let transcript = frame(long + "\r\n" + Self.hdt + "\r\n", maximumLength: 82)
        #expect(
            transcript.events == [
                rejectionEvent(1, .overlong(limit: 82), String(long.prefix(82))),
                sentenceEvent(2, "$GPHDT,274.07,T", checksum: 0x03),
            ])
        #expect(transcript.statistics.overlong == 1)
        #expect(transcript.statistics.garbageBytes == 0)
    }

    @Test func overlongLineResumesAtTheNextDollar() {
        let long = "$GPTXT," + String(repeating: "B", count: 100)
        let transcript = frame(long + Self.gsv + "\n", maximumLength: 82)
        #expect(
            transcript.events == [
                rejectionEvent(1, .overlong(limit: 82), String(long.prefix(82))),
                sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
    }

    @Test func sentenceOfExactlyTheMaximumLengthIsAccepted() {
        let exact = withChecksum("$GPTXT,01,01,02,A")
        let longer = withChecksum("$GPTXT,01,01,02,AB")
        #expect(exact.utf8.count == 20)
        let checksum = nmeaChecksum("$GPTXT,01,01,02,A")
        #expect(
            frame(exact + "\n" + longer + "\n", maximumLength: 20).events == [
                sentenceEvent(1, "$GPTXT,01,01,02,A", checksum: checksum),
                rejectionEvent(2, .overlong(limit: 20), String(longer.prefix(20))),
            ])
        // Glued and without a final newline: the same verdicts.
        #expect(
            frame(exact + longer, maximumLength: 20).events == [
                sentenceEvent(1, "$GPTXT,01,01,02,A", checksum: checksum),
                rejectionEvent(1, .overlong(limit: 20), String(longer.prefix(20))),
            ])
        #expect(frame(exact, maximumLength: 20).statistics.sentences == 1)
        #expect(frame(longer, maximumLength: 20).statistics.overlong == 1)
    }

    @Test func nmeaLimitOf82Characters() {
        let body82 = "$GPTXT,01,01,02," + String(repeating: "x", count: 82 - 16 - 3)
        let line82 = withChecksum(body82)
        #expect(line82.utf8.count == 82)
        #expect(
            frame(line82 + "\r\n", maximumLength: 82).events == [
                sentenceEvent(1, body82, checksum: nmeaChecksum(body82))
            ])
        let line83 = withChecksum(body82 + "x")
        #expect(frame(line83 + "\r\n", maximumLength: 82).statistics.overlong == 1)
    }

    // MARK: Cut and glued sentences

    @Test func sentenceCutByAnotherDollar() {
        let transcript = frame("$GPGGA,123519,4807.0" + Self.gsv + "\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPGGA,123519,4807.0"),
                sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.truncated == 1)
        #expect(transcript.statistics.sentences == 1)
    }

    @Test func sentenceCutByAnExclamationMark() {
        let transcript = frame("$GPHDT,27!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPHDT,27"),
                sentenceEvent(1, "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0", checksum: 0x26),
            ])
    }

    @Test func gluedSentences() {
        let transcript = frame(Self.gga + Self.gga + Self.hdt + "\n")
        #expect(
            transcript.events == [
                sentenceEvent(1, Self.ggaBody, checksum: 0x47), sentenceEvent(1, Self.ggaBody, checksum: 0x47),
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03),
            ])
        #expect(transcript.statistics.truncated == 0)
    }

    @Test func checksumCutByTheNextSentence() {
        let transcript = frame("$GPHDT,274.07,T*0" + Self.gsv + "\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPHDT,274.07,T*0"), sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
    }

    @Test func binaryByteInsideASentence() {
        let input = Array("$GPHDT,274".utf8) + [0xC3, 0xA9] + Array((",T*03\n" + Self.gsv + "\n").utf8)
        let transcript = frame(input)
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPHDT,274"), sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.garbageBytes == 2 + 5)
    }

    // MARK: Checksums

    @Test func badChecksum() {
        let transcript = frame("$GPHDT,274.07,T*04\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .checksumMismatch(calculated: 0x03, found: 0x04), "$GPHDT,274.07,T*04")
            ])
        #expect(transcript.statistics.checksumMismatches == 1)
        #expect(transcript.statistics.sentences == 0)
    }

    @Test func lowerCaseChecksum() {
        #expect(
            frame("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6f\n").events == [
                sentenceEvent(1, "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84", checksum: 0x6F)
            ])
        #expect(
            frame("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F\n").events == [
                sentenceEvent(1, "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84", checksum: 0x6F)
            ])
    }

    @Test func malformedChecksums() {
        let transcript = frame("$GPHDT,274.07,T*0G\n$GPHDT,274.07,T*\n$GPHDT,27*4.07,T\n$GPHDT,274.07,T*003\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .malformedChecksum, "$GPHDT,274.07,T*0G"),
                rejectionEvent(2, .malformedChecksum, "$GPHDT,274.07,T*"),
                rejectionEvent(3, .malformedChecksum, "$GPHDT,27*4.07,T"),
                rejectionEvent(4, .malformedChecksum, "$GPHDT,274.07,T*003"),
            ])
        #expect(transcript.statistics.malformedChecksums == 4)
    }

    @Test func missingChecksumIsRejectedByDefault() {
        let transcript = frame("$GPHDT,274.07,T\r\n" + Self.gsv + "\r\n")
        #expect(
            transcript.events == [
                rejectionEvent(1, .missingChecksum, "$GPHDT,274.07,T"),
                sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.missingChecksums == 1)
        #expect(transcript.statistics.sentencesWithoutChecksum == 0)
    }

    @Test func missingChecksumIsAcceptedWhenOptional() {
        let transcript = frame("$GPHDT,274.07,T\r\n" + Self.gsv + "\r\n", checksumPolicy: .optional)
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T"), sentenceEvent(2, "$GPGSV,1,1,00", checksum: 0x79),
            ])
        #expect(transcript.statistics.sentences == 2)
        #expect(transcript.statistics.sentencesWithoutChecksum == 1)
        #expect(transcript.statistics.missingChecksums == 0)
    }

    /// Without a checksum, only a line ending proves that a sentence is whole.
    @Test func missingChecksumCutByAnotherSentenceIsTruncatedEvenWhenOptional() {
        let transcript = frame("$GPHDT,274.07,T" + Self.gsv + "\n", checksumPolicy: .optional)
        #expect(
            transcript.events == [
                rejectionEvent(1, .truncated, "$GPHDT,274.07,T"), sentenceEvent(1, "$GPGSV,1,1,00", checksum: 0x79),
            ])
    }

    @Test func badAddress() {
        let transcript = frame("$,1,2*03\n$*00\n")
        #expect(
            transcript.events == [rejectionEvent(1, .badAddress, "$,1,2*03"), rejectionEvent(2, .badAddress, "$*00")])
        #expect(transcript.statistics.badAddresses == 2)
    }

    // MARK: Statistics

    @Test func statisticsArithmetic() {
        var a = FramerStatistics()
        a.sentences = 1
        a.sentencesWithoutChecksum = 2
        a.checksumMismatches = 3
        a.missingChecksums = 4
        a.malformedChecksums = 5
        a.overlong = 6
        a.truncated = 7
        a.badAddresses = 8
        a.garbageBytes = 9
        a.binaryFrameBytes = 10
        a.commentLines = 11
        a.bytes = 12
        #expect(a.rejected == 3 + 4 + 5 + 6 + 7 + 8)
        let sum = a + a
        #expect(sum.sentences == 2)
        #expect(sum.sentencesWithoutChecksum == 4)
        #expect(sum.checksumMismatches == 6)
        #expect(sum.missingChecksums == 8)
        #expect(sum.malformedChecksums == 10)
        #expect(sum.overlong == 12)
        #expect(sum.truncated == 14)
        #expect(sum.badAddresses == 16)
        #expect(sum.garbageBytes == 18)
        #expect(sum.binaryFrameBytes == 20)
        #expect(sum.commentLines == 22)
        #expect(sum.bytes == 24)
        #expect(a + FramerStatistics() == a)
    }

    @Test func bytesAreCountedAsFed() {
        var framer = Framer()
        framer.feed([UInt8]()) { _ in }
        #expect(framer.statistics.bytes == 0)
        framer.feed(Array(Self.hdt.utf8)) { _ in }
        framer.feed(Array("\r\n".utf8)) { _ in }
        #expect(framer.statistics.bytes == Self.hdt.utf8.count + 2)
        #expect(framer.line == 2)
    }

    // MARK: API details

    @Test func nonContiguousSequencesAreFramedToo() {
        var framer = Framer()
        var events: [String] = []
        framer.feed((Self.hdt + "\n").utf8.lazy.map { $0 }) { events.append(describe($0)) }
        #expect(events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
    }

    @Test func errorsThrownByTheCallbackPropagate() {
        struct Stop: Error, Equatable {}
        var framer = Framer()
        var seen = 0
        #expect(throws: Stop()) {
            try framer.feed(Array((Self.hdt + "\n" + Self.gsv + "\n").utf8)) { (_: FramerEvent) throws(Stop) in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
    }

    @Test func sentenceViewsDecode() throws {
        var framer = Framer()
        var headings: [FixedPoint?] = []
        var failures: [NMEAError] = []
        framer.feed(
            Array(
                (Self.hdt + "\n$GPHDT,x,T*" + Hex.string(UInt64(nmeaChecksum("$GPHDT,x,T")), minimumDigits: 2) + "\n")
                    .utf8)
        ) { event in
            guard case .sentence(let sentence) = event else { return }
            do throws(NMEAError) {
                headings.append(try HDT(sentence).headingDegrees)
            } catch {
                failures.append(error)
            }
        }
        #expect(headings == [fp(27407, 2)])
        #expect(failures == [.badField(index: 1, reason: .notANumber)])
    }
}

// MARK: Chunking

/// The framer's central promise: however the input is cut into chunks, the events and the counters are the same.
@Suite struct FramerChunkingTests {
    static let maximumLength = 100

    /// An input that goes through every state of the framer: comments, garbage, `$$`, NULs, UBX frames (one with `$`
    /// and `\n` in its payload), `\r\n`, `\r\r\n` and lone `\r` line endings, an overlong line, a truncated sentence,
    /// glued sentences, every kind of checksum error, a bad address, an encapsulated `!` sentence, a lower-case
    /// checksum, a fake UBX header, and a last sentence with no final newline.
    static let mixed: [UInt8] = {
        var input: [UInt8] = []
        func add(_ text: String) { input += Array(text.utf8) }
        add("# recorded by nmea-cli\r\n")  // line 1
        add("xx junk " + FramerTests.gga + "\r\n")  // line 2
        add("$$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n")  // line 3
        input += [0, 0] + mixedFrames[0]  // line 4
        add(FramerTests.gsv + "\r\r\n")
        input += mixedFrames[1]  // line 5
        add(FramerTests.hdt + "\r")
        add("$GPGLL,4916.45,N,12311.12,W,225444,A,*1D\r\n")
        add("$GPTXT,01,01,02," + String(repeating: "A", count: 120) + "\r\n")  // line 6
        add("$GPGGA,1235" + FramerTests.gsv + "\n")  // line 7
        add(FramerTests.hdt + FramerTests.gsv + "\n")  // line 8
        add("$GPHDT,274.07,T*04\n")  // line 9
        add("$GPHDT,274.07,T\n")  // line 10
        add("$GPHDT,274.07,T*0G\n")  // line 11
        add("$,1,2*03\n")  // line 12
        add("!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0*5C\r\n")  // line 13
        add("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6f\n")  // line 14
        add("# comment with $GPGGA,1*00 inside\n")  // line 15
        input += [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF, 0xB5, UInt8(ascii: "x")]  // line 16
        add("\n  #not a comment\n")  // line 17
        add("$GPZDA,201530.00,04,07,2002,00,00*60")  // line 18, no newline
        return input
    }()

    /// The two UBX frames of ``mixed``.
    static let mixedFrames = [
        ubxFrame(class: 0x01, id: 0x07, payload: Array(0..<8)),
        ubxFrame(class: 0x0A, id: 0x04, payload: Array("$\n$GP\n".utf8)),
    ]

    static let mixedEvents = [
        sentenceEvent(2, FramerTests.ggaBody, checksum: 0x47),
        sentenceEvent(3, "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", checksum: 0x6A),
        binaryFrameEvent(4, .ubx, mixedFrames[0]),
        sentenceEvent(4, "$GPGSV,1,1,00", checksum: 0x79),
        binaryFrameEvent(5, .ubx, mixedFrames[1]),
        sentenceEvent(5, "$GPHDT,274.07,T", checksum: 0x03),
        sentenceEvent(5, "$GPGLL,4916.45,N,12311.12,W,225444,A,", checksum: 0x1D),
        rejectionEvent(6, .overlong(limit: 100), "$GPTXT,01,01,02," + String(repeating: "A", count: 84)),
        rejectionEvent(7, .truncated, "$GPGGA,1235"),
        sentenceEvent(7, "$GPGSV,1,1,00", checksum: 0x79),
        sentenceEvent(8, "$GPHDT,274.07,T", checksum: 0x03),
        sentenceEvent(8, "$GPGSV,1,1,00", checksum: 0x79),
        rejectionEvent(9, .checksumMismatch(calculated: 0x03, found: 0x04), "$GPHDT,274.07,T*04"),
        rejectionEvent(10, .missingChecksum, "$GPHDT,274.07,T"),
        rejectionEvent(11, .malformedChecksum, "$GPHDT,274.07,T*0G"),
        rejectionEvent(12, .badAddress, "$,1,2*03"),
        sentenceEvent(13, "!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0", checksum: 0x5C),
        sentenceEvent(14, "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84", checksum: 0x6F),
        sentenceEvent(18, "$GPZDA,201530.00,04,07,2002,00,00", checksum: 0x60),
    ]

    static var mixedStatistics: FramerStatistics {
        var statistics = FramerStatistics()
        statistics.sentences = 11
        statistics.checksumMismatches = 1
        statistics.missingChecksums = 1
        statistics.malformedChecksums = 1
        statistics.overlong = 1
        statistics.truncated = 1
        statistics.badAddresses = 1
        // "xx junk ", the first of "$$", two NULs, the fake UBX header, B5 and "x", "  #not a comment".
        statistics.garbageBytes = 8 + 1 + 2 + 6 + 2 + 16
        statistics.binaryFrameBytes = 16 + 14
        statistics.ubxFrames = 2
        statistics.damagedBinaryFrames = 1  // the fake UBX header, whose length (65535) no frame has
        statistics.commentLines = 2
        statistics.bytes = mixed.count
        return statistics
    }

    @Test func mixedInputAllAtOnce() {
        let transcript = frame(Self.mixed, maximumLength: Self.maximumLength)
        #expect(transcript.events == Self.mixedEvents)
        #expect(transcript.statistics == Self.mixedStatistics)
        #expect(transcript.statistics.rejected == 6)
    }

    @Test func mixedInputWithOptionalChecksums() {
        let transcript = frame(Self.mixed, maximumLength: Self.maximumLength, checksumPolicy: .optional)
        var events = Self.mixedEvents
        events[13] = sentenceEvent(10, "$GPHDT,274.07,T")
        #expect(transcript.events == events)
        var statistics = Self.mixedStatistics
        statistics.missingChecksums = 0
        statistics.sentences = 12
        statistics.sentencesWithoutChecksum = 1
        #expect(transcript.statistics == statistics)
    }

    @Test func mixedInputByteByByte() {
        let transcript = frame(
            Self.mixed, chunks: Array(repeating: 1, count: Self.mixed.count), maximumLength: Self.maximumLength)
        #expect(transcript == frame(Self.mixed, maximumLength: Self.maximumLength))
        #expect(transcript.events == Self.mixedEvents)
        #expect(transcript.statistics == Self.mixedStatistics)
    }

    /// Every single split point: two chunks.
    @Test func mixedInputSplitInTwoEverywhere() {
        let reference = frame(Self.mixed, maximumLength: Self.maximumLength)
        for split in 0...Self.mixed.count {
            let transcript = frame(
                Self.mixed, chunks: [split, Self.mixed.count - split], maximumLength: Self.maximumLength)
            #expect(transcript == reference, "split at \(split)")
            if transcript != reference { break }
        }
    }

    /// Chunk sizes: tiny, around the 8-byte words of the scanner, around the length limit, and anything.
    static let chunkSizes: [ClosedRange<Int>] = [
        0...3, 1...16, 7...9, 8...8, 15...17, 98...103, 100...100, 101...101, 1...250, 0...1000,
    ]

    @Test(arguments: chunkSizes)
    func mixedInputInRandomChunks(sizes: ClosedRange<Int>) {
        let reference = frame(Self.mixed, maximumLength: Self.maximumLength)
        for seed in 0..<100 as Range<UInt64> {
            var generator = SplitMix64(seed: seed &* 0x1000 &+ UInt64(sizes.lowerBound))
            let chunks = randomChunks(count: Self.mixed.count, sizes: sizes, generator: &generator)
            let transcript = frame(Self.mixed, chunks: chunks, maximumLength: Self.maximumLength)
            #expect(transcript == reference, "seed \(seed), chunks \(chunks)")
            if transcript != reference { break }
        }
    }

    /// The same input under other length limits, so that different sentences cross the limit, and chunks of
    /// random sizes drawn anew for each chunk.
    @Test(arguments: [8, 9, 16, 17, 20, 64, 82, 1024])
    func otherLengthLimitsInRandomChunks(maximumLength: Int) {
        let reference = frame(Self.mixed, maximumLength: maximumLength)
        #expect(
            frame(Self.mixed, chunks: Array(repeating: 1, count: Self.mixed.count), maximumLength: maximumLength)
                == reference)
        for seed in 0..<60 as Range<UInt64> {
            var generator = SplitMix64(seed: seed &+ UInt64(maximumLength) << 32)
            var chunks: [Int] = []
            var remaining = Self.mixed.count
            while remaining > 0 {
                let ranges = [0...2, 6...10, maximumLength - 2...maximumLength + 2, 1...3 * maximumLength]
                let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
                let size = min(Int.random(in: range, using: &generator), remaining)
                chunks.append(size)
                remaining -= size
            }
            let transcript = frame(Self.mixed, chunks: chunks, maximumLength: maximumLength)
            #expect(transcript == reference, "maximumLength \(maximumLength), seed \(seed), chunks \(chunks)")
            if transcript != reference { break }
        }
        // Every byte is accounted for: as a sentence, a rejection, garbage, a UBX frame, a comment or a line ending.
        #expect(reference.statistics.bytes == Self.mixed.count)
    }

    @Test func optionalPolicyInRandomChunks() {
        let reference = frame(Self.mixed, maximumLength: Self.maximumLength, checksumPolicy: .optional)
        for seed in 0..<100 as Range<UInt64> {
            var generator = SplitMix64(seed: seed &+ 0xABCD)
            let chunks = randomChunks(count: Self.mixed.count, sizes: 1...40, generator: &generator)
            let transcript = frame(
                Self.mixed, chunks: chunks, maximumLength: Self.maximumLength, checksumPolicy: .optional)
            #expect(transcript == reference, "seed \(seed), chunks \(chunks)")
            if transcript != reference { break }
        }
    }

    /// Random inputs built from sentence fragments and noise, compared across chunkings. These find the corner
    /// cases nobody thought to write down.
    @Test func randomInputsInRandomChunks() {
        let pieces: [[UInt8]] = [
            Array(FramerTests.gga.utf8), Array(FramerTests.hdt.utf8), Array(FramerTests.gsv.utf8),
            Array("$GPHDT,274.07,T*04".utf8), Array("$GPHDT,274".utf8), Array("*".utf8), Array("*0".utf8),
            Array("$".utf8), Array("!".utf8), Array("#".utf8), Array("\r".utf8), Array("\n".utf8),
            Array("\r\n".utf8), [0], [0xB5], [0xB5, 0x62], [0xFF], Array("abc,".utf8), Array("0G".utf8),
            ubxFrame(class: 0x01, id: 0x07, payload: Array("$GP\n#".utf8)), [0xB5, 0x62, 0x01, 0x07, 0x03],
            Array(String(repeating: "x", count: 40).utf8),
        ]
        for seed in 0..<300 as Range<UInt64> {
            var generator = SplitMix64(seed: seed &+ 0x5EED)
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                input += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let maximumLength = [8, 12, 30, 82][Int.random(in: 0..<4, using: &generator)]
            let policy: Framer.ChecksumPolicy = Bool.random(using: &generator) ? .required : .optional
            let reference = frame(input, maximumLength: maximumLength, checksumPolicy: policy)
            let byteByByte = frame(
                input, chunks: Array(repeating: 1, count: input.count), maximumLength: maximumLength,
                checksumPolicy: policy)
            let chunks = randomChunks(count: input.count, sizes: 0...maximumLength + 3, generator: &generator)
            let chunked = frame(input, chunks: chunks, maximumLength: maximumLength, checksumPolicy: policy)
            #expect(byteByByte == reference, "seed \(seed), byte by byte")
            #expect(chunked == reference, "seed \(seed), chunks \(chunks)")
            #expect(reference.statistics.bytes == input.count)
            if byteByByte != reference || chunked != reference { break }
        }
    }
}

/// The SWAR scanner against a byte-at-a-time reference, at every alignment.
@Suite struct ByteScanTests {
    static func referenceScan(_ bytes: [UInt8], from start: Int, to limit: Int) -> (stop: Int, xor: UInt8) {
        var xor: UInt8 = 0
        var index = start
        while index < limit {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") { break }
            xor ^= byte
            index += 1
        }
        return (index, xor)
    }

    @Test func stopBytes() {
        for byte in 0...255 {
            let expected = byte < 0x20 || byte >= 0x80 || byte == 0x24 || byte == 0x21
            #expect(ByteScan.isStop(UInt8(byte)) == expected, "byte \(byte)")
        }
    }

    @Test func matchesTheReferenceAtEveryOffset() {
        var generator = SplitMix64(seed: 42)
        let alphabet: [UInt8] =
            Array("GPRMC,0123456789.*AZaz ~".utf8) + [0x24, 0x21, 0x0D, 0x0A, 0x00, 0x1F, 0x7F, 0x80, 0xB5, 0xFF, 0x20]
        for round in 0..<300 {
            // Mostly sentence characters, with a stop byte now and then.
            let count = Int.random(in: 0...48, using: &generator)
            let bytes: [UInt8] = (0..<count).map { _ in
                Int.random(in: 0..<8, using: &generator) == 0
                    ? alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                    : UInt8.random(in: 0x22...0x7E, using: &generator)
            }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for start in 0...count {
                    for limit in start...count {
                        let (stop, xor) = ByteScan.scan(from: base + start, to: base + limit)
                        let expected = Self.referenceScan(bytes, from: start, to: limit)
                        #expect(
                            stop - base == expected.stop && xor == expected.xor, "round \(round) \(start)..<\(limit)")
                    }
                }
            }
        }
    }

    @Test func everyStopByteAtEveryPositionOfAWord() {
        for stopByte: UInt8 in [0x00, 0x0A, 0x0D, 0x1F, 0x21, 0x24, 0x80, 0xB5, 0xFF] {
            for position in 0..<24 {
                var bytes = Array(repeating: UInt8(ascii: "A"), count: 24)
                bytes[position] = stopByte
                // Bytes just above and below the thresholds next to the stop, to catch borrow mistakes.
                if position + 1 < 24 { bytes[position + 1] = 0x20 }
                bytes.withUnsafeBufferPointer { buffer in
                    let base = buffer.baseAddress!
                    let (stop, xor) = ByteScan.scan(from: base, to: base + 24)
                    #expect(stop - base == position)
                    #expect(xor == (position % 2 == 0 ? 0 : UInt8(ascii: "A")))
                }
            }
        }
    }
}
