import Foundation
import TestSupport
import Testing

@testable import NMEA

/// Issue 12, item 14: logs we used to read as empty. UTF-16 with a byte-order mark is transcoded in the FixReader's
/// input stage; Android GnssLogger lines (`NMEA,$GPGGA,…*63,1699400577561`) are sentences with a receive time.
@Suite struct InputEncodingTests {
    /// `text` as UTF-16 with its byte-order mark.
    static func utf16(_ text: [UInt8], bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for byte in text { bytes += bigEndian ? [0, byte] : [byte, 0] }
        return bytes
    }

    /// The fixes, counters and handler events of reading `bytes` in the chunks `chunk` gives.
    static func read(_ bytes: [UInt8], chunk: (Int) -> Int) -> (FixReaderTests.Outcome, InputEncoding?) {
        var reader = FixReader()
        var recorder = FixReaderTests.Recorder()
        var outcome = FixReaderTests.Outcome()
        var offset = 0
        while offset < bytes.count {
            let size = chunk(offset)
            let end = size == 0 ? bytes.count : min(offset + size, bytes.count)
            reader.read(bytes[offset..<end], handler: &recorder) { outcome.fixes.append($0) }
            offset = end
        }
        let encoding = reader.inputEncoding
        reader.finish(handler: &recorder) { outcome.fixes.append($0) }
        #expect(reader.inputEncoding == encoding)
        outcome.statistics = reader.statistics
        outcome.events = recorder.events
        return (outcome, encoding)
    }

    /// A UTF-16 log (either byte order) gives the fixes and sentences of the same log in ASCII, in any chunking:
    /// all at once, byte by byte (the mark and every code unit split), odd and even pieces.
    @Test(arguments: [false, true])
    func utf16LogReadsAsItsASCII(bigEndian: Bool) throws {
        let ascii = try FixReaderTests.sample("drive.nmea")
        let (expected, asciiEncoding) = Self.read(ascii) { _ in 4096 }
        #expect(asciiEncoding == .ascii)
        #expect(expected.fixes.count > 500)
        let bytes = Self.utf16(ascii, bigEndian: bigEndian)
        let chunkings: [(Int) -> Int] = [{ _ in 0 }, { _ in 4097 }, { offset in offset < 64 ? 1 : 4096 }, { _ in 333 }]
        for chunking in chunkings {
            let (outcome, encoding) = Self.read(bytes, chunk: chunking)
            #expect(encoding == (bigEndian ? .utf16BigEndian : .utf16LittleEndian))
            #expect(outcome.fixes == expected.fixes)
            #expect(outcome.events == expected.events)
            #expect(outcome.statistics.decoder == expected.statistics.decoder)
            #expect(outcome.statistics.framer.sentences == expected.statistics.framer.sentences)
            #expect(outcome.statistics.framer.garbageBytes == 0)
            // The framer counts the transcoded bytes: one per code unit.
            #expect(outcome.statistics.framer.bytes == ascii.count)
        }
    }

    /// A character beyond ASCII cuts its sentence short, as a non-ASCII byte does in UTF-8; a lone `FF` or `FE` is
    /// just a byte; each input's first bytes tell its encoding afresh.
    @Test func nonASCIIAndShortInputs() {
        let line = Array(withChecksum("$GPTXT,01,01,02,ANTSTATUS=OK").utf8) + [0x0A]
        var text = Self.utf16(line, bigEndian: false)
        text.insert(contentsOf: [0xE9, 0x00], at: 2 + 2 * 20)  // é inside the text field
        let (outcome, _) = Self.read(text) { _ in 0 }
        #expect(outcome.statistics.framer.sentences == 0 && outcome.statistics.framer.truncated == 1)

        var reader = FixReader()
        reader.read([0xFF]) { _ in }
        #expect(reader.inputEncoding == nil)
        reader.finish { _ in }
        #expect(reader.inputEncoding == .ascii && reader.statistics.framer.garbageBytes == 1)
        reader.read(Self.utf16(line, bigEndian: true)) { _ in }
        reader.finish { _ in }
        #expect(reader.inputEncoding == .utf16BigEndian && reader.statistics.framer.sentences == 1)
        reader.read(line) { _ in }
        reader.finish { _ in }
        #expect(reader.inputEncoding == .ascii && reader.statistics.framer.sentences == 2)
    }

    /// An Android GnssLogger line is a sentence; its Unix-millisecond time is the sentence's receive time, in the
    /// handler's context. Its checksum is checked as any other.
    @Test func androidLinesCarryTheirReceiveTime() throws {
        let gga = withChecksum("$GPGGA,234257.00,3725.590397,N,12210.422534,W,1,24,0.4,51.9,M,-28.4,M,,")
        let rmc = withChecksum("$GPRMC,234257.00,A,3725.590397,N,12210.422534,W,000.0,,071123,,,A")
        let text = [
            "# Header Description:", "Fix,GPS,37.426,-122.173,51.9,0.0,3.8,,1699400577000",
            "NMEA,\(gga),1699400577561", "NMEA,\(rmc),1699400577566",
            "NMEA,\(corruptingChecksum(rmc).line),1699400578000",
        ].joined(separator: "\n")

        struct Times: FixReader.Handler {
            var received: [Int64?] = []
            mutating func sentence<S: DecodableSentence>(
                _ sentence: Sentence, decoded: S, _ context: FixReader.Context
            ) {
                received.append(context.receivedMilliseconds)
                #expect(sentence.receivedMilliseconds == context.receivedMilliseconds)
            }
        }
        var times = Times()
        var reader = FixReader()
        var fixes: [Fix] = []
        reader.read(Array(text.utf8), handler: &times) { fixes.append($0) }
        reader.finish(handler: &times) { fixes.append($0) }
        #expect(times.received == [1_699_400_577_561, 1_699_400_577_566])
        #expect(reader.statistics.framer.sentences == 2 && reader.statistics.framer.sentencesWithReceiveTime == 2)
        #expect(reader.statistics.framer.checksumMismatches == 1)
        #expect(reader.statistics.decoder.failed == 0 && reader.statistics.decoder.withFieldErrors == 0)
        // The same fix as from the plain sentences.
        var plain = FixReader()
        var expected: [Fix] = []
        plain.read(Array((gga + "\n" + rmc + "\n").utf8)) { expected.append($0) }
        plain.finish { expected.append($0) }
        #expect(fixes == expected && fixes.count == 1)
    }

    /// The corpus's Pixel 6 log: every `NMEA,` line is a sentence with its receive time (it was "malformed checksum").
    @Test(.enabled(if: Locations.corpus != nil, "corpus not found"))
    func pixel6Log() throws {
        let url = URL(fileURLWithPath: Locations.corpus! + "/gnss_lib_py/pixel6.nmea")
        let bytes = [UInt8](try Data(contentsOf: url))
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).filter {
            $0.hasPrefix("NMEA,$")
        }
        var reader = FixReader()
        var fixes = 0
        reader.read(bytes) { _ in fixes += 1 }
        reader.finish { _ in fixes += 1 }
        #expect(lines.count == 96)
        #expect(reader.statistics.framer.sentences == 96 && reader.statistics.framer.sentencesWithReceiveTime == 96)
        #expect(reader.statistics.framer.rejected == 0)
        #expect(fixes == 48)
    }
}
