import Foundation
import GPSDFixtures
import Glibc
import NMEA
import Pipeline
import SerialPort
import Synchronization
import System
import TestSupport
import Testing
import Threading

@testable import Publisher

/// The gpsd server in-process: a pty feeds the pipeline, raw TCP clients talk to the server.
@Suite(.serialized) struct GPSDServerTests {
    final class Harness {
        let pty: PseudoTerminal
        let pipeline: ReceiverPipeline
        let server: GPSDServer
        let port: UInt16

        init(_ configure: (inout GPSDServer.Configuration) -> Void = { _ in }) throws {
            pty = try PseudoTerminal.open()
            pipeline = ReceiverPipeline(configuration: .positionAtOnce)
            var configuration = GPSDServer.Configuration()
            configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
            configure(&configuration)
            server = GPSDServer(pipeline: pipeline, configuration: configuration)
            try server.start()
            port = server.boundAddress!.port
            pipeline.start(try FileByteSource(path: pty.slavePath))
            let path = pty.slavePath
            guard waitUntil(timeout: .seconds(10), { [server] in server.activeDevice == path }) else {
                throw TestError("the server never reported \(path) as active")
            }
        }

        func stop() {
            pipeline.stop()
            server.stop()
            pty.close()
        }
    }

    @Test func speaksTheProtocolClientsUse() throws {
        let harness = try Harness()
        defer { harness.stop() }
        let journey = Journey(seconds: 1)
        let client = try LineClient(port: harness.port)
        try #require(client.read(until: { $0.count >= 1 }))
        #expect(client.lines.first?.hasPrefix("{\"class\":\"VERSION\",") == true)
        #expect(client.lines.first.flatMap { jsonField($0, "proto_major") } == "3")
        #expect(client.lines.first.flatMap { jsonField($0, "proto_minor") } == "14")

        client.send("?VERSION;\n?DEVICES;\n")
        try #require(client.read(until: { $0.count >= 3 }))
        #expect(client.lines[1].hasPrefix("{\"class\":\"VERSION\""))
        #expect(client.lines[2] == client.lines(of: "DEVICES").first)
        #expect(jsonField(client.lines[2], "path") == harness.pty.slavePath)
        #expect(jsonField(client.lines[2], "driver") == "NMEA0183")

        client.send("?POLL;\n")
        try #require(client.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"POLL\"") }.isEmpty }))
        let emptyPoll = client.lines(of: "POLL").first ?? ""
        #expect(jsonField(emptyPoll, "active") == "1")
        #expect(emptyPoll.contains("\"tpv\":[{\"class\":\"TPV\",\"device\":\"\(harness.pty.slavePath)\",\"mode\":0}]"))

        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        try #require(client.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"WATCH\"") }.isEmpty }))
        let watch = client.lines(of: "WATCH").first ?? ""
        #expect(
            watch == "{\"class\":\"WATCH\",\"enable\":true,\"json\":true,\"nmea\":false,\"raw\":0,"
                + "\"scaled\":false,\"timing\":false,\"split24\":false,\"pps\":false}")
        #expect(client.lines(of: "DEVICES").count == 2)

        for index in 0..<3 { try harness.pty.write(journey.epoch(index)) }
        // A provisional TPV for epoch 0 at its RMC (issue 12, item 8: position at once), its complete fix when
        // epoch 1 begins, which teaches the cycle's end (ZDA); then one per epoch at its ZDA, and a SKY per epoch.
        // Counted as `lines(of:)` counts them: the POLL answer above holds a TPV too, and must not end the wait.
        try #require(client.read(until: { $0.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.count >= 4 }))
        let tpvs = client.lines(of: "TPV")
        try #require(tpvs.count >= 4)
        #expect(
            tpvs.map { jsonField($0, "time") ?? "" }
                == [journey.isoTime(0), journey.isoTime(0), journey.isoTime(1), journey.isoTime(2)])
        for (position, (tpv, index)) in zip(tpvs, [0, 0, 1, 2]).enumerated() {
            let expected = journey.expectedCoordinates(index)
            #expect(jsonField(tpv, "lat") == expected.latitude)
            #expect(jsonField(tpv, "lon") == expected.longitude)
            // The provisional first position has no altitude yet (2D); the second epoch's keeps the last mode.
            #expect(jsonField(tpv, "mode") == (position == 0 ? "2" : "3"))
            #expect(jsonField(tpv, "device") == harness.pty.slavePath)
        }
        #expect(
            jsonField(tpvs[1], "altMSL")
                == String(format: "%.4f", (journey.fixes[0].altitudeMeters * 10).rounded() / 10))
        try #require(client.read(until: { $0.filter { $0.hasPrefix("{\"class\":\"SKY\"") }.count >= 3 }))
        let skies = client.lines(of: "SKY")
        try #require(skies.count >= 3)
        for (sky, index) in zip(skies, 0..<3) {
            #expect(skySatellites(sky) == journey.expectedSatellites(index))
            #expect(jsonField(sky, "nSat") == "\(journey.fixes[index].satellites.count)")
            #expect(jsonField(sky, "uSat") == "\(journey.fixes[index].satellites.filter(\.used).count)")
        }

        client.send("?POLL;?FOO;\n")
        try #require(client.read(until: { $0.filter { $0.hasPrefix("{\"class\":\"POLL\"") }.count == 2 }))
        try #require(client.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"ERROR\"") }.isEmpty }))
        let polls = client.lines(of: "POLL")
        try #require(polls.count == 2)
        let poll = polls[1]
        #expect(poll.contains("\"tpv\":[" + tpvs[3] + "]"))
        #expect(poll.contains("\"sky\":[" + skies[2] + "]"))
        #expect(client.lines(of: "ERROR") == ["{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?FOO'\"}"])

        // The receiver goes away: watchers are told.
        harness.pty.close()
        #expect(
            client.read(until: {
                $0.contains("{\"class\":\"DEVICE\",\"path\":\"\(harness.pty.slavePath)\",\"activated\":0}")
            }))
        #expect(!client.closedByPeer)
    }

    @Test func nmeaWatchersGetTheSentencesAsSent() throws {
        let harness = try Harness()
        defer { harness.stop() }
        let journey = Journey(seconds: 1)
        let client = try LineClient(port: harness.port)
        client.send("?WATCH={\"enable\":true,\"nmea\":true};")
        try #require(client.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"WATCH\"") }.isEmpty }))
        try harness.pty.write(journey.epoch(0) + journey.epoch(1))
        let expected = journey.sentences(0) + journey.sentences(1)
        try #require(client.read(until: { $0.filter { $0.hasPrefix("$") }.count >= expected.count }))
        #expect(client.lines.filter { $0.hasPrefix("$") } == expected)
        #expect(client.lines(of: "TPV").isEmpty)  // nmea only: no JSON reports
    }

    @Test func aWatcherJoiningLateGetsTheLatestFixAtOnce() throws {
        let harness = try Harness()
        defer { harness.stop() }
        let journey = Journey(seconds: 1)
        // A watcher from the start sees the last epoch's TPV go out: the server has it as its latest fix.
        let witness = try LineClient(port: harness.port)
        witness.send("?WATCH={\"enable\":true,\"json\":true}\n")
        try #require(witness.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"WATCH\"") }.isEmpty }))
        for index in 0..<3 { try harness.pty.write(journey.epoch(index)) }
        #expect(waitUntil(timeout: .seconds(2)) { harness.pipeline.statistics.published.fixes >= 4 })
        #expect(
            witness.read(until: { _ in
                witness.lines(of: "TPV").contains { jsonField($0, "time") == journey.isoTime(2) }
            }))
        let client = try LineClient(port: harness.port)
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        try #require(
            client.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"SKY\"") }.isEmpty }, timeout: .seconds(1)))
        #expect(client.lines.map { jsonField($0, "class") ?? "" } == ["VERSION", "DEVICES", "WATCH", "TPV", "SKY"])
        #expect(client.lines(of: "TPV").first.flatMap { jsonField($0, "time") } == journey.isoTime(2))
    }

    /// A slow client, a silent one, a flooding one, a malformed one and client 65, all at once, while a
    /// well-behaved client receives every fix of a 50 Hz stream.
    @Test func misbehavingClientsNeverDisturbAWellBehavedOne() throws {
        let harness = try Harness {
            $0.clientQueueLimit = 32 * 1024
            $0.socketSendBufferSize = 16 * 1024
        }
        defer { harness.stop() }
        let journey = Journey(seconds: 4, rateHz: 50)
        let port = harness.port

        // The well-behaved client reads on a thread of its own until it has every epoch.
        let good = try LineClient(port: port)
        good.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(good.read(until: { !$0.filter { $0.hasPrefix("{\"class\":\"WATCH\"") }.isEmpty }))
        let goodBox = UncheckedBox(good)
        let expectedTimes = journey.fixes.indices.map { journey.isoTime($0) }
        let reader = NativeThread {
            goodBox.value.read(
                until: { lines in
                    Set(lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.compactMap { jsonField($0, "time") }).count
                        >= expectedTimes.count
                }, timeout: .seconds(30))
        }

        // Slow: watches, with a tiny receive buffer, and never reads.
        let slow = try LineClient(port: port, receiveBuffer: 4096)
        slow.send("?WATCH={\"enable\":true,\"json\":true}\n")
        // Silent: connects and says nothing, ever.
        let silent = try LineClient(port: port)
        // Malformed: every kind of nonsense.
        let malformed = try LineClient(port: port)
        let nonsense: [[UInt8]] = [
            Array("hello\n".utf8), Array("?WATCH={\"enable\":tru}\n".utf8), Array("?WATCH={{{{\n".utf8),
            [0, 1, 2, 0xFF, 0xFE, 10], Array("?WATCH=[]\n".utf8), Array("?\n".utf8), Array("?POLL=5;\n".utf8),
            Array("?WATCH={\"enable\":\"\\ud800\"}\n".utf8),
            Array(
                ("?WATCH=" + String(repeating: "[", count: 100)
                    + String(repeating: "]", count: 100) + "\n").utf8),
            Array("?WATCH={\"raw\":99}\n".utf8), Array("?DEVICE={\"bps\":4800};".utf8),
        ]
        for bytes in nonsense { malformed.send(bytes) }
        malformed.send("?VERSION;\n")

        let feeder = PtyFeeder(pty: harness.pty, journey: journey, interval: .milliseconds(20))

        // Flooding: a command longer than 4 KiB.
        let flooder = try LineClient(port: port)
        flooder.send("?WATCH={\"enable\":true,\"json\":true}\n")
        flooder.send(String(repeating: "A", count: 5000))
        #expect(flooder.readUntilClosed(timeout: .seconds(5)))
        #expect(flooder.lines(of: "ERROR").first?.contains("Request too long") == true)

        // Fill the server to 64 clients; the 65th is refused politely.
        var fillers: [LineClient] = []
        #expect(waitUntil(timeout: .seconds(2)) { harness.server.statistics.clients == 5 })
        for _ in 0..<(64 - harness.server.statistics.clients) { fillers.append(try LineClient(port: port)) }
        #expect(waitUntil(timeout: .seconds(2)) { harness.server.statistics.clients == 64 })
        let extra = try LineClient(port: port)
        #expect(extra.readUntilClosed(timeout: .seconds(5)))
        #expect(
            extra.lines == ["{\"class\":\"ERROR\",\"message\":\"Too many clients: 64 are connected; try again later\"}"]
        )

        feeder.join()
        reader.join()
        let times = good.lines(of: "TPV").compactMap { jsonField($0, "time") }
        #expect(
            Set(times) == Set(expectedTimes),
            "the good client missed \(Set(expectedTimes).subtracting(times).count) fixes")
        #expect(times == times.sorted())
        #expect(!good.closedByPeer)

        #expect(waitUntil(timeout: .seconds(5)) { harness.server.statistics.disconnectedSlow == 1 })
        #expect(slow.readUntilClosed(timeout: .seconds(10)))

        silent.read(timeout: .milliseconds(100))
        #expect(silent.lines.count == 1 && silent.lines[0].hasPrefix("{\"class\":\"VERSION\""))
        #expect(!silent.closedByPeer)

        #expect(malformed.read(until: { $0.filter { $0.hasPrefix("{\"class\":\"VERSION\"") }.count == 2 }))
        #expect(malformed.lines(of: "ERROR").count == nonsense.count)
        #expect(!malformed.closedByPeer)

        let statistics = harness.server.statistics
        #expect(statistics.refused == 1)
        #expect(statistics.disconnectedOverlong == 1)
        #expect(statistics.lostRecords == 0)
        withExtendedLifetime(fillers) {}
    }
}

/// Hands a non-Sendable value to a thread that is joined before it is used again.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
