import Foundation
import Glibc
import NMEA
import System
import TestSupport
import Testing

/// Issue 13: `nmea record --raw-format tagged` on a real pty: each sentence after a TAG block whose receive time lies
/// between the moment the test wrote it and the end of the run.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct TaggedRecordTests {
    @Test(.enabled(if: RecordCommandTests.hasSocat, RecordCommandTests.needsSocat))
    func taggedCaptureOnAPty() throws {
        let setup = try RecordCommandTests.setUp("record-tagged")
        defer {
            setup.pair.stop()
            setup.directory.remove()
        }
        let gpx = setup.directory.file("t.gpx")
        let raw = setup.directory.file("t.nmea")
        let record = try ChildProcess(
            [
                setup.nmea, "record", setup.pair.deviceSide, "--baud", "9600", "-o", gpx, "--raw", raw,
                "--raw-format", "tagged",
            ],
            environment: ["XDG_STATE_HOME": setup.directory.file("state")])
        #expect(waitUntil(timeout: .seconds(5)) { record.error.contains("connected at 9600 baud") })
        let fd = try FileDescriptor.open(
            setup.pair.receiverSide, .writeOnly, options: [.noControllingTerminal, .closeOnExec])
        var written: [Int64] = []
        for second in 0..<10 {
            written.append(WallClock.millisecondsSinceEpoch())
            try fd.writeAll(Array((sampleRMC(second: second) + sampleGGA(second: second)).utf8))
            sleep(for: .milliseconds(150))  // pacing under test: an epoch every 150 ms, each with its receive time
        }
        try fd.close()
        #expect(waitUntil(timeout: .seconds(10)) { RecordCommandTests.points(inGPX: gpx).count == 10 })
        record.signal(SIGTERM)
        #expect(record.wait() == 0)
        let after = WallClock.millisecondsSinceEpoch()
        let lines = try String(contentsOfFile: raw, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines.count == 21 && lines.last == "")
        var previous: Int64 = 0
        for (index, line) in lines.dropLast().enumerated() {
            let block = line.utf8.withContiguousStorageIfAvailable { TagBlock.leading(.init($0)) } ?? nil
            let received = try #require(block?.receivedMilliseconds, "\(line)")
            // Read after the test wrote it (the clock counts whole milliseconds), before the run ended, in order.
            #expect(received >= written[index / 2] && received <= after, "\(line)")
            #expect(received >= previous)
            previous = received
            let sentence = index % 2 == 0 ? sampleRMC(second: index / 2) : sampleGGA(second: index / 2)
            #expect("\\" + line.split(separator: "\\").last! + "\r\n" == "\\" + sentence)  // CR LF: one Character
            #expect(line.hasPrefix("\\c:\(received)*"))
        }
    }

    @Test func optionsNeedRawAndRotation() throws {
        let noRaw = try Tool.run(["record", "-o", "x.gpx", "--raw-format", "tagged"])
        #expect(noRaw.status == 64)
        #expect(noRaw.error.hasPrefix("Error: --raw-format and --compress need --raw FILE\n"))
        let noRotation = try Tool.run(["record", "-o", "x.gpx", "--raw", "x.nmea", "--compress"])
        #expect(noRotation.status == 64)
        #expect(noRotation.error.hasPrefix("Error: --compress compresses finished days: it needs --rotate daily\n"))
    }
}

/// Issue 13: `nmea parse --raw-format tagged` stamps a live stream on standard input, line by line as it arrives.
@Suite(.enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct TagFilterTests {
    @Test func aLiveStreamIsStampedAsItArrives() throws {
        let parse = try ChildProcess([BuiltExecutables.nmea, "parse", "--raw-format", "tagged", "-"], input: .pipe)
        let pipe = try #require(parse.inputPipe)
        var written: [Int64] = []
        for second in 0..<3 {
            written.append(WallClock.millisecondsSinceEpoch())
            try pipe.writeAll(Array(sampleGGA(second: second).utf8))
            // Out before the next line is written: the filter does not wait for more input.
            #expect(
                waitUntil(timeout: .seconds(5)) { parse.output.components(separatedBy: "\r\n").count == second + 2 })
        }
        // A receive time the input already gives is kept.
        try pipe.writeAll(Array(("\\c:1700000000123*6F\\" + sampleGGA(second: 3)).utf8))
        parse.closeInput()
        #expect(parse.wait() == 0)
        let after = WallClock.millisecondsSinceEpoch()
        let lines = parse.output.components(separatedBy: "\r\n")
        #expect(lines.count == 5 && lines.last == "")
        for (index, line) in lines.prefix(3).enumerated() {
            let block = line.utf8.withContiguousStorageIfAvailable { TagBlock.leading(.init($0)) } ?? nil
            let received = try #require(block?.receivedMilliseconds)
            #expect(received >= written[index] && received <= (index < 2 ? written[index + 1] : after))
            #expect(String(line.split(separator: "\\").last!) + "\r\n" == sampleGGA(second: index))
        }
        #expect(lines[3] + "\r\n" == "\\c:1700000000123*6F\\" + sampleGGA(second: 3))
        #expect(parse.error == "")
    }
}
