import Glibc
import NMEA
import Pipeline
import Simulation
import System
import TestSupport
import Testing
import Threading

/// What a byte source said, timeouts left out.
enum SourceEvent: Equatable, CustomStringConvertible {
    case bytes(String)
    case status(String)
    case end(ReceiverStatus.Reason)

    var description: String {
        switch self {
        case .bytes(let text): "bytes(\(text.debugDescription))"
        case .status(let text): "status(\(text))"
        case .end(let reason): "end(\(reason))"
        }
    }
}

/// Reads `source` until it ends or `timeout` passes; consecutive bytes are joined (TCP has no message boundaries)
/// unless `joiningBytes` is off (UDP: one read, one datagram).
func events(
    of source: inout some ByteSource, timeout: Duration = .seconds(10), joiningBytes: Bool = true,
    until stop: ([SourceEvent]) -> Bool = { _ in false }
) -> [SourceEvent] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    defer { buffer.deallocate() }
    var seen: [SourceEvent] = []
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline && !stop(seen) {
        switch source.read(into: buffer, timeout: .milliseconds(50)) {
        case .bytes(let count):
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            if joiningBytes, case .bytes(let before)? = seen.last {
                seen[seen.count - 1] = .bytes(before + text)
            } else {
                seen.append(.bytes(text))
            }
        case .timedOut: continue
        case .status(let status): seen.append(.status(status.summary))
        case .end(let reason):
            seen.append(.end(reason))
            return seen
        }
    }
    return seen
}

/// A TCP listener on 127.0.0.1 (a free port) for a peer played by the test.
final class TestListener: @unchecked Sendable {
    let descriptor: FileDescriptor
    let port: UInt16

    /// Listens on `port` (0: any free one).
    init(port: UInt16 = 0) throws {
        descriptor = try FileDescriptor.socket(family: AF_INET)
        try descriptor.setOption(.reuseAddress, 1)
        try descriptor.bind(to: .loopback(port: port))
        try descriptor.listen()
        self.port = try descriptor.localAddress().port
    }

    /// Accepts one connection (waiting at most 10 s).
    func accept() throws -> FileDescriptor {
        guard try !descriptor.poll(.readable, timeoutMilliseconds: 10_000).isEmpty else { throw Errno.timedOut }
        return try descriptor.accept()
    }

    deinit { try? descriptor.close() }
}

/// A port on 127.0.0.1 nothing listens on (it was bound and closed).
func closedPort() throws -> UInt16 {
    let listener = try TestListener()
    return listener.port
}

@Suite struct NetworkSourceAddressTests {
    @Test func sourceURLsParseIntoSchemeHostAndPort() throws {
        let cases: [(String, NetworkSourceAddress)] = [
            ("tcp://127.0.0.1:2000", .init(scheme: .tcp, host: "127.0.0.1", port: 2000)),
            ("tcp://gps.local:10110/", .init(scheme: .tcp, host: "gps.local", port: 10110)),
            ("tcp://[::1]:2000", .init(scheme: .tcp, host: "::1", port: 2000)),
            ("udp://", .init(scheme: .udp, host: nil, port: 10110)),
            ("udp://:4000", .init(scheme: .udp, host: nil, port: 4000)),
            ("udp://4000", .init(scheme: .udp, host: nil, port: 4000)),
            ("udp://239.1.2.3:10110", .init(scheme: .udp, host: "239.1.2.3", port: 10110)),
            ("udp://192.168.1.255", .init(scheme: .udp, host: "192.168.1.255", port: 10110)),
            ("gpsd://localhost", .init(scheme: .gpsd, host: "localhost", port: 2947)),
            ("gpsd://[::1]:2948", .init(scheme: .gpsd, host: "::1", port: 2948)),
        ]
        for (text, expected) in cases {
            #expect(try NetworkSourceAddress.parse(text) == expected, "\(text)")
        }
        #expect(try NetworkSourceAddress.parse("tcp://[::1]:2000")?.description == "tcp://[::1]:2000")
        #expect(try NetworkSourceAddress.parse("udp://")?.description == "udp://:10110")
        #expect(try NetworkSourceAddress.parse("/dev/ttyACM0") == nil)
        #expect(try NetworkSourceAddress.parse("-") == nil)
        #expect(try NetworkSourceAddress.parse("http://x:1") == nil)
    }

    @Test func malformedSourceURLsSayWhatIsExpected() {
        let cases = [
            ("tcp://host", "expected tcp://HOST:PORT"), ("tcp://:2000", "expected tcp://HOST:PORT"),
            ("tcp://", "expected tcp://HOST:PORT"), ("tcp://host:0", "port 0 cannot be connected to"),
            ("tcp://host:70000", "expected tcp://HOST:PORT"), ("gpsd://", "expected gpsd://HOST or gpsd://HOST:PORT"),
            ("gpsd://:2947", "expected gpsd://HOST or gpsd://HOST:PORT"),
            ("udp://[::1", "expected udp://[ADDR]:PORT, udp://:PORT or udp://"),
        ]
        for (text, reason) in cases {
            #expect(throws: NetworkSourceAddress.ParseError(text: text, reason: reason), "\(text)") {
                try NetworkSourceAddress.parse(text)
            }
        }
    }
}

@Suite(.serialized) struct TCPByteSourceTests {
    static let sentences = "$GPTXT,01,01,02,one*29\r\n$GPTXT,01,01,02,two*21\r\n"

    @Test func readsUntilThePeerClosesWhenNotReconnecting() throws {
        let listener = try TestListener()
        let peer = TestThread {
            guard let connection = try? listener.accept() else { return }
            try? connection.sendAll(Array(Self.sentences.utf8))
            try? connection.close()
        }
        defer { peer.join() }
        var options = TCPByteSource.Options()
        options.reconnects = false
        let failure = Locked<String?>(nil)
        var source = TCPByteSource(
            .init(scheme: .tcp, host: "127.0.0.1", port: listener.port), options: options, failure: failure)
        let name = "tcp://127.0.0.1:\(listener.port)"
        #expect(
            events(of: &source) == [
                .status("\(name): connecting"), .status("\(name): connected"), .bytes(Self.sentences),
                .status("\(name): disconnected (end of file); waiting for it to come back"), .end(.endOfFile),
            ])
        #expect(failure.withLock { $0 } == nil)
    }

    @Test func anIPv6PeerIsReadToo() throws {
        let listener = try FileDescriptor.socket(family: AF_INET6)
        defer { try? listener.close() }
        let loopback = try #require(try SocketAddress.resolve(host: "::1", port: 0).first)
        try listener.bind(to: loopback.address)
        try listener.listen()
        let port = try listener.localAddress().port
        let peer = TestThread {
            guard (try? listener.poll(.readable, timeoutMilliseconds: 10_000))?.isEmpty == false,
                let connection = try? listener.accept()
            else { return }
            try? connection.sendAll(Array(Self.sentences.utf8))
            try? connection.close()
        }
        defer { peer.join() }
        guard var source = try NetworkSourceAddress.parse("tcp://[::1]:\(port)")?.makeByteSource(reconnects: false)
        else { return }
        let seen = events(of: &source)
        #expect(seen.first == .status("tcp://[::1]:\(port): connecting"))
        #expect(seen.count == 5 && seen[2] == .bytes(Self.sentences), "\(seen)")
    }

    @Test func aRefusedConnectionEndsTheSourceWithItsReasonWhenNotReconnecting() throws {
        let port = try closedPort()
        var options = TCPByteSource.Options()
        options.reconnects = false
        let failure = Locked<String?>(nil)
        var source = TCPByteSource(
            .init(scheme: .tcp, host: "127.0.0.1", port: port), options: options, failure: failure)
        let message = "tcp://127.0.0.1:\(port): Connection refused"
        #expect(
            events(of: &source) == [.status("tcp://127.0.0.1:\(port): connecting"), .status(message), .end(.failed)])
        #expect(failure.withLock { $0 } == message)
    }

    @Test func aRefusedConnectionIsTriedAgainWithBackoffUntilThePeerListens() throws {
        let port = try closedPort()
        var source = TCPByteSource(.init(scheme: .tcp, host: "127.0.0.1", port: port))
        let name = "tcp://127.0.0.1:\(port)"
        // Refused twice: 0.5 s, then 1 s (±10 %) before the next attempt.
        let refused = events(of: &source, timeout: .seconds(5)) { seen in seen.count >= 3 }
        #expect(
            refused.map(\.description) == [
                "status(\(name): connecting)",
                "status(\(name): Connection refused; trying again in 0.5 s)",
                "status(\(name): Connection refused; trying again in 1 s)",
            ])
        // Someone listens now: the next attempt connects, and the peer hangs up once its sentences were read.
        let listener = try TestListener(port: port)
        let delivered = Locked(false)
        let peer = TestThread {
            guard let connection = try? listener.accept() else { return }
            try? connection.sendAll(Array(Self.sentences.utf8))
            waitUntil(timeout: .seconds(10)) { delivered.withLock { $0 } }
            try? connection.close()
        }
        defer { peer.join() }
        let connected = events(of: &source, timeout: .seconds(5)) { seen in
            if seen.contains(.bytes(Self.sentences)) { delivered.withLock { $0 = true } }
            return seen.count >= 3
        }
        #expect(
            connected == [
                .status("\(name): connected"), .bytes(Self.sentences),
                .status("\(name): connection closed by the peer; reconnecting in 0.5 s"),
            ])
    }

    @Test func aNameThatDoesNotResolveEndsTheSource() {
        let failure = Locked<String?>(nil)
        var source = TCPByteSource(.init(scheme: .tcp, host: "nosuch.invalid", port: 1), failure: failure)
        let seen = events(of: &source)
        #expect(seen.count == 3)
        #expect(seen.first == .status("tcp://nosuch.invalid:1: connecting"))
        #expect(seen.last == .end(.failed))
        let message = failure.withLock { $0 } ?? ""
        #expect(message.hasPrefix("cannot resolve 'nosuch.invalid' (tcp://nosuch.invalid:1): "))
        #expect(seen.count == 3 && seen[1] == .status(message))
    }

    /// gpsd's side: the WATCH command arrives, JSON lines are dropped (even one cut across two reads), sentences kept.
    @Test func aGpsdSourceAsksForTheSentencesAndSkipsTheJSON() throws {
        let listener = try TestListener()
        let received = Locked("")
        let parts = [
            #"{"class":"VERSION","release":"3.22"}"# + "\r\n$GPTXT,01,01,02,one*29\r\n{\"class\":\"DEV",
            "ICES\",\"devices\":[]}\r\n$GPTXT,01,01,02,two*21\r\n{\"class\":\"WATCH\"}\r\n",
        ]
        // The second part goes once the source has given out the first part's sentence: two reads, the JSON cut
        // between them.
        let firstRead = Locked(false)
        let peer = TestThread {
            guard let connection = try? listener.accept() else { return }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { (try? connection.receive(into: $0)) ?? 0 }
            received.withLock { $0 = String(decoding: buffer[..<count], as: UTF8.self) }
            try? connection.sendAll(Array(parts[0].utf8))
            waitUntil(timeout: .seconds(10)) { firstRead.withLock { $0 } }
            try? connection.sendAll(Array(parts[1].utf8))
            try? connection.close()
        }
        defer { peer.join() }
        guard
            var source = try NetworkSourceAddress.parse("gpsd://127.0.0.1:\(listener.port)")?
                .makeByteSource(reconnects: false)
        else { return }
        let seen = events(of: &source) { seen in
            if seen.contains(where: { if case .bytes(let text) = $0 { text.contains("one") } else { false } }) {
                firstRead.withLock { $0 = true }
            }
            return false
        }
        #expect(received.withLock { $0 } == #"?WATCH={"enable":true,"nmea":true}"# + "\n")
        #expect(seen.count == 5 && seen[2] == .bytes(Self.sentences), "\(seen)")
    }
}

@Suite(.serialized) struct UDPByteSourceTests {
    /// Sends `datagrams` to 127.0.0.1:`port`, one `send` each.
    static func send(_ datagrams: [String], to port: UInt16) throws {
        let socket = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? socket.close() }
        try socket.connect(to: .loopback(port: port))
        for datagram in datagrams { try socket.sendAll(Array(datagram.utf8)) }
    }

    @Test func eachDatagramIsReadWholeAndEndsInALineEnding() throws {
        let port = UInt16(Ports.freeUDP())
        var source = UDPByteSource(.init(scheme: .udp, host: "127.0.0.1", port: port))
        let name = "udp://127.0.0.1:\(port)"
        #expect(events(of: &source, timeout: .seconds(2)) { !$0.isEmpty } == [.status("\(name): listening")])
        let one = "$GPTXT,01,01,02,one*29\r\n"
        let several = "$GPTXT,01,01,02,two*21\r\n$GPTXT,01,01,02,one*29\r\n"
        let bare = "$GPTXT,01,01,02,two*21"
        try Self.send([one, several, bare], to: port)
        let seen = events(of: &source, timeout: .seconds(5), joiningBytes: false) { $0.count >= 3 }
        #expect(seen == [.bytes(one), .bytes(several), .bytes(bare + "\r\n")])
    }

    /// Datagrams sent faster than read: the kernel drops what its buffer cannot hold, and the source reports how many
    /// (every datagram is either read or counted).
    @Test func datagramsTheKernelDroppedAreCountedAndReported() throws {
        let port = UInt16(Ports.freeUDP())
        var source = UDPByteSource(.init(scheme: .udp, host: "127.0.0.1", port: port))
        #expect(events(of: &source, timeout: .seconds(2)) { !$0.isEmpty }.count == 1)
        let datagram = String(repeating: "x", count: 1000) + "\r\n"
        try Self.send(Array(repeating: datagram, count: 3000), to: port)
        // Whatever the kernel kept, read within 2 s.
        var seen = events(of: &source, timeout: .seconds(2), joiningBytes: false)
        // The kernel's count comes with the next datagram queued after the drops.
        try Self.send(["late\r\n"], to: port)
        seen += events(of: &source, timeout: .seconds(5), joiningBytes: false) { $0.contains(.bytes("late\r\n")) }
        seen += events(of: &source, timeout: .seconds(2), joiningBytes: false) { !$0.isEmpty }
        let received = seen.count { if case .bytes = $0 { true } else { false } }
        let dropped = Int(source.droppedDatagrams)
        #expect(dropped > 0)
        #expect(received + dropped == 3001)
        #expect(
            seen.last
                == .status(
                    "udp://127.0.0.1:\(port): listening; \(dropped) datagrams dropped by the kernel (they came faster "
                        + "than read)"))
    }

    @Test func aPortInUseEndsTheSourceWithItsReason() throws {
        let holder = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? holder.close() }
        try holder.bind(to: .loopback(port: 0))
        let port = try holder.localAddress().port
        let failure = Locked<String?>(nil)
        var source = UDPByteSource(.init(scheme: .udp, host: "127.0.0.1", port: port), failure: failure)
        let message = "cannot listen on udp://127.0.0.1:\(port): Address already in use"
        #expect(events(of: &source) == [.status(message), .end(.failed)])
        #expect(failure.withLock { $0 } == message)
    }

    /// Two listeners on one multicast group and port both get its datagrams (the port is shared).
    @Test(.enabled(if: UDPByteSourceTests.multicastWorks, "this host cannot route multicast on loopback"))
    func multicastGroupsAreJoinedAndShared() throws {
        let port = UInt16(Ports.freeUDP())
        let address = NetworkSourceAddress(scheme: .udp, host: "239.255.10.110", port: port)
        var first = UDPByteSource(address)
        var second = UDPByteSource(address)
        #expect(events(of: &first, timeout: .seconds(2)) { !$0.isEmpty }.count == 1)
        #expect(events(of: &second, timeout: .seconds(2)) { !$0.isEmpty }.count == 1)
        let socket = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? socket.close() }
        try socket.connect(to: SocketAddress(ipv4: "239.255.10.110", port: port)!)
        try socket.sendAll(Array("$GPTXT,01,01,02,one*29\r\n".utf8))
        #expect(events(of: &first, timeout: .seconds(3)) { !$0.isEmpty } == [.bytes("$GPTXT,01,01,02,one*29\r\n")])
        #expect(events(of: &second, timeout: .seconds(3)) { !$0.isEmpty } == [.bytes("$GPTXT,01,01,02,one*29\r\n")])
    }

    /// A multicast datagram can be sent here (a route for 224.0.0.0/4, as on any host with a default route).
    static let multicastWorks: Bool = {
        guard let socket = try? FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue)) else {
            return false
        }
        defer { try? socket.close() }
        return (try? socket.connect(to: SocketAddress(ipv4: "239.255.10.110", port: 9)!)) != nil
    }()
}

@Suite(.serialized) struct NetworkReceiverTests {
    /// A peer that serves two epochs, drops the connection, then serves two more: the pipeline reports the drop and
    /// the reconnection, and publishes every fix of both connections.
    @Test func aDroppedConnectionIsReportedAndMadeAgain() throws {
        let listener = try TestListener()
        let journey = EpochBytes(count: 4)
        let peer = TestThread {
            for connection in 0..<2 {
                guard let client = try? listener.accept() else { return }
                for index in (connection * 2)..<(connection * 2 + 2) {
                    try? client.sendAll(journey.epochs[index])
                    sleep(for: .milliseconds(50))  // pacing under test: a receiver sending an epoch every 50 ms
                }
                try? client.close()
            }
        }
        defer { peer.join() }
        let pipeline = ReceiverPipeline()
        let consumer = pipeline.makeConsumer(name: "test")
        let address = NetworkSourceAddress(scheme: .tcp, host: "127.0.0.1", port: listener.port)
        let receiver = NetworkReceiver(address, pipeline: pipeline)
        receiver.start()
        var statuses: [String] = []
        var fixes: [Fix] = []
        let done = waitUntil(timeout: .seconds(10)) {
            for record in drain(consumer).records {
                if let status = record.status { statuses.append(status.summary) }
                if let fix = record.fix, !fix.isProvisional { fixes.append(fix) }
            }
            return statuses.count >= 6
        }
        receiver.stop()
        #expect(done)
        let name = "tcp://127.0.0.1:\(listener.port)"
        #expect(
            statuses.prefix(6) == [
                "\(name): connecting", "\(name): connected",
                "\(name): connection closed by the peer; reconnecting in 0.5 s",
                "\(name): connecting", "\(name): reconnected",
                "\(name): connection closed by the peer; reconnecting in 0.5 s",
            ])
        #expect(fixes.map { $0.time?.second } == [0, 1, 2, 3])
        #expect(receiver.failure == nil)
    }
}

/// Simulated epochs, one second apart, as a receiver sends them.
struct EpochBytes {
    let epochs: [[UInt8]]

    init(count: Int) {
        let scenario = Scenario(rateHz: 1, legs: [.drive(seconds: Double(count), speedKmh: 40)], seed: 1)
        let writer = EpochWriter(profile: .rmcGGA)
        epochs = Array(scenario.fixes().prefix(count)).map { fix in
            var builder = SentenceBuilder()
            writer.write(fix, into: &builder)
            return builder.bytes
        }
    }
}
