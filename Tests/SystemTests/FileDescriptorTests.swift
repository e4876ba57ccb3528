import Glibc
import System
import Testing
import Threading

/// The descriptor layer on real pipes, files and sockets.
@Suite struct FileDescriptorTests {
    @Test func aPipeCarriesBytesAndEndsWithEndOfFile() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? readEnd.close() }
        try writeEnd.writeAll(Array("hello".utf8))
        try writeEnd.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try readEnd.readAll(into: $0) }
        #expect(Array(buffer[..<count]) == Array("hello".utf8))
        #expect(try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) } == 0)
    }

    @Test func writeAllWaitsForANonBlockingPipeToDrain() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        try writeEnd.setNonBlocking(true)
        let total = 1 << 20  // far more than a pipe holds (64 KiB)
        let reader = NativeThread {
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while let count = buffer.withUnsafeMutableBytes({ try? readEnd.read(into: $0) }), count > 0 {
                received += count
            }
            try? readEnd.close()
            #expect(received == total)
        }
        let bytes = (0..<total).map { UInt8(truncatingIfNeeded: $0) }
        try writeEnd.writeAll(bytes)
        try writeEnd.close()
        reader.join()
    }

    @Test func positionedReadsAndWritesResizeAndStatus() throws {
        var template = Array("/tmp/nmea-system-XXXXXX".utf8CString)
        let descriptor = FileDescriptor(rawValue: template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) })
        unlink(String(cString: template))
        defer { try? descriptor.close() }
        try descriptor.writeAll(Array("0123456789".utf8), toAbsoluteOffset: 0)
        try descriptor.writeAll(Array("ab".utf8), toAbsoluteOffset: 4)
        var buffer = [UInt8](repeating: 0, count: 10)
        #expect(try buffer.withUnsafeMutableBytes { try descriptor.readAll(into: $0, fromAbsoluteOffset: 0) } == 10)
        #expect(String(decoding: buffer, as: UTF8.self) == "0123ab6789")
        try descriptor.resize(to: 3)
        #expect(try descriptor.status().size == 3)
        #expect(try descriptor.status().kind == .regular)
        try descriptor.synchronizeData()
        try descriptor.synchronize()
    }

    @Test func failuresAreTypedErrnosWithTheSystemsText() throws {
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.open("/no/such/file", .readOnly) }
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect(Errno(rawValue: EACCES).description == "Permission denied")
        do {
            _ = try FileDescriptor.open("/", .readWrite)
            Issue.record("opened a directory for writing")
        } catch Errno.isDirectory {
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// An error that carries an `Errno` matches `catch Errno.x` too.
    @Test func anErrorCarryingAnErrnoMatchesItsPattern() {
        struct Wrapped: ErrnoCarrying { var errno: Errno? }
        let wrapped: any Error = Wrapped(errno: .resourceBusy)
        #expect(Errno.resourceBusy ~= wrapped)
        #expect(!(Errno.permissionDenied ~= wrapped))
        #expect(!(Errno.resourceBusy ~= Wrapped(errno: nil)))
    }

    @Test func pollSaysWhatHappenedAndTimesOut() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        #expect(try readEnd.poll(.readable, timeoutMilliseconds: 10).isEmpty)
        #expect(try writeEnd.poll(.writable, timeoutMilliseconds: 0) == .writable)
        try writeEnd.writeAll([1])
        let (first, second) = try FileDescriptor.poll(
            (readEnd, .readable), (writeEnd, .writable), timeoutMilliseconds: 0)
        #expect(first == .readable && second == .writable)
        var entries: [FileDescriptor.PollEntry] = [.init(nil, .readable), .init(readEnd, .readable)]
        #expect(try FileDescriptor.poll(&entries, timeoutMilliseconds: 0) == 1)
        #expect(entries[0].returned.isEmpty && entries[1].returned == .readable)
    }
}

/// The one EINTR retry: a read interrupted by a signal goes on waiting, where the raw call gives up.
@Suite(.serialized) struct InterruptionTests {
    /// Installs a SIGUSR1 handler without `SA_RESTART`, so a blocking call the signal interrupts fails with EINTR.
    static func installHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGUSR1, &action, nil)
    }

    /// Starts a thread that takes SIGUSR1 and runs `body` (a blocking read); interrupts it every 10 ms until `body`
    /// returns; then writes one byte into the pipe so a retried read can finish.
    static func interrupt(reading body: @escaping @Sendable (FileDescriptor) -> Int) throws -> Int {
        installHandler()
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        let result = Locked<Int?>(nil)
        let thread = Locked<pthread_t?>(nil)
        let reader = NativeThread {
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            thread.withLock { $0 = pthread_self() }
            let value = body(readEnd)
            result.withLock { $0 = value }
        }
        while thread.withLock({ $0 }) == nil { sleep(for: .milliseconds(1)) }
        for _ in 0..<20 where result.withLock({ $0 }) == nil {
            sleep(for: .milliseconds(10))
            pthread_kill(thread.withLock { $0 }!, SIGUSR1)
        }
        try writeEnd.writeAll([42])
        reader.join()
        return result.withLock { $0 }!
    }

    @Test func theRawCallFailsWithEINTR() throws {
        // The positive control: without the retry the signal ends the read.
        let outcome = try Self.interrupt { descriptor in
            var byte: UInt8 = 0
            let count = read(descriptor.rawValue, &byte, 1)
            return count < 0 ? -Int(errno) : count
        }
        #expect(outcome == -Int(EINTR))
    }

    @Test func theSystemLayerRetriesAndGetsTheByte() throws {
        let outcome = try Self.interrupt { descriptor in
            var byte: UInt8 = 0
            let count = (try? withUnsafeMutableBytes(of: &byte) { try descriptor.read(into: $0) }) ?? -1
            return count == 1 ? Int(byte) : -1
        }
        #expect(outcome == 42)
    }
}
