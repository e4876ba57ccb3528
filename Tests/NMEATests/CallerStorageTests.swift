import Simulation
import Testing

@testable import NMEA

/// Issue 27: a framer (and a ``FixReader``) in memory the caller provides, for firmware without a heap. It frames
/// exactly what a framer with its own buffers frames; a binary frame longer than the room left for one is noise.
@Suite struct CallerStorageTests {
    static let hdt = "$GPHDT,274.07,T*03\r\n"
    static let gsv = "$GPGSV,1,1,00*79\r\n"
    static let sentences = Array(((0..<10).map { _ in hdt + gsv }).joined().utf8)
    /// Sentences around a 48-byte and a 108-byte UBX frame, a 56-byte RTCM 3 frame, noise that starts like a UBX
    /// frame, and a line longer than 82 characters.
    static let input: [UInt8] =
        sentences + ubxFrame(class: 0x01, id: 0x07, payload: Array(repeating: 0x11, count: 40)) + sentences
        + ubxFrame(class: 0x01, id: 0x35, payload: Array(repeating: 0x22, count: 100)) + sentences
        + rtcmFrame(payload: Array(repeating: 0x33, count: 50)) + [0xB5, 0x62, 0x01] + sentences
        + Array(("$GPTXT," + String(repeating: "X", count: 90) + "*00\r\n").utf8) + sentences

    /// Frames `input` whole, byte by byte and in random chunks; the transcript must be the same every way.
    static func framedEveryWay(maximumLength: Int, storageBytes: Int?) -> FramerTranscript {
        let whole = frame(input, chunks: [input.count], maximumLength: maximumLength, storageBytes: storageBytes)
        let bytewise = frame(
            input, chunks: Array(repeating: 1, count: input.count), maximumLength: maximumLength,
            storageBytes: storageBytes)
        #expect(bytewise == whole, "byte by byte")
        var generator = SplitMix64(seed: 27)
        for _ in 0..<20 {
            let chunks = randomChunks(count: input.count, sizes: 0...120, generator: &generator)
            let transcript = frame(input, chunks: chunks, maximumLength: maximumLength, storageBytes: storageBytes)
            #expect(transcript == whole, "chunks \(chunks)")
        }
        return whole
    }

    @Test("a framer in the caller's storage frames what a framer with its own buffers frames")
    func sameAsOwnBuffers() {
        for maximumLength in [82, 1024] {
            let own = Self.framedEveryWay(maximumLength: maximumLength, storageBytes: nil)
            let room = Framer.storageSize(maximumLength: maximumLength)
            #expect(room == maximumLength + 2 + 4104)
            let caller = Self.framedEveryWay(maximumLength: maximumLength, storageBytes: room)
            #expect(caller == own)
            #expect(own.events.filter { $0.contains(" ubx ") }.count == 2)
            #expect(own.events.filter { $0.contains(" rtcm3 ") }.count == 1)
        }
    }

    @Test("a binary frame longer than the room left for one is noise; no sentence around it is lost")
    func framesLongerThanTheRoomAreNoise() {
        let room = Framer.storageSize(maximumLength: 82, binaryFrames: 64)
        #expect(room == 82 + 2 + 64)
        let small = Self.framedEveryWay(maximumLength: 82, storageBytes: room)
        let own = Self.framedEveryWay(maximumLength: 82, storageBytes: nil)
        // The 48- and 56-byte frames are handed out as before; the 108-byte one is not a frame here.
        #expect(small.events.filter { $0.contains(" ubx 48 bytes") }.count == 1)
        #expect(small.events.filter { $0.contains(" rtcm3 56 bytes") }.count == 1)
        #expect(!small.events.contains { $0.contains(" ubx 108 bytes") })
        #expect(own.events.contains { $0.contains(" ubx 108 bytes") })
        // Every sentence (and the overlong line's rejection) is there, in order.
        #expect(small.events.filter { !$0.contains(" bytes, ") } == own.events.filter { !$0.contains(" bytes, ") })
        #expect(small.statistics.sentences == own.statistics.sentences)
        #expect(small.statistics.ubxFrames == own.statistics.ubxFrames - 1)
        // Its 108 bytes are garbage now (2 sync bytes, then the rest skipped between sentences).
        #expect(small.statistics.garbageBytes == own.statistics.garbageBytes + 108)
    }

    @Test("the least storage: a sentence and a frame header; UBX and RTCM frames are then noise")
    func leastStorage() {
        let room = Framer.storageSize(maximumLength: 82, binaryFrames: 0)
        #expect(room == 82 + 2 + 8)
        let least = Self.framedEveryWay(maximumLength: 82, storageBytes: room)
        #expect(!least.events.contains { $0.contains(" ubx ") || $0.contains(" rtcm3 ") })
        #expect(least.statistics.sentences == 100)
    }
}
