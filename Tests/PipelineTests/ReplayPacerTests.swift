import Glibc
import NMEA
import Pipeline
import Synchronization
import System
import TestSupport
import Testing

/// The one pacer of replays (moved here with `ReplayByteSource` from `Watch`, its assertions as they were).
@Suite struct ReplayPacerTests {
    @Test func recordedPace() {
        var pacer = ReplayPacer(speed: 1)
        #expect(pacer.due(sentenceTime: nil, now: 100) == 100)
        #expect(pacer.due(sentenceTime: 28_800, now: 100) == 100)
        #expect(pacer.due(sentenceTime: 28_800, now: 100.01) == 100)
        #expect(pacer.due(sentenceTime: nil, now: 100.02) == 100)
        #expect(pacer.due(sentenceTime: 28_801, now: 100.03) == 101)
        #expect(pacer.due(sentenceTime: 28_801.5, now: 101) == 101.5)
        // The schedule accumulates: a late read does not shift later sentences.
        #expect(pacer.due(sentenceTime: 28_802.5, now: 101.9) == 102.5)
    }

    @Test func fasterGapsBackwardsAndMidnight() {
        var pacer = ReplayPacer(speed: 10, maximumGap: 10)
        #expect(pacer.due(sentenceTime: 86_399, now: 0) == 0)
        #expect(pacer.due(sentenceTime: 0, now: 0) == 0.1)  // across midnight: one second later
        #expect(pacer.due(sentenceTime: 3_600, now: 0.1) == 1.1)  // an hour's pause shortened to 10 s
        #expect(pacer.due(sentenceTime: 1_800, now: 1.1) == 1.1)  // back in time: no wait
        #expect(abs(pacer.due(sentenceTime: 1_801, now: 1.1) - 1.2) < 1e-9)
    }

    @Test func aLateInputStartsTheScheduleAgain() {
        var pacer = ReplayPacer(speed: 1)
        #expect(pacer.due(sentenceTime: 10, now: 0) == 0)
        #expect(pacer.due(sentenceTime: 11, now: 5) == 5)  // 4 s late: from now on
        #expect(pacer.due(sentenceTime: 12, now: 5.1) == 6)
    }

    @Test func sentenceTimes() {
        func time(_ line: String) -> Double? { ReplayPacer.sentenceTime(Array(line.utf8)) }
        #expect(time("$GNRMC,080000.00,A,4808.24400,N,01134.53000,E,24.298,45.00,301126,,,A,V*06\r\n") == 28_800)
        #expect(time("$GPGGA,080001.5,4808.24877,N,01134.53715,E,1,24,0.50,520.0,M,47.3,M,,*47") == 28_801.5)
        #expect(time("$GNGLL,4808.24400,N,01134.53000,E,080002.00,A,A*78") == 28_802)
        #expect(time("$GNZDA,235959.90,30,11,2026,00,00*75") == 86_399.9)
        #expect(time("$GNGSA,A,3,02,05,07,09,18,20,24,26,29,30,,,1.28,0.80,1.04,1*0F") == nil)
        #expect(time("$PUBX,00,080000.00,4808.24400,N*00") == nil)
        #expect(time("$GPRMC,,V,,,,,,,,,,N*53") == nil)
        #expect(time("$GPRMC,256000.00,A*00") == nil)
        #expect(time("garbage") == nil)
    }
}
/// `ReplayByteSource`: the file exactly, paced by its sentences' times; waiting for a slow reader loses nothing.
@Suite struct ReplayByteSourceTests {
    /// A log of `count` RMC+GGA epochs a second apart.
    static func log(_ directory: TemporaryDirectory, epochs count: Int) -> String {
        directory.write((0..<count).map { sampleRMC(second: $0) + sampleGGA(second: $0) }.joined(), to: "log.nmea")
        return directory.file("log.nmea")
    }

    @Test func aPacedReplayHandsOutTheFileExactlyAtItsRecordedRateTimesTheSpeed() throws {
        let directory = TemporaryDirectory("replay-paced")
        defer { directory.remove() }
        let path = Self.log(directory, epochs: 4)
        let pipeline = ReceiverPipeline()
        let consumer = pipeline.makeConsumer(name: "test", startingAt: .oldest)
        let started = MonotonicTime.now()
        pipeline.start(try ReplayByteSource(path: path, speed: 10))
        pipeline.waitUntilFinished()
        let elapsed = started.elapsed
        var raw: [UInt8] = []
        var fixes = 0
        while let (record, _) = consumer.next(timeout: .zero) {
            if let chunk = record.raw { chunk.withBytes { raw += $0 } }
            if record.fix != nil { fixes += 1 }
        }
        #expect(raw == Array(readFile(path) ?? []))
        #expect(fixes == 4)
        // Three one-second steps at ten times: 0.3 s (a loaded machine may add to it, never take from it).
        #expect(elapsed >= .milliseconds(290))
        #expect(elapsed < .seconds(2))
    }

    @Test func waitingForAReaderLosesNothingWhereAFreeRunningReplayLaps() throws {
        let directory = TemporaryDirectory("replay-waiting")
        defer { directory.remove() }
        let path = Self.log(directory, epochs: 600)
        func run(waiting: Bool) throws -> (fixes: Int, lost: UInt64) {
            var configuration = ReceiverPipeline.Configuration()
            configuration.capacity = 64
            configuration.publishesRaw = false
            configuration.publishesSentences = false
            let pipeline = ReceiverPipeline(configuration: configuration)
            let consumer = pipeline.makeConsumer(name: "slow")
            pipeline.start(try ReplayByteSource(path: path, speed: nil, waitingFor: waiting ? consumer : nil))
            var fixes = 0
            while true {
                let batch = consumer.read(maximumCount: 4, timeout: .milliseconds(100))
                fixes += batch.records.count { $0.fix != nil }
                if batch.isFinished { break }
                sleep(for: .microseconds(200))  // pacing under test: a slow reader
            }
            pipeline.waitUntilFinished()
            return (fixes, consumer.lost)
        }
        let waiting = try run(waiting: true)
        #expect(waiting.fixes == 600)
        #expect(waiting.lost == 0)
        // The positive control: without waiting, the same reader loses records.
        let free = try run(waiting: false)
        #expect(free.lost > 0)
        #expect(free.fixes < 600)
    }
}
