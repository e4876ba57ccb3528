import Glibc
import System
import TestSupport
import Testing
import Threading

/// The helpers that let a test wait for an event: blocked threads, socket and pipe queues, a relay that shows a
/// protocol exchange, the history of a directory, and waiting from an async test.
@Suite struct EventsTests {
    @Test func aThreadBlockedInAReadIsSeenBlockedAndARunningOneIsNot() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        let id = Locked<pid_t?>(nil)
        let reader = NativeThread {
            id.withLock { $0 = Threads.currentID }
            var byte: UInt8 = 0
            _ = try? withUnsafeMutableBytes(of: &byte) { try readEnd.read(into: $0) }
        }
        let thread = try #require(waitFor(timeout: .seconds(10)) { id.withLock { $0 } })
        #expect(thread != Threads.currentID)
        #expect(Threads.ids(in: getpid()).contains(thread))
        #expect(waitUntil(timeout: .seconds(10)) { Threads.isBlocked(thread) })
        try writeEnd.writeAll([1])
        reader.join()
        #expect(!Threads.isBlocked(thread))  // gone
        // The calling thread runs while it asks.
        #expect(!Threads.isBlocked(Threads.currentID))
        // A child waiting for input, all of it blocked; one that is gone is not.
        let cat = try ChildProcess(["cat"], input: .pipe)
        #expect(waitUntil(timeout: .seconds(10)) { Threads.allBlocked(in: cat.pid) })
        cat.closeInput()
        #expect(cat.wait(timeout: .seconds(10)) == 0)
        #expect(!Threads.allBlocked(in: cat.pid))
    }

    @Test func socketQueuesShowWhatThePeerHasNotReadYet() throws {
        let listener = try FileDescriptor.socket(family: AF_INET)
        defer { try? listener.close() }
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        let port = Int(try listener.localAddress().port)
        #expect(Ports.tcpSockets().contains { $0.localPort == port && $0.state == .listen && $0.receiveQueue == 0 })
        let client = try FileDescriptor.socket(family: AF_INET)
        defer { try? client.close() }
        try client.connect(to: .loopback(port: UInt16(port)))
        // Not accepted yet: one connection waits on the listener.
        #expect(Ports.tcpSockets().contains { $0.localPort == port && $0.state == .listen && $0.receiveQueue == 1 })
        let server = try listener.accept()
        defer { try? server.close() }
        #expect(Ports.tcpSockets().contains { $0.localPort == port && $0.state == .listen && $0.receiveQueue == 0 })
        try client.sendAll(Array("twelve bytes".utf8))
        func serverSide() -> Ports.TCPSocket? {
            Ports.tcpSockets().first { $0.localPort == port && $0.state == .established }
        }
        #expect(waitUntil(timeout: .seconds(10)) { serverSide()?.receiveQueue == 12 })
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try buffer.withUnsafeMutableBytes { try server.receive(into: $0) } == 12)
        #expect(serverSide()?.receiveQueue == 0)
        #expect(Ports.tcpSockets().contains { $0.remotePort == port && $0.state == .established })

        // UDP: a datagram waits until it is read.
        let udp = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? udp.close() }
        try udp.bind(to: .loopback(port: 0))
        let udpPort = Int(try udp.localAddress().port)
        #expect(Ports.udpReceiveQueue(udpPort) == 0)
        let sender = try FileDescriptor.socket(family: AF_INET, type: Int32(SOCK_DGRAM.rawValue))
        defer { try? sender.close() }
        try sender.connect(to: .loopback(port: UInt16(udpPort)))
        try sender.sendAll(Array("datagram".utf8))
        #expect((Ports.udpReceiveQueue(udpPort) ?? 0) > 0)
        _ = try buffer.withUnsafeMutableBytes { try udp.receive(into: $0) }
        #expect(Ports.udpReceiveQueue(udpPort) == 0)
        #expect(Ports.udpReceiveQueue(Ports.freeUDP()) == nil)
    }

    @Test func aPipeTellsWhatIsUnread() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        #expect(unreadBytes(in: readEnd) == 0)
        try writeEnd.writeAll([1, 2, 3])
        #expect(unreadBytes(in: readEnd) == 3)
        var buffer = [UInt8](repeating: 0, count: 8)
        _ = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(unreadBytes(in: readEnd) == 0)
    }

    @Test func aRelayPassesBothWaysKeepsWhatPassedAndPassesTheEnds() throws {
        let listener = try FileDescriptor.socket(family: AF_INET)
        defer { try? listener.close() }
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        let relay = try TCPRelay(to: try listener.localAddress().port)
        defer { relay.stop() }
        let client = try LineClient(port: relay.port)
        #expect(client.send("?WATCH;\n"))
        let server = try listener.accept()
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try server.poll(.readable, timeoutMilliseconds: 10_000) == .readable)
        let count = try buffer.withUnsafeMutableBytes { try server.receive(into: $0) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "?WATCH;\n")
        try server.sendAll(Array("{\"class\":\"WATCH\"}\r\n".utf8))
        #expect(client.read(until: { $0 == ["{\"class\":\"WATCH\"}"] }))
        #expect(relay.fromClient == "?WATCH;\n")
        #expect(relay.fromServer == "{\"class\":\"WATCH\"}\r\n")
        // The server hangs up: so does the relay, towards the client.
        try server.close()
        #expect(client.readUntilClosed())
    }

    @Test func aDirectoryWatchKeepsEveryNameMadeEvenWhenRemovedOrRenamed() throws {
        let directory = TemporaryDirectory("watched")
        defer { directory.remove() }
        let watch = try DirectoryWatch(directory.path)
        #expect(watch.createdNames() == [])
        directory.write("x", to: "first.tmp")
        #expect(rename(directory.file("first.tmp"), directory.file("first.gpx")) == 0)
        #expect(unlink(directory.file("first.gpx")) == 0)
        directory.write("y", to: "second")
        #expect(watch.createdNames() == ["first.tmp", "first.gpx", "second"])
        #expect(Directory.entries(directory.path) == ["second"])
    }

    @Test func anAsyncTestWaitsBySuspendingItsTask() async {
        let flag = Locked(false)
        let setter = Task {
            flag.withLock { $0 = true }
        }
        #expect(await suspendUntil(timeout: .seconds(10)) { flag.withLock { $0 } })
        await setter.value
        let start = MonotonicTime.now()
        #expect(!(await suspendUntil(timeout: .milliseconds(50)) { false }))
        #expect(start.elapsed >= .milliseconds(50))
    }
}
