import Glibc
import Pipeline
import System
import TestSupport
import Testing

@testable import Web

/// The page's state from a live stream written into a pipe, sentence by sentence: the position at once (at the
/// epoch's first sentence), the status as it changes, the events a browser gets.
@Suite(.serialized) struct WebServerTests {
    final class Live {
        let pipeline = ReceiverPipeline(configuration: .positionAtOnce)
        let web: WebServer
        let writeEnd: FileDescriptor
        let port: UInt16

        init() throws {
            web = WebServer(
                pipeline: pipeline, configuration: .init(listen: ListenAddress(host: "127.0.0.1", port: 0)),
                places: { nil })
            try web.start()
            port = web.boundAddress!.port
            let (readEnd, writeEnd) = try FileDescriptor.pipe()
            self.writeEnd = writeEnd
            pipeline.start(FileByteSource(fileDescriptor: readEnd, name: "pipe", closesOnDeinit: true))
        }

        func write(_ text: String) throws { try Array(text.utf8).withUnsafeBytes { try writeEnd.writeAll($0) } }

        func get(_ path: String) throws -> String { try RawHTTP.get(port: port, path).body }

        deinit {
            try? writeEnd.close()
            pipeline.stop()
            web.stop()
        }
    }

    @Test func theFirstPositionIsThereAtItsFirstSentenceAndEachEpochAtItsEnd() throws {
        let live = try Live()
        #expect(try live.get("/api/position") == "null")
        // The first sentence alone: its position is served before its epoch is complete.
        try live.write(sampleRMC(second: 0))
        #expect(waitUntil(timeout: .seconds(5)) { (try? live.get("/api/position"))?.contains("12:00:00") == true })
        let first = try live.get("/api/position")
        #expect(first.contains(#""provisional":true"#), "\(first)")
        #expect(
            first.contains(
                #""place":null,"dm":"48°07.0380' N 11°31.0000' E","decimal":"48.117300° N, 11.516667° E""#))
        // The cycle's end (GGA) is learned from the first epoch: the next epoch is served at its last sentence,
        // complete, without waiting for the one after.
        try live.write(sampleGGA(second: 0) + sampleRMC(second: 1) + sampleGGA(second: 1))
        #expect(
            waitUntil(timeout: .seconds(5)) {
                (try? live.get("/api/position"))?.hasPrefix(#"{"time":"1994-03-23T12:00:01.00Z""#) == true
            }, "\((try? live.get("/api/position")) ?? "")")
        #expect(try !live.get("/api/position").contains("provisional"))
        // The status is the page's other stream: it may follow the position by a moment on a busy machine.
        _ = waitUntil(timeout: .seconds(5)) { (try? live.get("/api/status"))?.contains(#""rate_hz""#) == true }
        let status = try live.get("/api/status")
        #expect(
            status.hasPrefix(
                #"{"device":"pipe","connection":"connected","rate_hz":1,"fix":"3D fix (GPS)","satellites_used":8,"#),
            "\(status)")
    }

    @Test func anEventStreamGetsEachPositionAsItArrives() throws {
        let live = try Live()
        let client = try LineClient(port: live.port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: { $0.contains("event: trip") }))
        #expect(!client.lines.contains("event: position"))  // none yet
        for second in 0..<3 {
            try live.write(sampleRMC(second: second) + sampleGGA(second: second))
            #expect(
                client.read(until: { $0.contains { $0.hasPrefix("data: {\"time\":\"1994-03-23T12:00:0\(second)") } }),
                "second \(second): \(client.lines.suffix(4))")
        }
        #expect(client.lines.contains { $0.hasPrefix("data: {\"device\":\"pipe\",\"connection\":\"connected\"") })
    }

    @Test func theTrackIsTheDaysSegments() throws {
        let live = try Live()
        for second in [0, 1, 2, 200, 201] { try live.write(sampleRMC(second: second) + sampleGGA(second: second)) }
        try live.write(sampleRMC(second: 202))  // ends the 201 epoch
        #expect(
            waitUntil(timeout: .seconds(5)) {
                (try? live.get("/api/track"))?.split(separator: "\"type\":\"Feature\"").count == 3
            }, "\((try? live.get("/api/track")) ?? "")")
        let track = try live.get("/api/track")
        #expect(
            track.hasPrefix(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","#
                    + #""coordinates":[[11.516667,48.117300],[11.516667,48.117300],[11.516667,48.117300]]},"#
                    + #""properties":{"segment":0,"times":["1994-03-23T12:00:00Z","1994-03-23T12:00:01Z","#
                    + #""1994-03-23T12:00:02Z"],"speeds":[11.52,11.52,11.52]}}"#), "\(track)")
    }
}
