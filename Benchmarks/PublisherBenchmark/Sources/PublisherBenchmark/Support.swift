import Glibc
import NMEA
import Pipeline
import SerialPort
import Simulation
import Synchronization
import System
import TestSupport
import Threading

// MARK: Time and statistics

func now() -> MonotonicTime { MonotonicTime.now() }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Sleeps until `deadline` (monotonic).
func pause(until deadline: MonotonicTime) {
    let left = deadline - now()
    if left > .zero { sleep(for: left) }
}

/// TestSupport's `waitUntil`, checking every 200 µs: the latency figures must not wait on the poll interval.
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    TestSupport.waitUntil(timeout: timeout, pollingEvery: .microseconds(200), condition)
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

/// A child process (TestSupport's ``ChildProcess``: a clean signal mask): standard output to a pipe read line by
/// line, each line stamped as it arrives, or to /dev/null; standard error to a file.
final class Child: @unchecked Sendable {
    let process: ChildProcess
    private let lines = Mutex<[(text: String, at: MonotonicTime)]>([])
    private var reader: NativeThread?

    init(_ arguments: [String], captureOutput: Bool) {
        do {
            process = try ChildProcess(arguments, output: captureOutput ? .pipe : .null)
        } catch {
            preconditionFailure("\(error)")
        }
        if let descriptor = process.outputPipe {
            reader = NativeThread { [self] in
                var buffer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while let count = chunk.withUnsafeMutableBytes({ try? descriptor.read(into: $0) }), count > 0 {
                    let at = now()
                    buffer.append(contentsOf: chunk[..<count])
                    var found: [(String, MonotonicTime)] = []
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        found.append((String(decoding: buffer[..<newline], as: UTF8.self), at))
                        buffer.removeFirst(newline + 1)
                    }
                    lines.withLock { $0.append(contentsOf: found) }
                }
            }
        }
    }

    var pid: pid_t { process.pid }

    /// The output lines so far, with when each arrived.
    var output: [(text: String, at: MonotonicTime)] { lines.withLock { $0 } }

    var errorOutput: String { process.error }

    var hasExited: Bool { !process.isRunning }

    /// SIGTERM, then SIGKILL after 3 s; reaps it.
    func stop() {
        process.stop(SIGTERM, timeout: .seconds(3))
        reader?.join()
    }

    /// User + system CPU time used so far (`/proc/PID/stat`).
    var cpuTime: Duration {
        let text = readTextFile("/proc/\(pid)/stat")
        // Fields after the command name (which is in parentheses and may hold spaces).
        guard let close = text.lastIndex(of: ")") else { return .zero }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime field 15.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return .zero }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1000 / max(ticks, 1))
    }
}

/// A free TCP port on 127.0.0.1.
func freePort() -> UInt16 { UInt16(Ports.freeTCP()) }

/// A connected, non-blocking TCP socket to 127.0.0.1:`port`.
func connectClient(port: UInt16) -> FileDescriptor? {
    guard let socket = try? FileDescriptor.socket(family: AF_INET) else { return nil }
    do {
        try socket.connect(to: .loopback(port: port))
        try socket.setNonBlocking(true)
        return socket
    } catch {
        try? socket.close()
        return nil
    }
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
