import NMEA
import Pipeline
import System
import TestSupport
import Testing

/// `\c:<ms>*hh\` before `sentence` (a sentence with its CR LF).
func tagged(_ sentence: String, receivedAt milliseconds: Int64) -> String {
    let body = "c:\(milliseconds)"
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let digits = Array("0123456789ABCDEF")
    return "\\\(body)*\(digits[Int(checksum >> 4)])\(digits[Int(checksum & 0xF)])\\" + sentence
}

/// Issue 13: a tagged capture replays at the pace of its receive times, not of its sentences' times.
@Suite struct ReceiveTimeReplayTests {
    /// Arrival offsets (ms) unlike the sentences' own one-second steps: a burst, a lull, two epochs in one read.
    static let offsets: [Int64] = [0, 40, 45, 600, 610, 1_400, 1_405, 1_410, 1_415, 2_100]

    @Test func pacerSwitchesToReceiveTimes() {
        var pacer = ReplayPacer(speed: 2)
        #expect(pacer.due(sentenceTime: 28_800, now: 10) == 10)
        #expect(pacer.due(receivedMilliseconds: 1_700_000_000_000, now: 10.5) == 10.5)
        #expect(pacer.pacesByReceiveTime)
        #expect(pacer.due(receivedMilliseconds: 1_700_000_000_300, now: 10.5) == 10.65)
        // Sentence times no longer count: an untimed line goes straight after the one before.
        #expect(pacer.due(sentenceTime: 28_900, now: 10.6) == 10.65)
        // No midnight wrap: a receive time a day back costs no wait.
        #expect(pacer.due(receivedMilliseconds: 1_699_913_600_300, now: 10.7) == 10.65)
    }

    @Test func aTaggedCaptureReplaysAtItsReceiveTimes() throws {
        let directory = TemporaryDirectory("replay-tagged")
        defer { directory.remove() }
        let base: Int64 = 1_700_000_000_000
        var text = ""
        for (index, offset) in Self.offsets.enumerated() {
            // Sentence times a whole second apart for each line: paced by them the replay would take 9 s.
            let sentence = index % 2 == 0 ? sampleRMC(second: index) : sampleGGA(second: index)
            text += tagged(sentence, receivedAt: base + offset)
        }
        directory.write(text, to: "tagged.nmea")
        var configuration = ReceiverPipeline.Configuration()
        configuration.publishesRaw = false
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer(name: "test", startingAt: .oldest)
        pipeline.start(try ReplayByteSource(path: directory.file("tagged.nmea"), speed: 1))
        pipeline.waitUntilFinished()
        var arrivals: [MonotonicTime] = []
        while let (record, _) = consumer.next(timeout: .zero) {
            if record.sentence != nil { arrivals.append(record.time) }
        }
        try #require(arrivals.count == Self.offsets.count)
        let errors = arrivals.indices.map { index in
            let arrived = Double((arrivals[index] - arrivals[0]).nanosecondsClamped) / 1e6
            return arrived - Double(Self.offsets[index])
        }
        // Generous for a loaded machine (scripts/bench-replay-pacing measures the real figure); paced by the
        // sentences' times the last line would arrive 7.9 s late.
        #expect(errors.allSatisfy { $0 > -5 && $0 < 150 }, "\(errors)")
    }
}
