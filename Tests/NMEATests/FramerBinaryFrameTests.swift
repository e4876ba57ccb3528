import Simulation
import Testing

@testable import NMEA

/// CRC-24Q as RTCM 10403 defines it, by polynomial division a bit at a time over a bit array (unlike the framer's
/// shift register), checked against the catalogued value for `123456789` in the tests.
func crc24q(_ bytes: [UInt8]) -> UInt32 {
    let polynomial: [UInt8] = (0...24).map { UInt8((0x186_4CFB >> (24 - $0)) & 1) }
    var bits = bytes.flatMap { byte in (0..<8).map { UInt8((byte >> (7 - $0)) & 1) } } + Array(repeating: 0, count: 24)
    for index in 0..<(bits.count - 24) where bits[index] == 1 {
        for offset in 0...24 { bits[index + offset] ^= polynomial[offset] }
    }
    return bits.suffix(24).reduce(0) { $0 << 1 | UInt32($1) }
}

/// An RTCM 3 frame: `D3`, six zero bits and the 10-bit length, the payload, the CRC-24Q (big-endian).
func rtcmFrame(payload: [UInt8]) -> [UInt8] {
    let body = [0xD3, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    let crc = crc24q(body)
    return body + [UInt8(crc >> 16), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
}

/// Issue 12, item 5: a binary frame is skipped only when its checksum verifies; noise that starts like one costs its
/// sync bytes and no sentence.
@Suite struct FramerBinaryFrameTests {
    static let hdt = "$GPHDT,274.07,T*03"
    static let gsv = "$GPGSV,1,1,00*79"
    /// Forty sentences, about 700 bytes.
    static let sentences: [UInt8] = Array(
        (0..<20).map { _ in hdt + "\r\n" + gsv + "\r\n" }.joined().utf8)
    static let expectedEvents: [String] = (0..<20).flatMap { index in
        [
            sentenceEvent(index * 2 + 1, "$GPHDT,274.07,T", checksum: 0x03),
            sentenceEvent(index * 2 + 2, "$GPGSV,1,1,00", checksum: 0x79),
        ]
    }

    /// Frames `input` whole, byte by byte, split at every point near `interesting`, and in random chunks: always the
    /// same transcript, which is returned.
    static func framedEveryWay(_ input: [UInt8], seed: UInt64 = 1) -> FramerTranscript {
        let whole = frame(input)
        #expect(frame(input, chunks: Array(repeating: 1, count: input.count)) == whole, "byte by byte")
        for split in stride(from: 0, through: input.count, by: max(1, input.count / 97)) {
            #expect(frame(input, chunks: [split, input.count - split]) == whole, "split at \(split)")
        }
        var generator = SplitMix64(seed: seed)
        for _ in 0..<20 {
            let chunks = randomChunks(count: input.count, sizes: 0...300, generator: &generator)
            #expect(frame(input, chunks: chunks) == whole, "chunks \(chunks)")
        }
        return whole
    }

    @Test func theTestsCRCIsCRC24Q() {
        #expect(crc24q(Array("123456789".utf8)) == 0xCD_E703)
    }

    /// `B5 62` and a length of 3,840 followed by noise: before, the framer skipped 3,848 bytes by the length alone and
    /// lost every sentence in them.
    @Test func noiseAfterB562LosesNoSentence() {
        let input: [UInt8] =
            [0xB5, 0x62, 0x01, 0x07, 0x00, 0x0F] + Self.sentences + Array(repeating: 0x55, count: 3200)
        let transcript = Self.framedEveryWay(input)
        #expect(transcript.events == Self.expectedEvents)
        #expect(transcript.statistics.damagedBinaryFrames == 1)
        #expect(transcript.statistics.binaryFrameBytes == 0)
        // B5 62, the four header bytes (01 07 00 0F) and the 3,200 bytes of noise.
        #expect(transcript.statistics.garbageBytes == 2 + 4 + 3200)
    }

    /// A real frame with one payload bit flipped: its bytes are framed as any others, and a sentence in its payload
    /// is found (it may as well be one the frame's corruption ran into).
    @Test func aFrameWithAFailedChecksumIsFramedAgain() {
        var damaged = ubxFrame(class: 0x01, id: 0x07, payload: Array(("\n" + Self.gsv + "\n").utf8))
        damaged[damaged.count - 1] ^= 0x10  // ck_b
        let input = Array((Self.hdt + "\n").utf8) + damaged + Array((Self.hdt + "\n").utf8)
        let transcript = Self.framedEveryWay(input)
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), sentenceEvent(3, "$GPGSV,1,1,00", checksum: 0x79),
                sentenceEvent(4, "$GPHDT,274.07,T", checksum: 0x03),
            ])
        #expect(transcript.statistics.damagedBinaryFrames == 1)
        #expect(transcript.statistics.binaryFrameBytes == 0)
    }

    /// Noise after `B5 62` that holds a genuine frame: the genuine one is still skipped whole.
    @Test func aGenuineFrameInsideNoiseIsStillSkipped() {
        let genuine = ubxFrame(class: 0x0A, id: 0x04, payload: Array("\n$GPGGA,1*00\n".utf8))
        let input: [UInt8] =
            [0xB5, 0x62, 0x02, 0x15, 0xFF, 0x0F] + Array("xyz".utf8) + genuine + Self.sentences
            + Array(repeating: UInt8(ascii: "-"), count: 4096)
        let transcript = Self.framedEveryWay(input)
        // The genuine frame is handed out whole however the input was cut (its bytes' digest is in the event).
        #expect(transcript.events == [binaryFrameEvent(1, .ubx, genuine)] + Self.expectedEvents)
        #expect(transcript.statistics.binaryFrameBytes == genuine.count)
        #expect(transcript.statistics.damagedBinaryFrames == 1)
    }

    /// A frame cut off by the end of the input hides nothing either: its length (3,840) runs past the end.
    @Test func aFrameCutOffByTheEndHidesNothing() {
        let input: [UInt8] = Array((Self.hdt + "\n").utf8) + [0xB5, 0x62, 0x01, 0x07, 0x00, 0x0F] + Self.sentences
        let transcript = Self.framedEveryWay(input)
        let later: [String] = (0..<20).flatMap { index in
            [
                sentenceEvent(index * 2 + 2, "$GPHDT,274.07,T", checksum: 0x03),
                sentenceEvent(index * 2 + 3, "$GPGSV,1,1,00", checksum: 0x79),
            ]
        }
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)] + later)
        #expect(transcript.statistics.damagedBinaryFrames == 1)
        #expect(transcript.statistics.garbageBytes == 6)
    }

    /// RTCM 3 frames (corrections that share a link with the receiver's NMEA) are skipped when their CRC verifies,
    /// and framed again when it fails.
    @Test func rtcmFramesAreSkippedOnlyWhenTheirCRCVerifies() {
        let payload = Array("\n$GPGSV,1,1,00*79\n#x".utf8) + (0..<40).map { UInt8($0 * 7 & 0xFF) }
        let genuine = rtcmFrame(payload: payload)
        var damaged = genuine
        damaged[damaged.count - 2] ^= 0x01
        let input =
            Array((Self.hdt + "\n").utf8) + genuine + Array((Self.hdt + "\n").utf8) + damaged
            + Array((Self.hdt + "\n").utf8)
        let transcript = Self.framedEveryWay(input)
        #expect(
            transcript.events == [
                sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03), binaryFrameEvent(2, .rtcm3, genuine),
                sentenceEvent(2, "$GPHDT,274.07,T", checksum: 0x03),
                sentenceEvent(4, "$GPGSV,1,1,00", checksum: 0x79),
                sentenceEvent(6, "$GPHDT,274.07,T", checksum: 0x03),
            ])
        #expect(transcript.statistics.binaryFrameBytes == genuine.count)
        #expect(transcript.statistics.rtcm3Frames == 1)
        #expect(transcript.statistics.damagedBinaryFrames == 1)
    }

    /// `D3` followed by a byte with any of the six reserved bits set is no RTCM frame: a garbage byte, as before.
    @Test func d3WithReservedBitsIsGarbage() {
        let input: [UInt8] = [0xD3, 0x04, 0x00] + Array((Self.hdt + "\n").utf8)
        let transcript = frame(input)
        #expect(transcript.events == [sentenceEvent(1, "$GPHDT,274.07,T", checksum: 0x03)])
        #expect(transcript.statistics.garbageBytes == 3)
        #expect(transcript.statistics.damagedBinaryFrames == 0)
    }

    /// Random mixtures of sentences, genuine and damaged frames of both kinds and noise: every chunking agrees, and
    /// every sentence outside a genuine frame is found.
    @Test func randomMixturesInEveryChunking() {
        let genuineUBX = ubxFrame(class: 0x01, id: 0x07, payload: Array("$GP\n#".utf8) + Array(0..<30))
        let genuineRTCM = rtcmFrame(payload: Array("$GPHDT\r\n".utf8) + Array(200..<230))
        var brokenUBX = genuineUBX
        brokenUBX[9] ^= 0x40
        var brokenRTCM = genuineRTCM
        brokenRTCM[5] ^= 0x02
        let noise: [[UInt8]] = [
            [0xB5], [0xB5, 0x62], [0xB5, 0x62, 0x01, 0x07, 0x40, 0x00], [0xD3], [0xD3, 0x00], [0xD3, 0x01, 0x10],
            [0xFF, 0x00], Array("zz".utf8),
        ]
        for seed in 0..<150 as Range<UInt64> {
            var generator = SplitMix64(seed: seed &+ 0xB1_7A5E)
            var input: [UInt8] = []
            var sentences = 0
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                switch Int.random(in: 0..<6, using: &generator) {
                case 0:
                    input += Array((Self.hdt + "\r\n").utf8)
                    sentences += 1
                case 1: input += genuineUBX
                case 2: input += genuineRTCM
                case 3: input += Bool.random(using: &generator) ? brokenUBX : brokenRTCM
                default: input += noise[Int.random(in: 0..<noise.count, using: &generator)]
                }
            }
            let whole = frame(input)
            let byteByByte = frame(input, chunks: Array(repeating: 1, count: input.count))
            let chunks = randomChunks(count: input.count, sizes: 0...64, generator: &generator)
            #expect(byteByByte == whole, "seed \(seed), byte by byte")
            #expect(frame(input, chunks: chunks) == whole, "seed \(seed), chunks \(chunks)")
            #expect(whole.statistics.bytes == input.count)
            // Every HDT line written is found: no noise before one hides it.
            #expect(whole.events.filter { $0.hasSuffix("$GPHDT,274.07,T*03") }.count == sentences, "seed \(seed)")
            if byteByByte != whole { break }
        }
    }
}
