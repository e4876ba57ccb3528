import Glibc
import Synchronization
import Testing

@testable import SerialPort

/// A fresh directory under /tmp, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) {
        var template = Array("/tmp/nmea-serial-\(label)-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0)
        var text = text
        text.withUTF8 { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func remove() {
        _ = run(["/bin/rm", "-rf", path])
    }
}

/// Finds `tool` on the PATH.
func which(_ tool: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(tool)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// The built `nmea` executable, beside the test bundle in the build directory.
var nmeaExecutable: String? {
    guard let me = resolvePath("/proc/self/exe") else { return nil }
    var directory = me
    while let slash = directory.lastIndex(of: "/") {
        directory = String(directory[..<slash])
        let candidate = directory + "/nmea"
        if access(candidate, X_OK) == 0 { return candidate }
        if directory.hasSuffix("/.build") || directory.isEmpty { break }
    }
    return nil
}

/// A child process started with `posix_spawn`, its output going to files.
final class Subprocess: @unchecked Sendable {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var exitStatus: Int32?

    init(_ arguments: [String], environment: [String: String] = [:], outputDirectory: String) {
        stdoutPath = outputDirectory + "/stdout-\(UInt32.random(in: 0...UInt32.max))"
        stderrPath = stdoutPath.replacingOccurrences("stdout", "stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var env: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                env[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        for (key, value) in environment { env[key] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The test runner blocks some signals (SIGTERM among them) on its threads; a child inherits that mask, and one
        // that handles SIGTERM with a plain handler (mosquitto, socat) would never see it. Start children clean.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child = pid_t()
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        precondition(status == 0, "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        pid = child
    }

    /// Sends `signal`.
    func kill(_ signal: Int32 = SIGTERM) {
        if exitStatus == nil { Glibc.kill(pid, signal) }
    }

    /// Waits for the child to end (at most `timeout`, then SIGKILL) and returns its exit status (128+signal when
    /// killed).
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = MonotonicInstant.now() + timeout
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if MonotonicInstant.now() >= deadline {
                Glibc.kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    var standardOutput: String { readSmallFile(stdoutPath, limit: 1 << 20) ?? "" }
    var standardError: String { readSmallFile(stderrPath, limit: 1 << 20) ?? "" }
}

/// Runs a command to the end; returns its exit status.
@discardableResult
func run(_ arguments: [String]) -> Int32 {
    let process = Subprocess(arguments, outputDirectory: "/tmp")
    let status = process.wait()
    unlink(process.stdoutPath)
    unlink(process.stderrPath)
    return status
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`. Returns whether it held.
@discardableResult
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicInstant.now() + timeout
    while MonotonicInstant.now() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// `socat pty,raw,echo=0,link=A pty,raw,echo=0,link=B`: two linked ptys, as a null-modem cable.
final class SocatPair: @unchecked Sendable {
    let receiverSide: String
    let deviceSide: String
    let directory: String
    private(set) var process: Subprocess?

    init(directory: String) {
        self.directory = directory
        receiverSide = directory + "/gps-out"
        deviceSide = directory + "/ttyGPS"
    }

    /// Starts socat and waits for both links.
    func start() -> Bool {
        process = Subprocess(["/usr/bin/env", "socat", "pty,raw,echo=0,link=\(receiverSide)",
                              "pty,raw,echo=0,link=\(deviceSide)"], outputDirectory: directory)
        return waitUntil(timeout: .seconds(5)) {
            access(receiverSide, F_OK) == 0 && access(deviceSide, F_OK) == 0
        }
    }

    /// Stops socat (both ptys close) and waits for it to end.
    func stop() {
        process?.kill(SIGTERM)
        process?.wait(timeout: .seconds(5))
        process = nil
        // socat removes its links at exit; make sure.
        unlink(receiverSide)
        unlink(deviceSide)
    }
}

/// Writes NMEA into a pty path every `interval` until stopped, reopening the path when it goes away.
final class NMEAFeeder: @unchecked Sendable {
    let path: String
    let interval: Duration
    private let stopFlag = Atomic<Bool>(false)
    private var thread: NativeThread?
    let written = Atomic<Int>(0)

    init(path: String, interval: Duration = .milliseconds(100)) {
        self.path = path
        self.interval = interval
    }

    func start() {
        thread = NativeThread { [self] in
            var fd: Int32 = -1
            var second = 0
            while !stopFlag.load(ordering: .relaxed) {
                if fd < 0 { fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
                if fd >= 0 {
                    let line = Array(sampleRMC(second: second).utf8)
                    let result = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                    if result < 0 && errno != EAGAIN {
                        close(fd)
                        fd = -1
                    } else if result > 0 {
                        written.add(1, ordering: .relaxed)
                        second += 1
                    }
                }
                sleep(for: interval)
            }
            if fd >= 0 { close(fd) }
        }
    }

    func stop() {
        stopFlag.store(true, ordering: .relaxed)
        thread?.join()
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for a port-0 bind).
func freeTCPPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            _ = bind(fd, raw, length)
            _ = getsockname(fd, raw, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A checksum-valid RMC sentence for second `second` after 12:00:00.
func sampleRMC(second: Int) -> String {
    let time = "12\(twoDigits(second / 60 % 60))\(twoDigits(second % 60)).00"
    return withChecksum("GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
}

/// A checksum-valid GGA sentence.
func sampleGGA(second: Int) -> String {
    let time = "12\(twoDigits(second / 60 % 60))\(twoDigits(second % 60)).00"
    return withChecksum("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
}

/// `$body*hh\r\n`.
func withChecksum(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = String(rest).range(of: target) {
            let text = String(rest)
            result += text[..<range.lowerBound] + replacement
            rest = Substring(text[range.upperBound...])
        }
        return result + rest
    }

    func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }

    func contains(_ text: String) -> Bool { range(of: text) != nil }
}

/// Collects a connection's events from its thread.
final class EventLog: Sendable {
    private let events = Mutex<[(MonotonicInstant, ConnectionStatus)]>([])
    let bytes = Atomic<Int>(0)
    let sentences = Atomic<Int>(0)

    func record(_ status: ConnectionStatus) {
        events.withLock { $0.append((.now(), status)) }
    }

    var statuses: [ConnectionStatus] { events.withLock { $0.map(\.1) } }

    /// When the first status after `since` matching `predicate` was recorded.
    func firstTime(after since: MonotonicInstant, where predicate: (ConnectionStatus) -> Bool) -> MonotonicInstant? {
        events.withLock { list in list.first { $0.0 >= since && predicate($0.1) }?.0 }
    }

    func count(where predicate: (ConnectionStatus) -> Bool) -> Int {
        events.withLock { list in list.filter { predicate($0.1) }.count }
    }
}

extension ConnectionStatus {
    var isConnected: Bool { if case .connected = self { true } else { false } }
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
}

/// Runs a ReceiverConnection on a background thread, logging its statuses and counting sentences.
final class ConnectionRunner: @unchecked Sendable {
    let connection: ReceiverConnection
    let log = EventLog()
    private let finished = Atomic<Bool>(false)
    private let thrown = Mutex<SerialPortError?>(nil)
    private var thread: NativeThread?

    init(_ connection: ReceiverConnection) { self.connection = connection }

    func start() {
        thread = NativeThread { [self] in
            var framer = NMEA.Framer()
            do throws(SerialPortError) {
                try connection.run { event in
                    switch event {
                    case .data(let bytes):
                        log.bytes.add(bytes.count, ordering: .relaxed)
                        framer.feed(bytes) { event in
                            if case .sentence = event { log.sentences.add(1, ordering: .relaxed) }
                        }
                    case .status(let status):
                        log.record(status)
                    case .idle:
                        break
                    }
                }
            } catch {
                thrown.withLock { $0 = error }
            }
            finished.store(true, ordering: .releasing)
        }
    }

    /// Stops the connection and waits for `run` to return; returns what it threw.
    @discardableResult
    func stop() -> SerialPortError? {
        connection.stop()
        thread?.join()
        return thrown.withLock { $0 }
    }

    /// Waits for `run` to return by itself (for fatal errors).
    func waitForEnd(timeout: Duration) -> SerialPortError?? {
        guard waitUntil(timeout: timeout, { finished.load(ordering: .acquiring) }) else { return nil }
        thread?.join()
        return .some(thrown.withLock { $0 })
    }
}

import NMEA
import Threading
