import Glibc
import System
import TestSupport
import Testing
import Threading

/// A line protocol for the core's tests: a greeting on connect, each line echoed, `quit` answered with a long reply
/// and a close once it is sent, lines posted from the test thread to every client, an idle deadline and a tick.
private final class Scripted: TCPServerHandler {
    struct Options: Sendable {
        var greeting: String?
        var refusal: String?
        var idleDeadline: Duration?
        var tickInterval: Duration?
        /// Lines of 63 characters in the reply to `quit`, then `end`.
        var quitReplyLines = 16_384
        /// How long the reply to `quit` may take to be sent and read; `nil` for as long as the client reads.
        var quitDeadline: Duration?
    }

    struct Shared {
        var outbox: [String] = []
        var stopping = false
        var statistics = TCPServerStatistics()
        var deadlinesPassed = 0
        var ticks = 0
    }

    let options: Options
    let shared: Locked<Shared>

    init(options: Options, shared: Locked<Shared>) {
        self.options = options
        self.shared = shared
    }

    func makeSession() {}

    func connected(_ connection: Connection, on server: Server) {
        if let greeting = options.greeting { server.send(line(greeting), to: connection) }
        if let idle = options.idleDeadline { connection.deadline = MonotonicTime.now() + idle }
    }

    func refusal(on server: Server) -> [UInt8]? { options.refusal.map { Array(($0 + "\n").utf8) } }

    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
        connection.input.append(contentsOf: bytes)
        while connection.isOpen, let newline = connection.input.firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: connection.input[..<newline], as: UTF8.self)
            connection.input.removeFirst(newline + 1)
            if text == "quit" {
                let filler = line(String(repeating: "x", count: 63))
                for _ in 0..<options.quitReplyLines { server.send(filler, to: connection) }
                server.send(line("end"), to: connection)
                server.closeAfterSending(connection, deadline: options.quitDeadline.map { MonotonicTime.now() + $0 })
            } else {
                server.send(line(text), to: connection)
            }
        }
    }

    func woken(_ server: Server) -> Bool {
        var posted: [String] = []
        let stopping = shared.withLock { state in
            swap(&posted, &state.outbox)
            return state.stopping
        }
        for text in posted { server.broadcast(line(text)) { _ in true } }
        return !stopping
    }

    func deadlinePassed(_ connection: Connection, on server: Server) {
        shared.withLock { $0.deadlinesPassed += 1 }
        server.send(line("idle"), to: connection)
        server.closeAfterSending(connection, deadline: nil)
    }

    func tick(_ server: Server) {
        shared.withLock { $0.ticks += 1 }
        if let interval = options.tickInterval { server.nextTick = MonotonicTime.now() + interval }
    }

    func roundEnded(_ server: Server) {
        let statistics = server.statistics
        shared.withLock { $0.statistics = statistics }
    }

    private func line(_ text: String) -> SharedBytes { SharedBytes.line(Array((text + "\n").utf8), lineEnding: false) }
}

/// A core serving ``Scripted`` on 127.0.0.1 on a thread of its own.
private final class Served {
    let shared = Locked(Scripted.Shared())
    let wakeUp = WakeUp()
    let listener: FileDescriptor
    let port: UInt16
    private var thread: NativeThread?

    init(_ configuration: TCPServerConfiguration = .init(), _ options: Scripted.Options = .init()) throws {
        let socket = try ListeningSocket.open(ListenAddress(host: "127.0.0.1", port: 0))
        listener = socket.descriptor
        port = socket.bound.port
        let (listener, wakeUp, shared) = (listener, wakeUp, shared)
        thread = NativeThread(name: "core-test") {
            let core = TCPServerCore(
                listener: listener, wakeUp: wakeUp, configuration: configuration,
                handler: Scripted(options: options, shared: shared))
            core.nextTick = options.tickInterval.map { MonotonicTime.now() + $0 }
            core.run()
        }
    }

    var statistics: TCPServerStatistics { shared.withLock { $0.statistics } }

    /// Hands `lines` to the core, which sends each to every client.
    func post(_ lines: [String]) {
        shared.withLock { $0.outbox += lines }
        wakeUp.signal()
    }

    deinit {
        shared.withLock { $0.stopping = true }
        wakeUp.signal()
        thread?.join()
        try? listener.close()
    }
}

/// `n` in four digits, zeros first.
private func fourDigits(_ n: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

@Suite(.serialized) struct TCPServerCoreTests {
    @Test func clientsBeyondTheLimitAreToldWhyAndClosedAndAFreedSlotIsTaken() throws {
        var configuration = TCPServerConfiguration()
        configuration.maxConnections = 2
        let served = try Served(configuration, .init(greeting: "hello", refusal: "busy"))
        let first = try LineClient(port: served.port)
        let second = try LineClient(port: served.port)
        #expect(first.read(until: { $0 == ["hello"] }))
        #expect(second.read(until: { $0 == ["hello"] }))
        let third = try LineClient(port: served.port)
        #expect(third.readUntilClosed())
        #expect(third.lines == ["busy"])
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.refused == 1 })
        #expect(served.statistics.accepted == 2)
        // The two still get answers; once one leaves, the next is served.
        #expect(second.send("ping\n") && second.read(until: { $0 == ["hello", "ping"] }))
        try first.descriptor.shutdown(.write)
        #expect(first.readUntilClosed())
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 1 })
        let fourth = try LineClient(port: served.port)
        #expect(fourth.read(until: { $0 == ["hello"] }))
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.accepted == 3 })
        #expect(served.statistics.refused == 1)
    }

    @Test func withoutARefusalAClientBeyondTheLimitIsClosedAtOnce() throws {
        var configuration = TCPServerConfiguration()
        configuration.maxConnections = 1
        let served = try Served(configuration, .init(greeting: "hello"))
        let first = try LineClient(port: served.port)
        #expect(first.read(until: { $0 == ["hello"] }))
        let second = try LineClient(port: served.port)
        #expect(second.readUntilClosed())
        #expect(second.lines.isEmpty)
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.refused == 1 })
        #expect(!first.closedByPeer)
    }

    @Test func aClientThatStopsReadingIsDisconnectedAtTheQueueBoundAndTheOthersGetEverything() throws {
        var configuration = TCPServerConfiguration()
        configuration.queueLimit = 64 * 1024
        configuration.socketSendBufferSize = 16 * 1024
        let served = try Served(configuration)
        let reader = try LineClient(port: served.port)
        let stuck = try LineClient(port: served.port, receiveBuffer: 4096)
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 2 })
        // 64 rounds of 16 lines of 1 KiB (1 MiB): the reader takes each round before the next.
        let padding = String(repeating: "p", count: 1019)
        for round in 0..<64 {
            served.post((0..<16).map { fourDigits(round * 16 + $0) + padding })
            #expect(reader.read(until: { $0.count == (round + 1) * 16 }))
        }
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.disconnectedSlow == 1 })
        #expect(stuck.readUntilClosed(timeout: .seconds(10)))
        #expect(reader.lines.map { String($0.prefix(4)) } == (0..<1024).map(fourDigits))
        #expect(!reader.closedByPeer)
        #expect(served.statistics.connections == 1)
    }

    @Test func deadlinesCloseAnIdleClientAfterItsLastWordsAndTheTickRuns() throws {
        let served = try Served(.init(), .init(idleDeadline: .milliseconds(200), tickInterval: .milliseconds(20)))
        let start = MonotonicTime.now()
        let idle = try LineClient(port: served.port)
        #expect(idle.readUntilClosed())
        #expect(idle.lines == ["idle"])
        #expect(MonotonicTime.now() - start >= .milliseconds(200))
        #expect(waitUntil(timeout: .seconds(5)) { served.shared.withLock { $0.deadlinesPassed } == 1 })
        #expect(waitUntil(timeout: .seconds(5)) { served.shared.withLock { $0.ticks } >= 3 })
    }

    @Test func aQueueLeftUnsentPastTheWriteTimeoutIsCut() throws {
        var configuration = TCPServerConfiguration()
        configuration.writeTimeout = .milliseconds(300)
        configuration.socketSendBufferSize = 16 * 1024
        let served = try Served(configuration)
        let stuck = try LineClient(port: served.port, receiveBuffer: 4096)
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 1 })
        // 256 KiB: far more than the socket buffers hold, so the queue cannot drain while nobody reads.
        served.post(Array(repeating: String(repeating: "w", count: 1023), count: 256))
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.writeTimeouts == 1 })
        #expect(stuck.readUntilClosed(timeout: .seconds(10)))
        #expect(served.statistics.connections == 0)
        #expect(served.statistics.disconnectedSlow == 0)
    }

    @Test func aClosingClientGetsItsLastBytesThenTheEndAndIsDrainedUntilItCloses() throws {
        var configuration = TCPServerConfiguration()
        configuration.closingGracePeriod = .seconds(60)  // so that only the client's own close ends the draining
        let served = try Served(configuration, .init(quitReplyLines: 16_384))
        let client = try LineClient(port: served.port)
        // More after `quit`: read and dropped (never answered) while the reply (1 MiB, far beyond the socket
        // buffers) goes out.
        #expect(client.send("quit\n" + String(repeating: "more words\n", count: 6_000)))
        #expect(client.readUntilClosed(timeout: .seconds(20)))
        #expect(client.lines.count == 16_385)
        #expect(client.lines.last == "end")
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.bytesSent == 16_384 * 64 + 4 })
        // Its write side is shut down; the server still reads what it says, so that nothing it sends late makes the
        // kernel reset the connection, until it closes its side.
        #expect(served.statistics.connections == 1)
        #expect(client.send("still talking\n"))
        try client.descriptor.shutdown(.write)
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 0 })
    }

    @Test func aClosingClientThatDoesNotReadIsClosedAtItsDeadline() throws {
        var configuration = TCPServerConfiguration()
        configuration.socketSendBufferSize = 16 * 1024
        let served = try Served(configuration, .init(quitDeadline: .milliseconds(200)))
        let client = try LineClient(port: served.port, receiveBuffer: 4096)
        #expect(client.send("quit\n"))
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.accepted == 1 })
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 0 })
        #expect(client.readUntilClosed(timeout: .seconds(10)))
        #expect(client.lines.count < 16_385)
        #expect(served.statistics.disconnectedSlow == 0 && served.statistics.writeTimeouts == 0)
    }

    @Test func oneBufferFansOutToManyClientsInOrder() throws {
        var configuration = TCPServerConfiguration()
        configuration.maxConnections = 64
        let served = try Served(configuration)
        let clients = try (0..<50).map { _ in try LineClient(port: served.port) }
        #expect(waitUntil(timeout: .seconds(5)) { served.statistics.connections == 50 })
        let expected = (0..<200).map { "line \($0)" }
        for batch in 0..<4 { served.post(Array(expected[(batch * 50)..<(batch * 50 + 50)])) }
        for client in clients {
            #expect(client.read(until: { $0.count >= expected.count }))
            #expect(client.lines == expected)
        }
        #expect(
            waitUntil(timeout: .seconds(5)) {
                served.statistics.bytesSent == 50 * expected.joined().utf8.count + 50 * 200
            })
        #expect(served.statistics.accepted == 50)
    }
}
