import Glibc
import System
import TestSupport
import Testing

/// The helpers every test target relies on, against the real system.
@Suite struct ChildProcessTests {
    /// The test runner's threads block signals; a child must start with none blocked and none ignored.
    @Test func childrenStartWithACleanSignalMask() throws {
        // The positive control: this thread blocks one now, so a plain fork would pass that on.
        var usr2 = sigset_t()
        sigemptyset(&usr2)
        sigaddset(&usr2, SIGUSR2)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &usr2, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #expect(readTextFile("/proc/thread-self/status").contains("SigBlk:\t0000000000000000") == false)

        let outcome = try ChildProcess.run(["sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"])
        #expect(outcome.status == 0)
        let masks = Dictionary(
            uniqueKeysWithValues: outcome.outputLines.compactMap { line -> (String, UInt64)? in
                let parts = line.split(separator: "\t")
                guard parts.count == 2, let mask = UInt64(parts[1], radix: 16) else { return nil }
                return (String(parts[0]), mask)
            })
        #expect(masks["SigBlk:"] == 0)
        // Signals 1…31 at their defaults. (glibc keeps 32 and 33 for itself: no program can set those, and an
        // ignored one stays ignored across exec, so they are left out.)
        #expect(masks["SigIgn:"].map { $0 & 0x7FFF_FFFF } == 0)
    }

    @Test func outputErrorInputAndStatusAreKeptApart() throws {
        let outcome = try ChildProcess.run(
            ["sh", "-c", "cat; echo to-stderr >&2; exit 3"], input: .bytes(Array("from stdin\n".utf8)))
        #expect(outcome.status == 3)
        #expect(outcome.output == "from stdin\n")
        #expect(outcome.error == "to-stderr\n")
        let merged = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2"], mergingError: true)
        #expect(merged.output == "out\nerr\n")
        let killed = try ChildProcess.run(["sh", "-c", "kill -TERM $$"])
        #expect(killed.status == 128 + SIGTERM)
        let environment = try ChildProcess.run(
            ["sh", "-c", "echo ${NMEA_A-unset} ${HOME-unset}"], environment: ["NMEA_A": "a"], unsetting: ["HOME"],
            directory: "/")
        #expect(environment.output == "a unset\n")
        #expect(try ChildProcess.run(["pwd"], directory: "/tmp").output == "/tmp\n")
    }

    @Test func aChildThatOutstaysItsTimeoutIsKilled() throws {
        let started = MonotonicTime.now()
        let outcome = try ChildProcess.run(["tail", "-f", "/dev/null"], timeout: .milliseconds(200))  // never ends
        #expect(outcome.status == 128 + SIGKILL)
        #expect(started.elapsed < .seconds(10))
    }

    @Test func stoppingAGroupEndsWhatTheChildStarted() throws {
        let child = try ChildProcess(["sh", "-c", "tail -f /dev/null & echo $!; wait"], newProcessGroup: true)
        let grandchild = try #require(waitFor(timeout: .seconds(10)) { child.outputLines.first.flatMap { pid_t($0) } })
        #expect(kill(grandchild, 0) == 0)
        #expect(child.stop(SIGTERM, timeout: .seconds(10)) == 128 + SIGTERM)
        // The grandchild is not ours to reap: it is gone once the kill lands (or a zombie of init's).
        #expect(
            waitUntil(timeout: .seconds(10)) {
                kill(grandchild, 0) != 0 || readTextFile("/proc/\(grandchild)/stat").contains(") Z ")
            })
    }

    @Test func pipesCarryInputAndOutputWhileTheChildRuns() throws {
        let child = try ChildProcess(["cat"], input: .pipe, output: .pipe)
        let input = try #require(child.inputPipe)
        let output = try #require(child.outputPipe)
        try input.writeAll(Array("line\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try output.poll(.readable, timeoutMilliseconds: 5_000) == .readable)
        let count = try buffer.withUnsafeMutableBytes { try output.read(into: $0) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "line\n")
        child.closeInput()
        #expect(child.wait(timeout: .seconds(10)) == 0)
    }

    @Test func aProgramThatDoesNotExistIsASpawnError() {
        #expect(throws: ChildProcess.SpawnError.self) { try ChildProcess(["/no/such/program"]) }
    }
}

@Suite struct TemporaryDirectoryTests {
    @Test func aDirectoryOfItsOwnRemovedWithItsContents() throws {
        let directory = TemporaryDirectory("holder")
        #expect(directory.path.contains("/nmea-holder-"))
        #expect(try FileStatus(path: directory.path).kind == .directory)
        directory.write("text", to: "a.txt")
        try Directory.create(directory.file("sub/deeper"))
        directory.write([1, 2, 3], to: "sub/deeper/b.bin")
        #expect(directory.read("a.txt") == "text")
        #expect(directory.read("missing") == nil)
        #expect(TemporaryDirectory("holder").path != directory.path)
        directory.remove()
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileStatus(path: directory.path) }
    }
}

@Suite struct WaitingAndPortsTests {
    @Test func waitingReturnsAtOnceOrAtTheDeadline() {
        let start = MonotonicTime.now()
        #expect(waitUntil(timeout: .seconds(10)) { true })
        #expect(start.elapsed < .seconds(5))
        let late = MonotonicTime.now()
        #expect(!waitUntil(timeout: .milliseconds(50)) { false })
        #expect(late.elapsed >= .milliseconds(50))
        var calls = 0
        #expect(
            waitFor(timeout: .seconds(5), pollingEvery: .milliseconds(1)) { () -> Int? in
                calls += 1
                return calls == 3 ? calls : nil
            } == 3)
    }

    @Test func aFreePortCanBeListenedOnAndIsSeenListening() throws {
        let port = Ports.freeTCP()
        #expect(port > 0)
        #expect(!Ports.isListening(port))
        let listener = try FileDescriptor.socket(family: AF_INET)
        try listener.setOption(.reuseAddress, 1)
        try listener.bind(to: .loopback(port: UInt16(port)))
        try listener.listen()
        #expect(Ports.isListening(port))
        try listener.close()
        #expect(Ports.freeUDP() > 0)
    }

    @Test func aLineClientSplitsCRLFLinesAndSeesTheClose() throws {
        let listener = try FileDescriptor.socket(family: AF_INET)
        defer { try? listener.close() }
        try listener.bind(to: .loopback(port: 0))
        try listener.listen()
        let port = try #require(try listener.localAddress().numeric?.port)
        let client = try LineClient(port: port)
        let server = try listener.accept()
        try server.sendAll(Array("{\"class\":\"TPV\"}\r\nsecond\r\npart".utf8))
        #expect(client.read(until: { $0.count >= 2 }))
        #expect(client.lines == ["{\"class\":\"TPV\"}", "second"])
        #expect(client.lines(of: "TPV") == ["{\"class\":\"TPV\"}"])
        #expect(client.send("?POLL;\n"))
        try server.close()
        #expect(client.readUntilClosed())
    }

    @Test func sentencesGetTheirKnownChecksumAndTheRootHoldsThePackage() {
        #expect(
            nmeaSentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                == "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
        #expect(sampleRMC(second: 61).hasPrefix("$GPRMC,120101.00,A,4807.038,N,"))
        #expect(readFile(Locations.packageRoot + "/Package.swift") != nil)
    }
}
