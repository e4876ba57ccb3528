import Glibc
import NMEA
import Pipeline
import Recording
import System
import TestSupport
import Testing
import Tracks

/// Issue 13: `record --raw-format tagged` (each sentence after a TAG block with its receive time) and
/// `--compress` (a finished day's raw file compressed to `.zst`), on a pipeline fed by hand.
@Suite struct TaggedCaptureTests {
    /// Runs a recorder over `chunks` (each read at once, then a pause), its pipeline publishing sentences.
    static func record(_ chunks: [String], _ configuration: Recorder.Configuration) throws -> [String] {
        let messages = RecorderTests.Messages()
        _ = try RecorderTests.record(chunks, configuration, messages: messages, publishesSentences: true)
        return messages.all
    }

    @Test func taggedLinesCarryTheTimeTheirBytesWereRead() throws {
        let directory = TemporaryDirectory("tagged-capture")
        defer { directory.remove() }
        var configuration = RecorderTests.configuration(directory, rotation: .none)
        configuration.rawFormat = .tagged
        let epochs = (0..<3).map { sampleRMC(second: $0) + sampleGGA(second: $0) }
        let before = WallClock.millisecondsSinceEpoch()
        // Garbage and a bad sentence are not sentences: a tagged capture holds the sentences alone.
        let messages = try Self.record(["noise\r\n$GPGGA,1*00\r\n"] + epochs, configuration)
        let after = WallClock.millisecondsSinceEpoch()
        #expect(messages == [])
        let text = try #require(RecorderTests.read(directory.file("%Y-%m-%d-x.nmea")))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 7 && lines.last == "")
        let sentences = epochs.joined().split(separator: "\r\n").map(String.init)
        for (line, sentence) in zip(lines, sentences) {
            let block = try #require(line.utf8.withContiguousStorageIfAvailable { TagBlock.leading(.init($0)) } ?? nil)
            let received = try #require(block.receivedMilliseconds)
            #expect(received >= before && received <= after)
            let end = try #require(line.firstIndex(of: "$"))
            #expect(
                line[line.index(after: line.startIndex)..<line.index(end, offsetBy: -1)] == "c:\(received)*"
                    + line[line.index(end, offsetBy: -3)..<line.index(end, offsetBy: -1)])
            #expect(String(line[end...]) == sentence)
        }
        // Read back, the capture gives the same fixes, each sentence with its receive time.
        var reader = FixReader()
        var fixes = 0
        reader.read(Array(text.utf8)) { _ in fixes += 1 }
        reader.finish { _ in fixes += 1 }
        #expect(fixes == 3)
        #expect(reader.statistics.framer.tagBlocks == 6 && reader.statistics.framer.sentencesWithReceiveTime == 6)
    }

    @Test(.enabled(if: Tools.available("zstd"), "zstd is not installed"))
    func aFinishedDayIsCompressedAndItsPlainFileRemoved() throws {
        let directory = TemporaryDirectory("compress-rotation")
        defer { directory.remove() }
        var configuration = RecorderTests.configuration(directory, rotation: .daily)
        configuration.compressesFinishedDays = true
        let messages = try Self.record(
            [RecorderTests.startUp] + RecorderTests.before + RecorderTests.after, configuration)
        #expect(messages == [])
        #expect(
            Directory.entries(directory.path).sorted() == [
                "1994-03-23-x.gpx", "1994-03-23-x.nmea.zst", "1994-03-24-x.gpx", "1994-03-24-x.nmea",
            ])
        let outcome = try ChildProcess.run(
            [try #require(Tools.which("zstd")), "-d", "-c", directory.file("1994-03-23-x.nmea.zst")])
        #expect(outcome.status == 0)
        #expect(outcome.output == RecorderTests.startUp + RecorderTests.before.joined())
        #expect(RecorderTests.read(directory.file("1994-03-24-x.nmea")) == RecorderTests.after.joined())
    }

    /// Compressing never loses the plain file: one that cannot be written beside stays, and the failure is told.
    @Test func aFailedCompressionKeepsThePlainFile() throws {
        let directory = TemporaryDirectory("compress-fails")
        defer { directory.remove() }
        // A directory where the .zst would go: it cannot be created.
        #expect(mkdir(directory.file("1994-03-23-x.nmea.zst"), 0o755) == 0)
        var configuration = RecorderTests.configuration(directory, rotation: .daily)
        configuration.compressesFinishedDays = true
        let messages = try Self.record(RecorderTests.before + RecorderTests.after, configuration)
        let zst = directory.file("1994-03-23-x.nmea.zst")
        let plain = directory.file("1994-03-23-x.nmea")
        #expect(messages == ["raw capture: cannot create '\(zst)': Is a directory; '\(plain)' kept as it is"])
        #expect(RecorderTests.read(directory.file("1994-03-23-x.nmea")) == RecorderTests.before.joined())
        #expect(Directory.entries(directory.path).filter { $0.contains("partial") } == [])
    }
}
