import Glibc
import NMEA
import Pipeline
import Publisher
import SerialPort
import Synchronization
import System

/// Latencies of one setup, in milliseconds.
struct Latencies {
    var name: String
    /// Last byte of the first position-bearing sentence (RMC) in the pty → the first position received.
    var first: [Double] = []
    /// Last byte of an epoch in the pty → that epoch's (complete) fix received.
    var later: [Double] = []
    /// Last byte of an epoch in the pty → that epoch's position received: the first report carrying it, provisional
    /// or complete; 0 when it was there before the epoch's last byte (issue 12, item 8: position at once).
    var position: [Double] = []
    /// The last sentence written before an epoch's complete fix (for a server: its last TPV for the epoch) →
    /// that report: how long each reports after the sentence it reports at, whichever that is (we at the epoch's
    /// last sentence; gpsd at an earlier one, leaving the later ones out of that report).
    var afterSentence: [Double] = []
    var failures = 0
    var notes: [String] = []
}

/// Fixes a subscriber task received, with when.
final class Received: Sendable {
    private let items = Mutex<[(time: UTCTime?, provisional: Bool, at: MonotonicTime)]>([])
    func append(_ fix: Fix, _ at: MonotonicTime) { items.withLock { $0.append((fix.time, fix.isProvisional, at)) } }
    var all: [(time: UTCTime?, provisional: Bool, at: MonotonicTime)] { items.withLock { $0 } }
}

final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// The library path: a PositionPublisher reading the pty, a Task iterating `positions`.
/// With `hotStart`, the receiver has its fix from its first epoch (a receiver joined while it runs): no epochs
/// without a fix teach the cycle's end before the first position.
func measurePublisher(pty: PseudoTerminal, runs: Int, later: Int, rateHz: Int, hotStart: Bool = false) -> Latencies {
    var result = Latencies(
        name: "swift-nmea PositionPublisher (AsyncSequence)" + (hotStart ? ", hot start" : ""))
    let period = Duration.milliseconds(1000 / rateHz)
    let feed = Feed(
        rateHz: Double(rateHz), noFixSeconds: 0.5, driveSeconds: Double(later + 3) / Double(rateHz))
    for _ in 0..<runs {
        pty.drain()
        let publisher = PositionPublisher()
        let (received, task) = subscribe(publisher)
        do {
            publisher.start(try FileByteSource(path: pty.slavePath))
        } catch {
            result.failures += 1
            continue
        }
        _ = waitUntil(timeout: .seconds(1)) { publisher.currentStatus.connection.isConnected }
        // A few epochs without a fix, at the rate, as a receiver sends while it searches.
        var next = now()
        for index in (feed.firstValid - 3)..<feed.firstValid where !hotStart {
            pause(until: next)
            pty.send(feed.epoch(index))
            next = next + period
        }
        pause(until: next)
        // The first epoch with a fix, as a 115200-baud receiver sends it: RMC first.
        let sent = pty.send(paced: feed.sentences(feed.firstValid))[0]
        if waitUntil(timeout: .seconds(1), { !received.all.isEmpty }), let first = received.all.first {
            result.first.append(milliseconds(first.at - sent))
        } else {
            result.failures += 1
        }
        // The later epochs on schedule, then one more (which completes the last when no cycle end is known yet);
        // what arrived is looked at afterwards.
        next = sent + period
        var ends: [(time: UTCTime, at: MonotonicTime)] = []
        var written: [MonotonicTime] = []
        for index in (feed.firstValid + 1)...(feed.firstValid + later + 1) {
            pause(until: next)
            let stamps = pty.send(paced: feed.sentences(index))
            written += stamps
            next = next + period
            if index <= feed.firstValid + later { ends.append((feed.fixes[index].dateTime.time, stamps.last!)) }
        }
        sleep(for: .milliseconds(300))
        let all = received.all
        for end in ends {
            if let complete = all.first(where: { $0.time == end.time && !$0.provisional }) {
                result.later.append(milliseconds(complete.at - end.at))
                if let sentence = written.last(where: { $0 <= complete.at }) {
                    result.afterSentence.append(milliseconds(complete.at - sentence))
                }
            } else {
                result.failures += 1
            }
            if let first = all.first(where: { $0.time == end.time }) {
                result.position.append(max(0, milliseconds(first.at - end.at)))
            }
        }
        publisher.stop()
        task.cancel()
    }
    return result
}

/// Print each first-fix measurement as it is taken (`--verbose`).
let verbose = CommandLine.arguments.contains("--verbose")

/// Where a server's receiver is: a pty it opens, or a TCP listener of ours it connects to (`tcp://`, issue 13).
protocol ReceiverSink {
    /// What to give the server as its source.
    var source: String { get }
    /// Waits for the server's connection (TCP); `false` when it did not come.
    func connect() -> Bool
    /// Drops what the server wrote back (gpsd probes a device).
    func drain()
    @discardableResult func send(_ bytes: [UInt8]) -> MonotonicTime
    @discardableResult func sendPaced(_ sentences: [[UInt8]]) -> [MonotonicTime]
    /// Ends the run's connection (TCP).
    func disconnect()
}

extension PseudoTerminal: ReceiverSink {
    var source: String { slavePath }
    func connect() -> Bool { true }
    @discardableResult func sendPaced(_ sentences: [[UInt8]]) -> [MonotonicTime] { send(paced: sentences) }
    func disconnect() {}
}

/// A loopback TCP listener a server connects to as its `tcp://` receiver; each sentence is sent at the moment its
/// last byte would have arrived at 115200 baud, with `TCP_NODELAY`, as a multiplexer forwards it.
final class TCPReceiverSink: ReceiverSink, @unchecked Sendable {
    let listener: FileDescriptor
    let port: UInt16
    var connection: FileDescriptor?

    init?() {
        guard let listener = try? FileDescriptor.socket(family: AF_INET) else { return nil }
        try? listener.setOption(.reuseAddress, 1)
        guard (try? listener.bind(to: .loopback(port: 0))) != nil, (try? listener.listen()) != nil,
            let port = try? listener.localAddress().port
        else {
            try? listener.close()
            return nil
        }
        self.listener = listener
        self.port = port
    }

    var source: String { "tcp://127.0.0.1:\(port)" }

    func connect() -> Bool {
        guard (try? listener.poll(.readable, timeoutMilliseconds: 3000))?.isEmpty == false,
            let accepted = try? listener.accept()
        else { return false }
        try? accepted.setOption(.noDelay, 1)
        connection = accepted
        return true
    }

    func drain() {}

    @discardableResult func send(_ bytes: [UInt8]) -> MonotonicTime {
        let stamp = now()
        try? connection?.sendAll(bytes)
        return stamp
    }

    @discardableResult func sendPaced(_ sentences: [[UInt8]]) -> [MonotonicTime] {
        var due = now()
        var stamps: [MonotonicTime] = []
        for (offset, sentence) in sentences.enumerated() {
            if offset > 0 {
                due = due + .nanoseconds(Int64(Double(sentence.count) * 10 / 115_200 * 1e9))
                pause(until: due)
            }
            stamps.append(send(sentence))
        }
        return stamps
    }

    func disconnect() {
        try? connection?.close()
        connection = nil
    }
}

/// A server process reading `sink` (gpsd, or nmea serve; a pty, or `tcp://`) and `gpspipe -w` reading it; arrival
/// of gpspipe's lines.
func measureServer(
    name: String, pty: some ReceiverSink, runs: Int, later: Int, rateHz: Int,
    command: (UInt16) -> [String]
) -> Latencies {
    var result = Latencies(name: name)
    let period = Duration.milliseconds(1000 / rateHz)
    let feed = Feed(rateHz: Double(rateHz), noFixSeconds: 5, driveSeconds: Double(later + 3) / Double(rateHz))
    for _ in 0..<runs {
        pty.drain()
        let port = freePort()
        let server = Child(command(port), captureOutput: false)
        defer { server.stop() }
        guard pty.connect() else {
            result.failures += 1
            result.notes.append("the server did not connect to \(pty.source): \(server.errorOutput.prefix(200))")
            continue
        }
        defer { pty.disconnect() }
        // gpspipe, once the server listens.
        var client: Child?
        for _ in 0..<40 {
            sleep(for: .milliseconds(50))
            let candidate = Child(["gpspipe", "-w", "127.0.0.1:\(port)"], captureOutput: true)
            if waitUntil(
                timeout: .milliseconds(500), { candidate.output.contains { $0.text.contains("\"class\":\"WATCH\"") } })
            {
                client = candidate
                break
            }
            candidate.stop()
        }
        guard let client else {
            result.failures += 1
            result.notes.append("gpspipe could not connect: \(server.errorOutput.prefix(200))")
            continue
        }
        defer { client.stop() }
        // Epochs without a fix at 10 Hz until the server reports them (it has found the receiver).
        var index = 0
        var next = now()
        let synced = waitUntil(timeout: .seconds(5)) {
            guard index < feed.firstValid else { return false }
            pause(until: next)
            pty.drain()
            pty.send(feed.epoch(index))
            index += 1
            next = next + period
            return index >= 3 && client.output.contains { $0.text.hasPrefix("{\"class\":\"TPV\"") }
        }
        guard synced else {
            result.failures += 1
            result.notes.append("no TPV before the first fix: \(server.errorOutput.prefix(200))")
            continue
        }
        pause(until: next)
        // The first epoch with a fix, as a 115200-baud receiver sends it: RMC first. The first TPV with a position
        // may come at the RMC or later in the epoch, whenever the server reports one.
        let sent = pty.sendPaced(feed.sentences(feed.firstValid))[0]
        var first: MonotonicTime?
        _ = waitUntil(timeout: .seconds(1)) {
            first =
                client.output.first { line in
                    line.at >= sent && line.text.hasPrefix("{\"class\":\"TPV\"") && line.text.contains("\"lat\":")
                }?.at
            return first != nil
        }
        if let first { result.first.append(milliseconds(first - sent)) } else { result.failures += 1 }
        if verbose {
            print("  \(result.name): first position \(first.map { format(milliseconds($0 - sent), 3) } ?? "never") ms")
        }
        next = sent + period
        var ends: [(time: String, at: MonotonicTime)] = []
        var written: [MonotonicTime] = []
        for epoch in (feed.firstValid + 1)...(feed.firstValid + later + 1) {
            pause(until: next)
            pty.drain()
            let stamps = pty.sendPaced(feed.sentences(epoch))
            written += stamps
            if epoch <= feed.firstValid + later { ends.append((feed.isoTime(epoch), stamps.last!)) }
            next = next + period
        }
        sleep(for: .milliseconds(300))
        let lines = client.output
        for end in ends {
            let epochTPVs = lines.filter {
                $0.text.hasPrefix("{\"class\":\"TPV\"") && jsonField($0.text[...], "time") == end.time[...]
            }
            // The epoch's last TPV: the complete fix (gpsd may send several per epoch as sentences arrive).
            if let last = epochTPVs.last {
                result.later.append(milliseconds(last.at - end.at))
                if let sentence = written.last(where: { $0 <= last.at }) {
                    result.afterSentence.append(milliseconds(last.at - sentence))
                }
            } else {
                result.failures += 1
            }
            if let first = epochTPVs.first(where: { $0.text.contains("\"lat\":") }) {
                result.position.append(max(0, milliseconds(first.at - end.at)))
            }
        }
    }
    return result
}
