import NMEA
import Pipeline
import System
import TestSupport
import Testing

/// Issue 13: `FileByteSource` (what `serve` and `watch` replay through) reads gzip and zstd files as their plain
/// bytes, and reports a truncated one.
@Suite struct CompressedSourceTests {
    /// The raw records and statuses of replaying `path` as fast as it reads.
    static func replay(_ path: String) throws -> (raw: [UInt8], statuses: [ReceiverStatus], fixes: Int) {
        var configuration = ReceiverPipeline.Configuration()
        configuration.publishesSentences = false
        configuration.capacity = 8192  // every record of the run (a fix per epoch and the raw chunks) fits
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer(name: "test", startingAt: .oldest)
        pipeline.start(try ReplayByteSource(path: path, speed: nil, waitingFor: nil))
        pipeline.waitUntilFinished()
        var raw: [UInt8] = []
        var statuses: [ReceiverStatus] = []
        var fixes = 0
        while let (record, _) = consumer.next(timeout: .zero) {
            if let chunk = record.raw { chunk.withBytes { raw += $0 } }
            if let status = record.status { statuses.append(status) }
            if record.fix != nil { fixes += 1 }
        }
        return (raw, statuses, fixes)
    }

    @Test(
        .enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"),
        arguments: ["gzip", "zstd"])
    func compressedFilesReplayAsTheirBytes(tool: String) throws {
        let directory = TemporaryDirectory("compressed-source-\(tool)")
        defer { directory.remove() }
        // Several zstd blocks (of 128 KiB each: a cut one gives nothing of its own).
        let text = (0..<6000).map { sampleRMC(second: $0) + sampleGGA(second: $0) }.joined()
        let outcome = try ChildProcess.run(
            [try #require(Tools.which(tool)), "-c", "-q"], input: .bytes(Array(text.utf8)))
        directory.write(outcome.outputBytes, to: "log.nmea")
        let whole = try Self.replay(directory.file("log.nmea"))
        // (Compared as a Bool: a failing comparison of arrays this long would be diffed for minutes.)
        #expect(whole.raw.elementsEqual(text.utf8))
        #expect(whole.fixes == 6000)
        #expect(whole.statuses.map(\.state) == [.connected, .ended])

        directory.write(Array(outcome.outputBytes.prefix(outcome.outputBytes.count / 2)), to: "cut.nmea")
        let cut = try Self.replay(directory.file("cut.nmea"))
        #expect(cut.raw.count > 0 && cut.raw.elementsEqual(text.utf8.prefix(cut.raw.count)))
        let part = tool == "gzip" ? "member" : "frame"
        #expect(cut.statuses.map(\.state) == [.connected, .disconnected, .ended])
        #expect(
            cut.statuses.dropFirst().first?.detail.string
                == "\(directory.file("cut.nmea")): \(tool) data: truncated (the input ends inside a compressed \(part))"
        )
    }
}
