import GPSDFixtures
import Glibc
import NMEA
import Pipeline
import SerialPort
import System
import TestSupport
import Testing
import Threading

@testable import Publisher

/// The gpsd server's raw NMEA mode (`--nmea-tcp`): sentences to every client from its connection on, no handshake,
/// the same client limit and slow-client rule.
@Suite(.serialized) struct RawNMEAServerTests {
    @Test func everyClientGetsEverySentenceWithNoHandshakeWithinTheSameLimits() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let pipeline = ReceiverPipeline(configuration: .positionAtOnce)
        var configuration = GPSDServer.Configuration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        configuration.servesRawNMEA = true
        configuration.maxClients = 2
        configuration.clientQueueLimit = 32 * 1024
        configuration.socketSendBufferSize = 16 * 1024
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        try server.start()
        defer {
            pipeline.stop()
            server.stop()
        }
        let port = try #require(server.boundAddress?.port)
        pipeline.start(try FileByteSource(path: pty.slavePath))

        let good = try LineClient(port: port)
        // What a raw client says is read and dropped: no reply, no effect.
        #expect(good.send(#"?WATCH={"enable":true,"json":true}"# + "\n"))
        let slow = try LineClient(port: port, receiveBuffer: 4096)
        #expect(waitUntil(timeout: .seconds(2)) { server.statistics.clients == 2 })
        // The third is over the limit: closed at once, told nothing (raw NMEA has no way to say why).
        let extra = try LineClient(port: port)
        #expect(extra.readUntilClosed(timeout: .seconds(5)))
        #expect(extra.lines.isEmpty)
        #expect(waitUntil(timeout: .seconds(2)) { server.statistics.refused == 1 })

        let journey = Journey(seconds: 4, rateHz: 50)
        let expected = journey.fixes.indices.flatMap { journey.sentences($0) }
        let box = UncheckedBox(good)
        let reader = NativeThread {
            box.value.read(until: { $0.count >= expected.count }, timeout: .seconds(30))
        }
        let feeder = PtyFeeder(pty: pty, journey: journey, interval: .milliseconds(20))
        feeder.join()
        reader.join()
        #expect(good.lines.count == expected.count)
        #expect(good.lines == expected, "the good client's sentences differ from those fed")
        #expect(!good.closedByPeer)
        // The client that never reads passes the queue bound and is disconnected, as a gpsd client would be.
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.disconnectedSlow == 1 })
        #expect(slow.readUntilClosed(timeout: .seconds(10)))
        #expect(slow.lines.allSatisfy { $0.hasPrefix("$") })
        #expect(server.statistics.errors == 0)
    }
}
