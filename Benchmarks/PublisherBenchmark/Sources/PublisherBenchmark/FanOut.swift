import Glibc
import Pipeline
import SerialPort
import Synchronization
import System
import Threading

/// 100 clients (or `clients`) watching a 10 Hz stream through `nmea serve`: does every client get every TPV, how
/// much CPU does the server use, how long from the end of an epoch to the TPV at a client.
func runFanOut(nmea: String, clients: Int, seconds: Int) -> [String] {
    guard let pty = try? PseudoTerminal.open() else { return ["fan-out: cannot open a pty"] }
    defer { pty.close() }
    let feed = Feed(rateHz: 10, noFixSeconds: 10, driveSeconds: Double(seconds))
    let port = freePort()
    let server = Child(
        [nmea, "serve", pty.slavePath, "--max-clients", "128", "--listen", "127.0.0.1:\(port)"],
        captureOutput: false)
    defer { server.stop() }

    // The receiver talks (no fix yet) until the server has found NMEA on the line.
    var warmUp = 0
    let connected = waitUntil(timeout: .seconds(8)) {
        pty.send(feed.epoch(warmUp % feed.firstValid))
        warmUp += 1
        sleep(for: .milliseconds(100))
        return server.errorOutput.contains("connected at")
    }
    guard connected else { return ["fan-out: nmea serve did not connect: \(server.errorOutput)"] }

    // The clients connect and watch.
    var descriptors: [FileDescriptor] = []
    for _ in 0..<clients {
        guard let descriptor = connectClient(port: port) else { return ["fan-out: connect failed"] }
        try? descriptor.sendAll(Array("?WATCH={\"enable\":true,\"json\":true}\n".utf8))
        descriptors.append(descriptor)
    }
    defer { for descriptor in descriptors { try? descriptor.close() } }
    let readers = ClientReaders(descriptors: descriptors)
    guard waitUntil(timeout: .seconds(10), { readers.watching == clients }) else {
        readers.stop()
        return ["fan-out: only \(readers.watching) of \(clients) clients got their WATCH reply"]
    }

    // The stream: `seconds` × 10 epochs with a fix, each written at once; when each one's last byte went in.
    let valid = Array(feed.firstValid..<feed.fixes.count)
    var ends: [String: MonotonicTime] = [:]
    let cpuBefore = server.cpuTime
    let started = now()
    for (offset, index) in valid.enumerated() {
        pause(until: started + .milliseconds(100 * offset))
        ends[feed.isoTime(index)] = pty.send(feed.epoch(index))
    }
    sleep(for: .milliseconds(500))
    let wall = now() - started
    let cpu = server.cpuTime - cpuBefore
    readers.stop()

    // Every TPV at every client?
    let expected = Set(valid.map { feed.isoTime($0) })
    var complete = 0
    var counts: [Int] = []
    var latencies: [Double] = []
    for client in readers.results {
        let times = Set(client.map(\.time))
        if expected.isSubset(of: times) { complete += 1 }
        counts.append(client.count)
        var seen = Set<String>()
        for tpv in client where tpv.mode == 3 && !seen.contains(tpv.time) {
            seen.insert(tpv.time)
            if let end = ends[tpv.time], tpv.time != feed.isoTime(feed.firstValid) {
                latencies.append(milliseconds(tpv.at - end))
            }
        }
    }
    let percent = milliseconds(cpu) / milliseconds(wall) * 100
    var lines = [
        "Fan-out: \(clients) clients watching a 10 Hz multi-GNSS stream for \(seconds) s "
            + "(nmea serve --max-clients 128)",
        "  clients that received every TPV: \(complete)/\(clients) (\(valid.count) epochs; TPVs per client "
            + "\(counts.min() ?? 0)…\(counts.max() ?? 0): also the provisional first fix, and the latest on WATCH)",
        "  server CPU: \(format(percent, 1)) % of one core (\(format(milliseconds(cpu) / 1000, 2)) s user+system "
            + "in \(format(milliseconds(wall) / 1000, 1)) s)",
    ]
    if let summary = Summary(latencies) {
        lines.append(
            "  end of epoch → TPV at each client: p50 \(format(summary.p50)) ms, p99 \(format(summary.p99)) ms, "
                + "max \(format(summary.max)) ms (\(summary.count) deliveries)")
    }
    return lines
}

/// Reads every client socket on one thread (`poll`), keeping each client's TPVs with their arrival times.
final class ClientReaders: @unchecked Sendable {
    struct TPV {
        var time: String
        var mode: Int
        var at: MonotonicTime
    }

    private let running = Atomic<Bool>(true)
    private let watchingCount = Atomic<Int>(0)
    private var thread: NativeThread?
    private var collected: [[TPV]] = []

    init(descriptors: [FileDescriptor]) {
        collected = Array(repeating: [], count: descriptors.count)
        thread = NativeThread { [self] in
            var buffers = Array(repeating: [UInt8](), count: descriptors.count)
            var results = Array(repeating: [TPV](), count: descriptors.count)
            var watching = Array(repeating: false, count: descriptors.count)
            var polls = descriptors.map { FileDescriptor.PollEntry($0, .readable) }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while running.load(ordering: .relaxed) {
                guard let ready = try? FileDescriptor.poll(&polls, timeoutMilliseconds: 50), ready > 0 else { continue }
                let at = now()
                for index in polls.indices where !polls[index].returned.isEmpty {
                    let count = chunk.withUnsafeMutableBytes { (try? descriptors[index].receive(into: $0)) ?? 0 }
                    if count <= 0 {
                        polls[index] = .init(nil, .readable)
                        continue
                    }
                    buffers[index].append(contentsOf: chunk[..<count])
                    while let newline = buffers[index].firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffers[index][..<newline], as: UTF8.self)[...]
                        buffers[index].removeFirst(newline + 1)
                        if line.hasPrefix("{\"class\":\"TPV\"") {
                            if let time = jsonField(line, "time"),
                                let mode = jsonField(line, "mode").flatMap({ Int($0) })
                            {
                                results[index].append(TPV(time: String(time), mode: mode, at: at))
                            }
                        } else if line.hasPrefix("{\"class\":\"WATCH\"") && !watching[index] {
                            watching[index] = true
                            watchingCount.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            collected = results
        }
    }

    var watching: Int { watchingCount.load(ordering: .relaxed) }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
        thread = nil
    }

    /// Each client's TPVs (after ``stop()``).
    var results: [[TPV]] { collected }
}
