import Glibc
import System
import Testing

@Suite struct SocketTests {
    @Test func aLoopbackConnectionCarriesBytesBothWays() throws {
        let listener = try FileDescriptor.socket(family: AF_INET, nonBlocking: true)
        defer { try? listener.close() }
        try listener.setOption(.reuseAddress, 1)
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        let bound = try #require(try listener.localAddress().numeric)
        #expect(bound.host == "127.0.0.1" && bound.port > 0)
        #expect(throws: Errno.wouldBlock) { try listener.accept() }

        let client = try FileDescriptor.socket(family: AF_INET)
        defer { try? client.close() }
        try client.connect(to: .loopback(port: bound.port), timeoutMilliseconds: 2_000)
        #expect(try listener.poll(.readable, timeoutMilliseconds: 2_000) == .readable)
        let server = try listener.accept(nonBlocking: true)
        defer { try? server.close() }
        try client.setOption(.noDelay, 1)
        #expect(try client.option(.noDelay) != 0)
        try client.sendAll(Array("?WATCH;\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try server.poll(.readable, timeoutMilliseconds: 2_000) == .readable)
        let count = try buffer.withUnsafeMutableBytes { try server.receive(into: $0) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "?WATCH;\n")
        try server.shutdown(.write)
        #expect(try client.poll(.readable, timeoutMilliseconds: 2_000).contains(.readable))
        #expect(try buffer.withUnsafeMutableBytes { try client.receive(into: $0) } == 0)
        #expect(try server.socketError() == nil)
    }

    @Test func aRefusedConnectionIsItsErrno() throws {
        let probe = try FileDescriptor.socket(family: AF_INET)
        try probe.bind(to: .loopback(port: 0))
        let port = try #require(try probe.localAddress().numeric?.port)
        try probe.close()  // nothing listens there now
        let client = try FileDescriptor.socket(family: AF_INET, nonBlocking: true)
        defer { try? client.close() }
        #expect(throws: Errno.connectionRefused) {
            try client.connect(to: .loopback(port: port), timeoutMilliseconds: 2_000)
        }
    }

    @Test func namesResolveAndFailuresSayWhy() throws {
        let numeric = try SocketAddress.resolve(host: "127.0.0.1", port: 2947)
        #expect(numeric.first?.family == AF_INET)
        #expect(numeric.first.flatMap { $0.address.numeric?.port } == 2947)
        let passive = try SocketAddress.resolve(host: nil, port: 0, passive: true)
        #expect(!passive.isEmpty)
        #expect(SocketAddress(ipv4: "not an address", port: 1) == nil)
        do {
            _ = try SocketAddress.resolve(host: "no-such-host.invalid", port: 1)
            Issue.record("resolved a .invalid name")
        } catch {
            #expect(!error.description.isEmpty)
        }
    }
}

@Suite struct DirectoryTests {
    @Test func createListAndRemoveATree() throws {
        let root = "/tmp/nmea-directory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Directory.create(root + "/a/b/c")
        try Directory.create(root + "/a/b/c")  // again: fine
        let file = try FileDescriptor.open(root + "/a/file", .writeOnly, options: [.create, .closeOnExec])
        try file.close()
        symlink("/", root + "/a/link")
        #expect(Set(Directory.entries(root + "/a")) == ["b", "file", "link"])
        #expect(throws: Directory.CreationError(path: root + "/a/file/x", errno: .notDirectory)) {
            try Directory.create(root + "/a/file/x")
        }
        Directory.removeTree(root)
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileStatus(path: root) }
        #expect(try FileStatus(path: "/").kind == .directory)  // the link was removed, not followed
    }
}
