import Glibc
import NMEA
import Pipeline
import Publisher
import SerialPort
import System

/// Issue 13: what a `tcp://` source adds to fix latency. Each run, two PositionPublishers read the same epochs at
/// the same moments: one from the pty, one from a TCP connection to a listener of ours (loopback, `TCP_NODELAY` on
/// the sending side, as a multiplexer forwarding each sentence at once). Each sentence is written to the pty and
/// then sent on the socket, each stamped just before its call; latency is, for each source, last byte of the epoch
/// (its own stamp) → that epoch's complete fix received.
func measureTCPBesidePty(pty: PseudoTerminal, runs: Int, later: Int, rateHz: Int) -> [Latencies] {
    var ptyResult = Latencies(name: "pty source, beside tcp:// (AsyncSequence)")
    var tcpResult = Latencies(name: "tcp:// source, beside the pty (AsyncSequence)")
    let period = Duration.milliseconds(1000 / rateHz)
    let feed = Feed(rateHz: Double(rateHz), noFixSeconds: 0.5, driveSeconds: Double(later + 3) / Double(rateHz))
    guard let listener = try? FileDescriptor.socket(family: AF_INET) else { return [ptyResult, tcpResult] }
    defer { try? listener.close() }
    try? listener.setOption(.reuseAddress, 1)
    guard (try? listener.bind(to: .loopback(port: 0))) != nil, (try? listener.listen()) != nil,
        let port = try? listener.localAddress().port
    else { return [ptyResult, tcpResult] }
    for _ in 0..<runs {
        pty.drain()
        let overPty = PositionPublisher()
        let overTCP = PositionPublisher()
        let (ptyReceived, ptyTask) = subscribe(overPty)
        let (tcpReceived, tcpTask) = subscribe(overTCP)
        defer {
            overPty.stop()
            overTCP.stop()
            ptyTask.cancel()
            tcpTask.cancel()
        }
        do {
            overPty.start(try FileByteSource(path: pty.slavePath))
        } catch {
            ptyResult.failures += 1
            continue
        }
        overTCP.start(TCPByteSource(NetworkSourceAddress(scheme: .tcp, host: "127.0.0.1", port: port)))
        guard (try? listener.poll(.readable, timeoutMilliseconds: 2000))?.isEmpty == false,
            let connection = try? listener.accept()
        else {
            tcpResult.failures += 1
            tcpResult.notes.append("the tcp:// source did not connect")
            continue
        }
        defer { try? connection.close() }
        try? connection.setOption(.noDelay, 1)
        _ = waitUntil(timeout: .seconds(1)) {
            overPty.currentStatus.connection.isConnected && overTCP.currentStatus.connection.isConnected
        }
        // A few epochs without a fix, then the drive; every sentence to both, paced as at 115200 baud.
        var next = now()
        var ends: [(time: UTCTime, pty: MonotonicTime, tcp: MonotonicTime)] = []
        for index in (feed.firstValid - 3)...(feed.firstValid + later + 1) {
            pause(until: next)
            let stamps = sendBoth(feed.sentences(index), pty: pty, socket: connection)
            next = next + period
            if index > feed.firstValid && index <= feed.firstValid + later, let last = stamps.last {
                ends.append((feed.fixes[index].dateTime.time, last.pty, last.tcp))
            }
        }
        sleep(for: .milliseconds(300))
        let ptyAll = ptyReceived.all
        let tcpAll = tcpReceived.all
        for end in ends {
            if let fix = ptyAll.first(where: { $0.time == end.time && !$0.provisional }) {
                ptyResult.later.append(milliseconds(fix.at - end.pty))
            } else {
                ptyResult.failures += 1
            }
            if let fix = tcpAll.first(where: { $0.time == end.time && !$0.provisional }) {
                tcpResult.later.append(milliseconds(fix.at - end.tcp))
            } else {
                tcpResult.failures += 1
            }
        }
    }
    return [ptyResult, tcpResult]
}

/// A task collecting `publisher`'s positions as they arrive, started and iterating before this returns.
func subscribe(_ publisher: PositionPublisher) -> (Received, Task<Void, Never>) {
    let received = Received()
    let ready = Flag()
    let task = Task.detached {
        var iterator = publisher.positions.makeAsyncIterator()
        ready.set()
        while let position = await iterator.next() { received.append(position.fix, now()) }
    }
    _ = waitUntil(timeout: .seconds(1)) { ready.isSet }
    return (received, task)
}

/// Writes each sentence to the pty and sends it on `socket` at the moment its last byte would have arrived at
/// 115200 baud; returns when each write and each send began.
private func sendBoth(_ sentences: [[UInt8]], pty: PseudoTerminal, socket: FileDescriptor)
    -> [(pty: MonotonicTime, tcp: MonotonicTime)]
{
    var due = now()
    var stamps: [(pty: MonotonicTime, tcp: MonotonicTime)] = []
    for (offset, sentence) in sentences.enumerated() {
        if offset > 0 {
            due = due + .nanoseconds(Int64(Double(sentence.count) * 10 / 115_200 * 1e9))
            pause(until: due)
        }
        let ptyStamp = pty.send(sentence)
        let tcpStamp = now()
        try? socket.sendAll(sentence)
        stamps.append((ptyStamp, tcpStamp))
    }
    return stamps
}
