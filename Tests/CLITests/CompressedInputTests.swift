import Foundation
import NMEA
import TestSupport
import Testing

/// Issue 13: compressed logs and receive times, as a user meets them. A log read plain, gzipped (`gzip`), compressed
/// with the `zstd` tool and TAG-blocked gives the same `parse` output (TAG-blocked: the same plus `"received"`).
@Suite struct CompressedInputTests {
    static let drive = ToolSupport.repository.appendingPathComponent("nmea-samples/drive.nmea").path

    /// `tool arguments… path`'s standard output, written to `destination`.
    static func compress(_ tool: String, _ arguments: [String], _ path: String, to destination: URL) throws {
        let outcome = try ChildProcess.run([try #require(Tools.which(tool))] + arguments + [path])
        #expect(outcome.status == 0)
        try Data(outcome.outputBytes).write(to: destination)
    }

    static let compressors: [(tool: String, arguments: [String])] = [("gzip", ["-c"]), ("zstd", ["-q", "-c"])]

    /// Named `.nmea`: the first bytes, not the name, say it is compressed.
    @Test(.enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"))
    func compressedLogsParseByteIdentically() throws {
        let directory = Tool.temporaryDirectory()
        let plain = try Tool.run(["parse", Self.drive])
        #expect(plain.status == 0 && plain.error == "")
        #expect(plain.output.split(separator: "\n").count == 9600)
        for (tool, arguments) in Self.compressors {
            let file = directory.appendingPathComponent("drive-\(tool).nmea")
            try Self.compress(tool, arguments, Self.drive, to: file)
            #expect(try Data(contentsOf: file).prefix(2) != Data("$G".utf8))
            let outcome = try Tool.run(["parse", file.path])
            #expect(outcome.status == 0 && outcome.error == "", "\(tool)")
            #expect(outcome.output == plain.output, "\(tool)")
        }
    }

    /// Every command that reads a file reads them: `convert` writes the same GPX from a `.zst` as from the log.
    @Test(.enabled(if: Tools.available("zstd"), "zstd is not installed"))
    func convertReadsZstd() throws {
        let directory = Tool.temporaryDirectory()
        let file = directory.appendingPathComponent("drive.nmea.zst")
        try Self.compress("zstd", ["-q", "-c"], Self.drive, to: file)
        let expected = directory.appendingPathComponent("plain.gpx").path
        let actual = directory.appendingPathComponent("zstd.gpx").path
        #expect(try Tool.run(["convert", Self.drive, "-o", expected]).status == 0)
        let outcome = try Tool.run(["convert", file.path, "-o", actual])
        #expect(outcome.status == 0 && outcome.error == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: actual)) == Data(contentsOf: URL(fileURLWithPath: expected)))
    }

    /// A truncated compressed file yields what it holds, then one clear error, and exit status 1.
    @Test(
        .enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"),
        arguments: [("gzip", "member"), ("zstd", "frame")])
    func truncatedFileYieldsWhatItHoldsThenOneError(tool: String, part: String) throws {
        let directory = Tool.temporaryDirectory("truncated-\(tool)")
        let whole = directory.appendingPathComponent("whole")
        try Self.compress(tool, tool == "gzip" ? ["-c"] : ["-q", "-c"], Self.drive, to: whole)
        let bytes = try Data(contentsOf: whole)
        let cut = directory.appendingPathComponent("cut.nmea.\(tool == "gzip" ? "gz" : "zst")")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let plain = try Tool.run(["parse", Self.drive]).output.split(separator: "\n")
        let outcome = try Tool.run(["parse", cut.path])
        #expect(outcome.status == 1)
        #expect(
            outcome.error
                == "Error: cannot read '\(cut.path)': \(tool) data: truncated (the input ends inside a compressed \(part))\n"
        )
        let lines = outcome.output.split(separator: "\n")
        // Half the compressed bytes hold a good part of the log; every sentence output is the log's own, in order.
        #expect(lines.count > 1000 && lines.count < 9600)
        #expect(Array(plain.prefix(lines.count)) == lines)
    }

    /// The log with a TAG block before each sentence, its receive times 10 ms apart from 2023-11-14T22:13:20Z.
    static func tagged(_ text: String) -> (text: String, times: [Int64]) {
        var output = ""
        var times: [Int64] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let time = 1_700_000_000_000 + Int64(times.count) * 10
            times.append(time)
            let body = "c:\(time)"
            let checksum = body.utf8.reduce(UInt8(0), ^)
            output += "\\" + body + "*" + String(format: "%02X", checksum) + "\\" + line + "\n"
        }
        return (output, times)
    }

    /// Received text as `parse` prints it.
    static func received(_ milliseconds: Int64) -> String {
        var text = ""
        ISO8601.write(nanosecondsSinceEpoch: milliseconds * 1_000_000, fraction: .milliseconds) {
            text.unicodeScalars.append(Unicode.Scalar($0))
        }
        return text
    }

    @Test func taggedLogParsesAsThePlainOnePlusReceived() throws {
        let directory = Tool.temporaryDirectory()
        let (text, times) = Self.tagged(try String(contentsOfFile: Self.drive, encoding: .utf8))
        let file = directory.appendingPathComponent("tagged.nmea")
        try text.write(to: file, atomically: false, encoding: .utf8)
        let plain = try Tool.run(["parse", Self.drive]).output.split(separator: "\n").map(String.init)
        let outcome = try Tool.run(["parse", file.path])
        #expect(outcome.status == 0 && outcome.error == "")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.count == plain.count && times.count == plain.count)
        #expect(lines.first?.hasPrefix(#"{"talker":"GN","type":"RMC","received":"2023-11-14T22:13:20.000Z","#) == true)
        #expect(lines.last?.contains(#""received":"2023-11-14T22:14:55.990Z""#) == true)
        for (index, line) in lines.enumerated() where index < plain.count {
            let type = try #require(plain[index].range(of: #""type":"[A-Z]+","#, options: .regularExpression))
            var expected = plain[index]
            expected.insert(contentsOf: #""received":""# + Self.received(times[index]) + #"","#, at: type.upperBound)
            #expect(line == expected)
        }
        let stats = try Tool.run(["parse", "--stats", file.path])
        #expect(stats.error.contains("TAG blocks read       9600\n"))
        #expect(stats.error.contains("  with receive time   9600\n"))
    }

    /// A GGA-only log with receive times converts to GPX with dates, with no `--date`.
    @Test func ggaOnlyTaggedLogGetsItsDates() throws {
        let directory = Tool.temporaryDirectory()
        let ggaOnly = try String(contentsOfFile: Self.drive, encoding: .utf8).split(whereSeparator: \.isNewline).filter
        {
            $0.hasPrefix("$GNGGA")
        }.joined(separator: "\n")
        let plainFile = directory.appendingPathComponent("gga.nmea")
        try ggaOnly.write(to: plainFile, atomically: false, encoding: .utf8)
        let undated = directory.appendingPathComponent("undated.gpx").path
        _ = try Tool.run(["convert", plainFile.path, "-o", undated])
        #expect(try String(contentsOfFile: undated, encoding: .utf8).contains("<time>") == false)

        // drive.nmea starts at 08:00:00 UTC on 2026-11-30 (1796025600): receive times half a second after each.
        var tagged = ""
        for (second, line) in ggaOnly.split(separator: "\n").enumerated() {
            let body = "c:\(1_796_025_600_500 + Int64(second) * 1000)"
            tagged += "\\\(body)*\(String(format: "%02X", body.utf8.reduce(UInt8(0), ^)))\\\(line)\r\n"
        }
        let file = directory.appendingPathComponent("gga-tagged.nmea")
        try tagged.write(to: file, atomically: false, encoding: .utf8)
        let gpx = directory.appendingPathComponent("dated.gpx").path
        let outcome = try Tool.run(["convert", file.path, "-o", gpx])
        #expect(outcome.status == 0 && outcome.error == "")
        let document = try String(contentsOfFile: gpx, encoding: .utf8)
        let times = document.components(separatedBy: "<time>").dropFirst().map {
            $0.components(separatedBy: "</time>")[0]
        }
        #expect(times.count == 600 && document.components(separatedBy: "<trkpt ").count - 1 == 600)
        #expect(times.first == "2026-11-30T08:00:00.00Z")
        #expect(times.last == "2026-11-30T08:09:59.00Z")
    }
}
