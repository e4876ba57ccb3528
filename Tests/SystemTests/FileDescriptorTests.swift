import Glibc
import Synchronization
import System
import TestSupport
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

    /// Every descriptor `open` makes is close-on-exec, also when the options asked for leave it out; a child started
    /// meanwhile then cannot hold a script being written open for writing (a test's stub would be "text file busy").
    @Test func openedDescriptorsAreCloseOnExecWhateverTheOptions() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for options: FileDescriptor.OpenOptions in [[], [.create, .truncate], [.create, .closeOnExec]] {
            let file = try FileDescriptor.open(directory.file("file"), .writeOnly, options: options.union(.create))
            defer { try? file.close() }
            #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0, "\(options.rawValue)")
        }
        // A script just written by the test support runs at once.
        directory.write("#!/bin/sh\necho ran\n", to: "script")
        chmod(directory.file("script"), 0o755)
        let outcome = try ChildProcess.run([directory.file("script")])
        #expect(outcome.status == 0)
        #expect(outcome.output == "ran\n")
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

/// SIGUSR1s handled so far (by ``InterruptionTests/installHandler()``'s handler).
let handledInterruptions = Atomic<Int>(0)

/// The one EINTR retry: a read interrupted by a signal goes on waiting, where the raw call gives up.
@Suite(.serialized) struct InterruptionTests {
    /// Installs a SIGUSR1 handler without `SA_RESTART`, so a blocking call the signal interrupts fails with EINTR.
    /// The handler counts in ``handledInterruptions`` (touched here first: a global is made on first use, which a
    /// signal handler must not do).
    static func installHandler() {
        _ = handledInterruptions.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in handledInterruptions.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGUSR1, &action, nil)
    }

    /// Starts a thread that takes SIGUSR1 and runs `body` (a blocking read); once the thread is blocked in the read,
    /// interrupts it with one SIGUSR1 and waits until the handler has run; then writes one byte into the pipe so
    /// that a retried read can finish.
    static func interrupt(reading body: @escaping @Sendable (FileDescriptor) -> Int) throws -> Int {
        installHandler()
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        let result = Locked<Int?>(nil)
        let thread = Locked<(handle: pthread_t, id: pid_t)?>(nil)
        let reader = NativeThread {
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            thread.withLock { $0 = (pthread_self(), Threads.currentID) }
            let value = body(readEnd)
            result.withLock { $0 = value }
        }
        defer { reader.join() }
        defer { try? writeEnd.writeAll([42]) }  // a retried read finishes, even when an expectation failed
        let target = try #require(waitFor(timeout: .seconds(10)) { thread.withLock { $0 } })
        // Blocked in the read (the only call of the thread's that blocks): the signal lands inside it.
        #expect(waitUntil(timeout: .seconds(10)) { Threads.isBlocked(target.id) })
        let handled = handledInterruptions.load(ordering: .relaxed)
        pthread_kill(target.handle, SIGUSR1)
        #expect(waitUntil(timeout: .seconds(10)) { handledInterruptions.load(ordering: .relaxed) > handled })
        try writeEnd.writeAll([42])
        reader.join()
        return try #require(result.withLock { $0 })
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
