import Glibc
import NMEA
import Pipeline
import SerialPort
import Simulation
import Synchronization
import Threading

// MARK: Time and statistics

func now() -> MonotonicTime { MonotonicTime.now() }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func pause(_ duration: Duration) {
    let nanoseconds = max(
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000, 0)
    var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Sleeps until `deadline` (monotonic).
func pause(until deadline: MonotonicTime) {
    let left = deadline - now()
    if left > .zero { pause(left) }
}

func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = now() + timeout
    while now() < deadline {
        if condition() { return true }
        pause(.microseconds(200))
    }
    return condition()
}

/// Sample statistics of latencies in milliseconds.
struct Summary {
    var count: Int
    var p50: Double
    var p99: Double
    var max: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            let rank = p * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down))
            let high = Swift.min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        max = sorted.last!
    }
}

func format(_ value: Double, _ decimals: Int = 2) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
    } else if decimals > 0 {
        text += "." + String(repeating: "0", count: decimals)
    }
    return text
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    return right
        ? String(repeating: " ", count: width - count) + text : text + String(repeating: " ", count: width - count)
}

// MARK: The receiver's bytes

/// A simulated multi-GNSS receiver: a second of no-fix epochs, then a drive; each epoch's sentences.
struct Feed {
    let fixes: [SimulatedFix]
    let writer = EpochWriter(profile: .multiGNSS)
    /// Index of the first epoch with a fix.
    let firstValid: Int

    init(rateHz: Double, noFixSeconds: Double, driveSeconds: Double, start: DateTime = DateTime(2026, 11, 30, 8, 0, 0))
    {
        let scenario = Scenario(
            start: start, rateHz: rateHz,
            legs: [.noFix(seconds: noFixSeconds), .drive(seconds: driveSeconds, speedKmh: 50)])
        fixes = Array(scenario.fixes())
        firstValid = fixes.firstIndex { $0.hasFix } ?? fixes.count
    }

    func epoch(_ index: Int) -> [UInt8] {
        var builder = SentenceBuilder()
        writer.write(fixes[index], into: &builder)
        return builder.bytes
    }

    /// The epoch's sentences, each with its CR LF.
    func sentences(_ index: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in epoch(index) {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                result.append(current)
                current.removeAll()
            }
        }
        return result
    }

    /// The epoch's time as gpsd writes it.
    func isoTime(_ index: Int) -> String {
        let dateTime = fixes[index].dateTime
        func two(_ value: UInt8) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(dateTime.time.nanoseconds / 1_000_000)
        let fraction =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(dateTime.date.year)-\(two(dateTime.date.month))-\(two(dateTime.date.day))T\(two(dateTime.time.hour)):"
            + "\(two(dateTime.time.minute)):\(two(dateTime.time.second)).\(fraction)Z"
    }
}

extension PseudoTerminal {
    /// Writes `bytes` in one `write(2)` and returns the moment just before it: the reader may see the bytes (and
    /// report on them) before the writing thread runs again, so a stamp taken after the call could come later
    /// than the report. The copy itself takes a couple of microseconds.
    @discardableResult
    func send(_ bytes: [UInt8]) -> MonotonicTime {
        let stamp = now()
        try? write(bytes)
        return stamp
    }

    /// Writes `sentences` as a receiver at `baud` sends them: each is written whole at the moment its last byte
    /// would have arrived (10 bits a byte), the first at once. Returns when each write began.
    @discardableResult
    func send(paced sentences: [[UInt8]], baud: Double = 115_200) -> [MonotonicTime] {
        var due = now()
        var stamps: [MonotonicTime] = []
        for (offset, sentence) in sentences.enumerated() {
            if offset > 0 {
                due = due + .nanoseconds(Int64(Double(sentence.count) * 10 / baud * 1e9))
                pause(until: due)
            }
            stamps.append(send(sentence))
        }
        return stamps
    }

    /// Reads and drops what the reader wrote back (gpsd probes its device).
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ Glibc.read(master.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }
}

// MARK: Processes

/// A child process: standard output to a pipe read line by line (each stamped as it arrives) or to a file;
/// standard error to a file.
final class Child: @unchecked Sendable {
    let pid: pid_t
    let errorPath: String
    private let lines = Mutex<[(text: String, at: MonotonicTime)]>([])
    private var reader: NativeThread?

    init(_ arguments: [String], captureOutput: Bool) {
        errorPath = "/tmp/nmea-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        var pipeDescriptors: [Int32] = [-1, -1]
        if captureOutput { _ = pipe(&pipeDescriptors) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeDescriptors[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeDescriptors[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child = pid_t()
        let status = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        precondition(status == 0, "cannot start \(arguments[0]): \(status)")
        pid = child
        if captureOutput {
            close(pipeDescriptors[1])
            let descriptor = pipeDescriptors[0]
            reader = NativeThread { [self] in
                var buffer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    let at = now()
                    buffer.append(contentsOf: chunk[..<count])
                    var found: [(String, MonotonicTime)] = []
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        found.append((String(decoding: buffer[..<newline], as: UTF8.self), at))
                        buffer.removeFirst(newline + 1)
                    }
                    lines.withLock { $0.append(contentsOf: found) }
                }
                close(descriptor)
            }
        }
    }

    /// The output lines so far, with when each arrived.
    var output: [(text: String, at: MonotonicTime)] { lines.withLock { $0 } }

    var errorOutput: String {
        let descriptor = open(errorPath, O_RDONLY)
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

    var hasExited: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// SIGTERM, then SIGKILL after 3 s; reaps it.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = now() + .seconds(3)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if now() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            pause(.milliseconds(5))
        }
        reader?.join()
        unlink(errorPath)
    }

    /// User + system CPU time used so far (`/proc/PID/stat`).
    var cpuTime: Duration {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY)
        guard descriptor >= 0 else { return .zero }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return .zero }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        // Fields after the command name (which is in parentheses and may hold spaces).
        guard let close = text.lastIndex(of: ")") else { return .zero }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime field 15.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return .zero }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1000 / max(ticks, 1))
    }
}

/// A free TCP port on 127.0.0.1 (bound and released: good enough for a benchmark).
func freePort() -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// A connected, non-blocking TCP socket to 127.0.0.1:`port`.
func connectClient(port: UInt16) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 else {
        close(descriptor)
        return nil
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    return descriptor
}

/// The value of `"key":` in a one-line JSON object (strings without quotes).
func jsonField(_ line: Substring, _ key: String) -> Substring? {
    guard let range = line.firstRange(of: "\"\(key)\":") else { return nil }
    var rest = line[range.upperBound...]
    if rest.hasPrefix("\"") {
        rest = rest.dropFirst()
        return rest.prefix { $0 != "\"" }
    }
    return rest.prefix { $0 != "," && $0 != "}" }
}
