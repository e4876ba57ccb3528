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
func measurePublisher(pty: PseudoTerminal, runs: Int, later: Int) -> Latencies {
    var result = Latencies(name: "swift-nmea PositionPublisher (AsyncSequence)")
    let feed = Feed(rateHz: 10, noFixSeconds: 0.5, driveSeconds: Double(later + 3) / 10)
    for _ in 0..<runs {
        pty.drain()
        let publisher = PositionPublisher()
        let received = Received()
        let ready = Flag()
        let task = Task.detached {
            var iterator = publisher.positions.makeAsyncIterator()
            ready.set()
            while let position = await iterator.next() { received.append(position.fix, now()) }
        }
        _ = waitUntil(timeout: .seconds(1)) { ready.isSet }
        do {
            publisher.start(try FileByteSource(path: pty.slavePath))
        } catch {
            result.failures += 1
            continue
        }
        _ = waitUntil(timeout: .seconds(1)) { publisher.currentStatus.connection.isConnected }
        // A few epochs without a fix, at 10 Hz, as a receiver sends while it searches.
        var next = now()
        for index in (feed.firstValid - 3)..<feed.firstValid {
            pause(until: next)
            pty.send(feed.epoch(index))
            next = next + .milliseconds(100)
        }
        pause(until: next)
        // The first epoch with a fix, as a 115200-baud receiver sends it: RMC first.
        let sent = pty.send(paced: feed.sentences(feed.firstValid))[0]
        if waitUntil(timeout: .seconds(1), { !received.all.isEmpty }), let first = received.all.first {
            result.first.append(milliseconds(first.at - sent))
        } else {
            result.failures += 1
        }
        next = sent + .milliseconds(100)
        for index in (feed.firstValid + 1)...(feed.firstValid + later) {
            pause(until: next)
            let end = pty.send(paced: feed.sentences(index)).last!
            next = next + .milliseconds(100)
            let time = feed.fixes[index].dateTime.time
            if waitUntil(timeout: .seconds(1), { received.all.last?.time == time }), let got = received.all.last {
                result.later.append(milliseconds(got.at - end))
            } else {
                result.failures += 1
            }
        }
        publisher.stop()
        task.cancel()
    }
    return result
}

/// Print each first-fix measurement as it is taken (`--verbose`).
let verbose = CommandLine.arguments.contains("--verbose")

/// A server process on the pty (gpsd, or nmea serve) and `gpspipe -w` reading it; arrival of gpspipe's lines.
func measureServer(
    name: String, pty: PseudoTerminal, runs: Int, later: Int,
    command: (UInt16) -> [String]
) -> Latencies {
    var result = Latencies(name: name)
    let feed = Feed(rateHz: 10, noFixSeconds: 5, driveSeconds: Double(later + 3) / 10)
    for _ in 0..<runs {
        pty.drain()
        let port = freePort()
        let server = Child(command(port), captureOutput: false)
        defer { server.stop() }
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
            next = next + .milliseconds(100)
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
        let sent = pty.send(paced: feed.sentences(feed.firstValid))[0]
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
        next = sent + .milliseconds(100)
        var ends: [(time: String, at: MonotonicTime)] = []
        for epoch in (feed.firstValid + 1)...(feed.firstValid + later) {
            pause(until: next)
            pty.drain()
            ends.append((feed.isoTime(epoch), pty.send(paced: feed.sentences(epoch)).last!))
            next = next + .milliseconds(100)
        }
        sleep(for: .milliseconds(300))
        let lines = client.output
        for end in ends {
            // The epoch's last TPV: the complete fix (gpsd may send several per epoch as sentences arrive).
            let last = lines.last {
                $0.text.hasPrefix("{\"class\":\"TPV\"") && jsonField($0.text[...], "time") == end.time[...]
            }
            if let last { result.later.append(milliseconds(last.at - end.at)) } else { result.failures += 1 }
        }
    }
    return result
}
