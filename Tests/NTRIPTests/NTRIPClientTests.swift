import NMEA
import NTRIP
import System
import TestSupport
import Testing
import Threading

/// The client against ``FakeCaster``: both protocol versions, the request it sends, GGA at its interval, refusals
/// that end it, and a caster that drops it.
@Suite(.serialized) struct NTRIPClientTests {
    /// A client of `caster`'s mount TEST as `base`, collecting the frames it hands on.
    static func client(
        _ caster: FakeCaster, version: Int = 2, gga: Duration = .seconds(10), user: String? = "base",
        position: @escaping @Sendable () -> [UInt8]? = { nil }
    ) -> (NTRIPClient, Locked<[[UInt8]]>) {
        var options = NTRIPClient.Options(
            address: NTRIPAddress(host: "127.0.0.1", port: UInt16(caster.port), user: user, mount: "TEST"))
        options.password = "secret"
        options.version = version
        options.ggaInterval = gga
        options.minimumBackoff = 0.2
        options.maximumBackoff = 0.5
        let frames = Locked<[[UInt8]]>([])
        let client = NTRIPClient(options, position: position) { frame in
            frames.withLock { $0.append(Array(frame)) }
        }
        return (client, frames)
    }

    static let stream = TestFrames.stream.flatMap { $0 }

    @Test("NTRIP 2, chunked: every frame handed on whole and in order; noise between frames skipped and counted")
    func version2Chunked() throws {
        let noisy = Array("$GPTXT,noise*00\r\n".utf8) + Self.stream + [0xD3, 0x00, 0x05, 1, 2]
        let caster = try FakeCaster(.version2(chunk: 97), stream: noisy)
        defer { caster.stop() }
        let (client, frames) = Self.client(caster)
        client.start()
        defer { client.stop() }
        #expect(waitUntil(timeout: .seconds(10)) { frames.withLock { $0.count } == TestFrames.stream.count })
        #expect(frames.withLock { $0 } == TestFrames.stream, "the frames handed on differ")
        let request = try #require(caster.requests.first)
        #expect(request.hasPrefix("GET /TEST HTTP/1.1\r\n"))
        #expect(request.contains("\r\nHost: 127.0.0.1:\(caster.port)\r\n"))
        #expect(request.contains("\r\nNtrip-Version: Ntrip/2.0\r\n"))
        #expect(request.contains("\r\nAuthorization: Basic YmFzZTpzZWNyZXQ=\r\n"))
        #expect(request.contains("\r\nUser-Agent: NTRIP "))
        let status = client.status
        #expect(status.isConnected && status.connections == 1)
        #expect(status.frames == TestFrames.stream.count)
        #expect(status.stationID == 2003)
        #expect(status.stationLatitude.map { abs($0 - 49.144_200) < 1e-6 } == true, "\(status.stationLatitude ?? 0)")
        #expect(status.skippedBytes == 17 + 5, "the sentence, and the frame cut off at the end")
        #expect(status.ageSeconds.map { $0 < 5 } == true)
    }

    @Test("NTRIP 1: an HTTP/1.0 request without NTRIP 2's headers; ICY 200 OK and the raw stream")
    func version1() throws {
        let caster = try FakeCaster(.version1, stream: Self.stream)
        defer { caster.stop() }
        let (client, frames) = Self.client(caster, version: 1, user: nil)
        client.start()
        defer { client.stop() }
        #expect(waitUntil(timeout: .seconds(10)) { frames.withLock { $0.count } == TestFrames.stream.count })
        #expect(frames.withLock { $0 } == TestFrames.stream, "the frames handed on differ")
        let request = try #require(caster.requests.first)
        #expect(request == "GET /TEST HTTP/1.0\r\nUser-Agent: NTRIP swift-nmea\r\n\r\n")
    }

    @Test("GGA: the first at once, then every interval, never more often than every 5 s")
    func positionAtItsInterval() throws {
        let caster = try FakeCaster(.version1, stream: Self.stream)
        defer { caster.stop() }
        var fix = Fix()
        fix.time = UTCTime(hour: 12, minute: 0, second: 0)
        fix.latitude = 48.1
        fix.longitude = 11.5
        fix.mode = .threeD
        fix.quality = .gps
        let sentence = try #require(PositionReport.gga(fix))
        // Asked for every second: held to every 5 s.
        let (client, _) = Self.client(caster, gga: .seconds(1), position: { sentence })
        client.start()
        #expect(waitUntil(timeout: .seconds(20)) { caster.sentences.count >= 3 })
        client.stop()
        let sent = caster.sentences
        #expect(sent.allSatisfy { $0.text + "\r\n" == String(decoding: sentence, as: UTF8.self) })
        for (earlier, later) in zip(sent, sent.dropFirst()) {
            let gap = Double((later.at - earlier.at).nanosecondsClamped) / 1e9
            #expect(gap > 4.8 && gap < 6, "\(gap) s between GGAs")
        }
        #expect(client.status.ggaSent == sent.count)
    }

    @Test("a refused login before any data ends the client, saying what to check; nothing is retried")
    func refusedLogin() throws {
        let caster = try FakeCaster(.refuse("401 Unauthorized"))
        defer { caster.stop() }
        let (client, _) = Self.client(caster)
        client.start()
        defer { client.stop() }
        #expect(waitUntil(timeout: .seconds(10)) { client.hasEnded })
        let failure = try #require(client.failure)
        #expect(failure.contains("refused the login (401 Unauthorized)"))
        #expect(failure.contains("--ntrip-password-file"))
        sleep(for: .seconds(1))
        #expect(caster.requests.count == 1)
    }

    @Test("a mount the caster does not have: its sourcetable comes back, and the client ends naming the command")
    func unknownMount() throws {
        let caster = try FakeCaster(.sourcetable("STR;OTHER;;RTCM 3.2;;2;GPS;;;0;0;0;0;;none;N;N;0;\r\n"))
        defer { caster.stop() }
        let (client, _) = Self.client(caster)
        client.start()
        defer { client.stop() }
        #expect(waitUntil(timeout: .seconds(10)) { client.hasEnded })
        #expect(client.failure?.contains("has no mount point 'TEST'") == true, "\(client.failure ?? "")")
        #expect(client.failure?.contains("nmea ntrip sources") == true)
    }

    @Test("a caster that drops the client: it connects again after the backoff; no frame handed on twice")
    func reconnects() throws {
        let caster = try FakeCaster(.version2(chunk: 500), stream: Self.stream, dropsAfterStream: true)
        defer { caster.stop() }
        let (client, frames) = Self.client(caster)
        client.start()
        defer { client.stop() }
        #expect(waitUntil(timeout: .seconds(10)) { frames.withLock { $0.count } >= 3 * TestFrames.stream.count })
        client.stop()
        let received = frames.withLock { $0 }
        let whole = received.count / TestFrames.stream.count
        let expected = Array(repeating: TestFrames.stream, count: whole).flatMap { $0 }
        #expect(Array(received.prefix(whole * TestFrames.stream.count)) == expected, "frames repeated or lost")
        #expect(client.status.connections >= 3)
        #expect(caster.requests.count == client.status.connections)
    }
}
