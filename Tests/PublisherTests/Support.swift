import Foundation
import Glibc
import NMEA
import Pipeline
import SerialPort
import Simulation
import Synchronization
import Testing
import Threading

// MARK: Waiting

/// Polls `condition` every 5 ms until it holds or `timeout` passes.
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    usleep(UInt32(clamping: max(microseconds, 0)))
}

/// A value shared between tasks and threads.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

// MARK: NMEA with known values

/// A simulated drive and the exact bytes a receiver would send for each epoch.
struct Journey {
    let fixes: [SimulatedFix]
    let writer: EpochWriter

    init(seconds: Double = 30, rateHz: Double = 10, profile: EpochWriter.Profile = .multiGNSS, seed: UInt64 = 1) {
        let scenario = Scenario(
            rateHz: rateHz, legs: [.drive(seconds: seconds, speedKmh: 40, turnDegreesPerSecond: 3)],
            seed: seed)
        fixes = Array(scenario.fixes())
        writer = EpochWriter(profile: profile)
    }

    /// The sentences of epoch `index`, CR LF after each.
    func epoch(_ index: Int) -> [UInt8] {
        var builder = SentenceBuilder()
        writer.write(fixes[index], into: &builder)
        return builder.bytes
    }

    /// The epoch's sentences, one string each (without line endings).
    func sentences(_ index: Int) -> [String] {
        String(decoding: epoch(index), as: UTF8.self).split(separator: "\r\n").map(String.init)
    }

    /// The epoch's time as gpsd writes it: `2026-11-30T08:00:00.100Z`.
    func isoTime(_ index: Int) -> String {
        let dateTime = fixes[index].dateTime
        let date = dateTime.date
        let time = dateTime.time
        func two(_ value: UInt8) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(time.nanoseconds / 1_000_000)
        let fraction =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(time.hour)):\(two(time.minute)):"
            + "\(two(time.second)).\(fraction)Z"
    }

    /// Latitude and longitude of epoch `index` exactly as its RMC sent them, in degrees to 9 decimals (gpsd's
    /// format), computed with integers from the sentence's text.
    func expectedCoordinates(_ index: Int) -> (latitude: String, longitude: String) {
        let rmc = sentences(index).first { $0.dropFirst(3).hasPrefix("RMC") }!
        let fields = rmc.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return (
            Journey.degrees(fields[3], fields[4], degreeDigits: 2),
            Journey.degrees(fields[5], fields[6], degreeDigits: 3)
        )
    }

    /// Latitude and longitude of epoch `index` to `decimals` places (cgps shows 8).
    func expectedCoordinates(_ index: Int, decimals: Int) -> (latitude: String, longitude: String) {
        let rmc = sentences(index).first { $0.dropFirst(3).hasPrefix("RMC") }!
        let fields = rmc.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return (
            Journey.degrees(fields[3], "N", degreeDigits: 2, decimals: decimals),
            Journey.degrees(fields[5], "E", degreeDigits: 3, decimals: decimals)
        )
    }

    /// `ddmm.mmmmm` with a hemisphere as degrees to `decimals` places (9: gpsd's format), rounded half up, using
    /// integer arithmetic only.
    static func degrees(_ text: String, _ hemisphere: String, degreeDigits: Int, decimals places: Int = 9) -> String {
        let degrees = Int(text.prefix(degreeDigits))!
        let minutesText = text.dropFirst(degreeDigits)
        let parts = minutesText.split(separator: ".")
        let decimals = parts.count > 1 ? parts[1].count : 0
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let minutesScaled = Int(parts[0])! * scale + (decimals > 0 ? Int(parts[1])! : 0)
        // degrees × 10^places + minutesScaled × 10^places / (60 × scale), rounded half up.
        var unit = 1
        for _ in 0..<places { unit *= 10 }
        let numerator = minutesScaled * unit
        let denominator = 60 * scale
        let units = degrees * unit + (2 * numerator + denominator) / (2 * denominator)
        let sign = hemisphere == "S" || hemisphere == "W" ? "-" : ""
        let fraction = String(units % unit)
        return "\(sign)\(units / unit)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The satellites of epoch `index` as gpsd numbers them, with what the GSV sentences said.
    func expectedSatellites(_ index: Int) -> Set<ExpectedSatellite> {
        Set(
            fixes[index].satellites.map { satellite in
                let prn: Int
                switch satellite.system {
                case .glonass: prn = satellite.prn < 65 ? satellite.prn + 64 : satellite.prn
                case .galileo: prn = satellite.prn + 300
                case .beidou: prn = satellite.prn + 400
                default: prn = satellite.prn
                }
                return ExpectedSatellite(
                    prn: prn, elevation: satellite.elevation, azimuth: satellite.azimuth,
                    snr: satellite.snr ?? -1, used: satellite.used)
            })
    }
}

struct ExpectedSatellite: Hashable, CustomStringConvertible {
    var prn: Int
    var elevation: Int
    var azimuth: Int
    var snr: Int
    var used: Bool

    var description: String { "PRN \(prn) el \(elevation) az \(azimuth) ss \(snr) \(used ? "used" : "unused")" }
}

// MARK: A little JSON reading for assertions

/// The value of `"key":` in a one-line JSON object, as text (strings without quotes); first occurrence.
func jsonField(_ line: String, _ key: String) -> String? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    var rest = line[range.upperBound...]
    if rest.hasPrefix("\"") {
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != "\"" })
    }
    return String(rest.prefix { $0 != "," && $0 != "}" && $0 != "]" })
}

/// The satellites of a SKY line.
func skySatellites(_ line: String) -> Set<ExpectedSatellite> {
    guard let start = line.range(of: "\"satellites\":[") else { return [] }
    let body = line[start.upperBound...]
    var result = Set<ExpectedSatellite>()
    for piece in body.split(separator: "}") where piece.contains("\"PRN\"") {
        let object = String(piece)
        func number(_ key: String) -> Int { Int(Double(jsonField(object, key) ?? "-1") ?? -1) }
        result.insert(
            ExpectedSatellite(
                prn: number("PRN"), elevation: number("el"), azimuth: number("az"),
                snr: number("ss"), used: jsonField(object, "used") == "true"))
    }
    return result
}

// MARK: TCP clients

/// A TCP client of the server, reading lines with timeouts.
final class TestClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []
    /// The server closed the connection (EOF or reset).
    private(set) var closedByPeer = false

    /// Connects to 127.0.0.1:`port`; a small `receiveBuffer` (bytes) makes a client that stops reading fill up fast.
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestError("socket: \(errno)") }
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw TestError("connect: \(errno)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends all of `text` (blocking).
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Reads what has arrived within `timeout`, splitting it into lines (CR LF removed).
    func read(timeout: Duration) {
        var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptors, 1, milliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
            closedByPeer = true
            return
        }
        guard count > 0 else { return }
        buffer.append(contentsOf: chunk[..<count])
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(buffer[..<newline])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            lines.append(String(decoding: line, as: UTF8.self))
            buffer.removeFirst(newline + 1)
        }
    }

    /// Reads until `condition` holds on the lines so far, the peer closes, or `timeout` passes.
    @discardableResult
    func read(until condition: ([String]) -> Bool, timeout: Duration = .seconds(5)) -> Bool {
        let deadline = MonotonicTime.now() + timeout
        while !condition(lines) && !closedByPeer {
            let left = deadline.nanoseconds - MonotonicTime.now().nanoseconds
            if left <= 0 { break }
            read(timeout: .nanoseconds(min(left, 50_000_000)))
        }
        return condition(lines)
    }

    /// Reads until the server closes the connection or `timeout` passes; `true` if it closed.
    func readUntilClosed(timeout: Duration = .seconds(5)) -> Bool {
        read(until: { _ in false }, timeout: timeout)
        return closedByPeer
    }

    /// Lines of one class: `lines(of: "TPV")`.
    func lines(of kind: String) -> [String] { lines.filter { $0.hasPrefix("{\"class\":\"\(kind)\"") } }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: Processes and tools

/// Finds `tool` on the PATH (or the given absolute path).
func which(_ tool: String) -> String? {
    if tool.hasPrefix("/") { return access(tool, X_OK) == 0 ? tool : nil }
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(tool)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// `true` when every tool is installed; otherwise records why the test cannot run (scripts/test installs them).
func require(_ tools: String...) -> Bool {
    let missing = tools.filter { which($0) == nil }
    if missing.isEmpty { return true }
    Issue.record("SKIPPED: \(missing.joined(separator: ", ")) not installed (scripts/test installs them)")
    return false
}

/// The built `nmea`, found beside the test bundle.
var nmeaExecutable: String {
    var path = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &path, path.count - 1)
    var directory = count > 0 ? String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    while let slash = directory.lastIndex(of: "/") {
        directory = String(directory[..<slash])
        if access(directory + "/nmea", X_OK) == 0 { return directory + "/nmea" }
    }
    return "nmea"
}

/// A fresh directory under /tmp, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) {
        var template = Array("/tmp/nmea-publisher-\(label)-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        let process = Subprocess(["/bin/rm", "-rf", path], outputDirectory: "/tmp")
        process.wait()
        process.removeOutput()
    }
}

/// A child process (`posix_spawn`), its output going to files.
final class Subprocess: @unchecked Sendable {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var status: Int32?

    init(
        _ arguments: [String], outputDirectory: String, input: String = "/dev/null", environment: [String: String] = [:]
    ) {
        let tag = UInt32.random(in: 0...UInt32.max)
        stdoutPath = outputDirectory + "/stdout-\(tag)"
        stderrPath = outputDirectory + "/stderr-\(tag)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if environment[key] == nil { variables.append(text) }
            index += 1
        }
        for (key, value) in environment { variables.append("\(key)=\(value)") }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        // The child starts with no signal blocked and SIGTERM/SIGINT at their defaults, whatever the test runner's
        // threads have.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child = pid_t()
        let program = which(arguments[0]) ?? arguments[0]
        let result = posix_spawn(&child, program, &actions, &attributes, argv, envp)
        precondition(result == 0, "cannot start \(arguments[0]): \(result)")
        pid = child
    }

    func signal(_ signal: Int32 = SIGTERM) {
        if status == nil { kill(pid, signal) }
    }

    /// Waits at most `timeout` (then SIGKILL); the exit status (128 + signal when killed by one).
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) -> Int32 {
        if let status { return status }
        let deadline = MonotonicTime.now() + timeout
        var raw: Int32 = 0
        while true {
            if waitpid(pid, &raw, WNOHANG) == pid { break }
            if MonotonicTime.now() >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &raw, 0)
                break
            }
            usleep(5_000)
        }
        let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    var hasExited: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return true
        }
        return false
    }

    var output: String { readFile(stdoutPath) }
    var errorOutput: String { readFile(stderrPath) }

    func removeOutput() {
        unlink(stdoutPath)
        unlink(stderrPath)
    }
}

/// Runs `arguments` to completion (at most `timeout`); its exit status and output.
func run(_ arguments: [String], timeout: Duration = .seconds(30)) -> (status: Int32, output: String, error: String) {
    let process = Subprocess(arguments, outputDirectory: "/tmp")
    defer { process.removeOutput() }
    let status = process.wait(timeout: timeout)
    return (status, process.output, process.errorOutput)
}

func readFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        result.append(contentsOf: chunk[..<count])
    }
    return String(decoding: result, as: UTF8.self)
}

/// `nmea serve …` with `--listen 127.0.0.1:0`, and the port it reported.
final class ServeProcess {
    let process: Subprocess
    let port: UInt16

    init(_ arguments: [String], directory: String, input: String = "/dev/null") throws {
        let process = Subprocess(
            [nmeaExecutable, "serve"] + arguments + ["--listen", "127.0.0.1:0"],
            outputDirectory: directory, input: input)
        self.process = process
        var found: UInt16?
        _ = waitUntil(timeout: .seconds(10)) {
            if let range = process.errorOutput.range(of: "listening on 127.0.0.1:") {
                found = UInt16(process.errorOutput[range.upperBound...].prefix { $0.isNumber })
            }
            return found != nil || process.hasExited
        }
        guard let found else {
            process.signal(SIGKILL)
            process.wait()
            throw TestError("nmea serve did not start: \(process.errorOutput)")
        }
        port = found
    }

    func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait(timeout: .seconds(10))
    }
}

// MARK: Feeding a pty

/// Writes epochs into a pty at a fixed interval on a thread of its own.
final class PtyFeeder: @unchecked Sendable {
    let pty: PseudoTerminal
    let journey: Journey
    let interval: Duration
    private let running = Atomic<Bool>(true)
    /// Epochs written so far.
    let written = Atomic<Int>(0)
    private var thread: NativeThread?

    init(pty: PseudoTerminal, journey: Journey, interval: Duration, count: Int? = nil, startAt: Int = 0) {
        self.pty = pty
        self.journey = journey
        self.interval = interval
        let total = min(count ?? journey.fixes.count, journey.fixes.count - startAt)
        thread = NativeThread { [self] in
            var next = MonotonicTime.now()
            for index in startAt..<(startAt + total) where running.load(ordering: .relaxed) {
                try? pty.write(journey.epoch(index))
                written.add(1, ordering: .relaxed)
                next = next + interval
                let wait = next - MonotonicTime.now()
                if wait > .zero { pause(wait) }
            }
        }
    }

    /// Waits for the last epoch to be written.
    func join() { thread?.join() }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
    }
}

// MARK: Tasks that run whatever the test runner does

/// A task executor with a thread of its own. Swift Testing runs synchronous tests on the cooperative pool (one
/// thread per core); when other suites' tests block those threads, a subscriber task on the pool may not run for
/// seconds. Subscribers in these tests prefer this executor, so they run on time whatever else the runner does.
final class TestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = TestExecutor()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var thread: NativeThread?

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        thread = NativeThread { [self] in
            while true {
                pthread_mutex_lock(mutex)
                while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
                let ready = jobs
                jobs.removeAll()
                pthread_mutex_unlock(mutex)
                for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// Starts `body` on the ``TestExecutor``.
@discardableResult
func spawn<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
    Task(executorPreference: TestExecutor.shared) { await body() }
}

/// Runs `body` on the ``TestExecutor`` and waits (blocking) for its result, at most `timeout`.
func runAsync<T: Sendable>(timeout: Duration = .seconds(10), _ body: @escaping @Sendable () async -> T) -> T? {
    let result = Shared<T?>(nil)
    spawn {
        let value = await body()
        result.withLock { $0 = value }
    }
    var value: T?
    _ = waitUntil(timeout: timeout) {
        value = result.withLock { $0 }
        return value != nil
    }
    return value
}
