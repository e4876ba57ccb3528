import GPSDFixtures
import Glibc
import NMEA
import Pipeline
import SerialPort
import Simulation
import Synchronization
import System
import TestSupport
import Testing
import Threading

@testable import Publisher

/// The Swift face: position and status streams from files and from a device on a pty.
@Suite(.serialized) struct PositionPublisherTests {
    /// Positions received by a subscriber task, with when they arrived.
    final class Received: @unchecked Sendable {
        private let lock = Mutex<[(position: Position, at: MonotonicTime)]>([])
        func append(_ position: Position) { lock.withLock { $0.append((position, .now())) } }
        var all: [(position: Position, at: MonotonicTime)] { lock.withLock { $0 } }
        var count: Int { lock.withLock { $0.count } }
    }

    func subscribe(_ publisher: PositionPublisher, every delay: Duration = .zero) -> (Task<Void, Never>, Received) {
        let received = Received()
        let task = spawn {
            for await position in publisher.positions {
                received.append(position)
                if delay > .zero { try? await Task.sleep(for: delay) }  // pacing under test: a slow subscriber
            }
        }
        return (task, received)
    }

    @Test func theFirstPositionArrivesBeforeItsEpochIsComplete() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let journey = Journey(seconds: 2)
        let publisher = PositionPublisher()
        let (task, received) = subscribe(publisher)
        publisher.start(try FileByteSource(path: pty.slavePath))
        defer {
            publisher.stop()
            task.cancel()
        }
        let sentences = journey.sentences(0)
        #expect(sentences[0].hasPrefix("$GNRMC"))
        try pty.write(sentences[0] + "\r\n")  // RMC only: the rest of the epoch is not written yet
        #expect(waitUntil(timeout: .seconds(2)) { received.count >= 1 })
        guard let first = received.all.first?.position else { return }
        #expect(first.fix.isProvisional)
        let expected = journey.expectedCoordinates(0)
        #expect(String(format9(first.fix.latitude!)) == expected.latitude)
        #expect(String(format9(first.fix.longitude!)) == expected.longitude)
        // The rest of the epoch, and the next one: the complete fix follows.
        try pty.write(sentences.dropFirst().joined(separator: "\r\n") + "\r\n")
        try pty.write(journey.epoch(1))
        #expect(waitUntil(timeout: .seconds(2)) { received.all.contains { !$0.position.fix.isProvisional } })
        let complete = received.all.first { !$0.position.fix.isProvisional }?.position.fix
        #expect(complete?.altitudeMeters != nil)
        #expect(complete?.satellites.count == journey.fixes[0].satellites.count)
    }

    @Test func aSlowSubscriberGetsTheNewestFixNotABacklog() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let journey = Journey(seconds: 6)
        let publisher = PositionPublisher()
        let (task, received) = subscribe(publisher, every: .milliseconds(200))
        let (fast, everything) = subscribe(publisher)
        publisher.start(try FileByteSource(path: pty.slavePath))
        defer {
            publisher.stop()
            task.cancel()
            fast.cancel()
        }
        // 60 epochs at 100 Hz: 0.6 s, while the slow subscriber takes 0.2 s per fix.
        let feedStarted = MonotonicTime.now()
        // The fast subscriber is kept up: before each epoch the feed waits for it to have the fix of the epoch
        // before last and the newest position published so far. Once the assembler has learned the cycle an epoch's
        // fix is out at its own last sentence, so waiting for the one before last alone let the next epoch's
        // provisional position replace it in the stream (which keeps the newest) before the subscriber's thread ran.
        // (Before the cycle is learned, a fix and the next provisional one come out of the same sentence: on a
        // starved machine the subscriber can still miss one of those.) 20 s is an upper bound.
        let feeder = PtyFeeder(pty: pty, journey: journey, interval: .milliseconds(10)) { index in
            _ = waitUntil(timeout: .seconds(20)) {
                everything.all.filter { !$0.position.fix.isProvisional }.count >= index - 1
                    && everything.all.last?.position == publisher.latestPosition
            }
        }
        feeder.join()
        let feedSeconds =
            Double((MonotonicTime.now() - feedStarted).components.attoseconds) / 1e18
            + Double((MonotonicTime.now() - feedStarted).components.seconds)
        let last = journey.fixes.count - 1
        let lastTime = journey.fixes[last].dateTime.time
        #expect(waitUntil(timeout: .seconds(20)) { received.all.last?.position.fix.time == lastTime })
        let slow = received.all
        // One fix per 0.2 s while the feed lasted (0.6 s unless the machine is busy), the latest once it ended.
        let bound = Int(feedSeconds / 0.2) + 3
        #expect(slow.count <= bound, "a slow subscriber got \(slow.count) fixes in \(feedSeconds) s: a backlog")
        #expect(slow.count < journey.fixes.count / 3)
        // Newest first every time: strictly increasing fix times, ending with the last one.
        let times = slow.map { $0.position.fix.time!.nanosecondsSinceMidnight }
        #expect(times == times.sorted() && Set(times).count == times.count)
        #expect(slow.last?.position.fix.time == lastTime)
        // Meanwhile a subscriber that keeps up saw every epoch (and the provisional first one).
        #expect(waitUntil(timeout: .seconds(20)) { everything.all.last?.position.fix.time == lastTime })
        let complete = everything.all.filter { !$0.position.fix.isProvisional }
        #expect(complete.count == journey.fixes.count)
    }

    @Test func aNewSubscriberGetsTheLastKnownFixAtOnceWithItsAge() throws {
        let journey = Journey(seconds: 0.5)
        var bytes: [UInt8] = []
        for index in journey.fixes.indices { bytes += journey.epoch(index) }
        let publisher = PositionPublisher()
        publisher.start(MemoryByteSource(bytes, device: "drive.nmea"))
        #expect(
            waitUntil(timeout: .seconds(3)) {
                if case .ended = publisher.currentStatus.connection { return true }
                return false
            })
        sleep(for: .milliseconds(50))  // pacing under test: the last fix grows 50 ms old before anyone asks
        // The file has ended; a subscriber that comes now still gets the last position, then the end.
        let outcome = runAsync {
            var iterator = publisher.positions.makeAsyncIterator()
            let started = MonotonicTime.now()
            let first = await iterator.next()
            let waited = MonotonicTime.now() - started
            return (first, waited, await iterator.next())
        }
        #expect(outcome != nil)
        if let (first, waited, end) = outcome {
            #expect(waited < .milliseconds(100))
            #expect(first?.fix.time == journey.fixes.last!.dateTime.time)
            #expect((first?.age ?? .zero) >= .milliseconds(50))
            #expect(end == nil)
        }
        publisher.stop()
    }

    @Test func aSubscriberJoiningALiveStreamGetsTheLatestFixBeforeTheNextEpoch() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let journey = Journey(seconds: 3, rateHz: 1)
        let publisher = PositionPublisher()
        publisher.start(try FileByteSource(path: pty.slavePath))
        defer { publisher.stop() }
        try pty.write(journey.epoch(0))
        try pty.write(journey.epoch(1))
        // Epoch 1 completes epoch 0, whose end teaches the cycle's end, and goes out complete at its own end
        // (issue 12, item 8: not a cycle late): that is the latest position.
        #expect(
            waitUntil(timeout: .seconds(2)) {
                publisher.latestPosition?.fix.time == journey.fixes[1].dateTime.time
            })
        // No more input: the next epoch would be a second away. Then the live one.
        let epoch2 = journey.epoch(2)
        let outcome = runAsync {
            var iterator = publisher.positions.makeAsyncIterator()
            let started = MonotonicTime.now()
            let position = await iterator.next()
            let waited = MonotonicTime.now() - started
            try? pty.write(epoch2)
            return (position, waited, await iterator.next())
        }
        #expect(outcome != nil)
        if let (position, waited, live) = outcome {
            #expect(waited < .milliseconds(100))
            #expect(position?.fix.time == journey.fixes[1].dateTime.time && position?.fix.isProvisional == false)
            // Epoch 2 completes epoch 1 and, the cycle's end now learned, itself: whichever is newest when the
            // subscriber asks (latest value).
            #expect([journey.fixes[1].dateTime.time, journey.fixes[2].dateTime.time].contains(live?.fix.time))
        }
    }

    @Test func cancellingASubscriberEndsItsStreamAndNothingElse() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let journey = Journey(seconds: 3)
        let publisher = PositionPublisher()
        let (cancelled, _) = subscribe(publisher)
        let (kept, keptReceived) = subscribe(publisher)
        publisher.start(try FileByteSource(path: pty.slavePath))
        let feeder = PtyFeeder(pty: pty, journey: journey, interval: .milliseconds(20))
        #expect(waitUntil(timeout: .seconds(2)) { keptReceived.count > 3 })
        cancelled.cancel()
        // The cancelled task's loop ends by itself (its `next()` returns nil).
        let ended = Flag()
        spawn {
            await cancelled.value
            ended.set()
        }
        #expect(waitUntil(timeout: .seconds(2)) { ended.isSet })
        let before = keptReceived.count
        feeder.join()
        #expect(waitUntil(timeout: .seconds(2)) { keptReceived.count > before + 10 })
        publisher.stop()
        #expect(runAsync { await kept.value } != nil)  // stop() ends the other stream
    }

    @Test func stopEndsBothStreams() throws {
        let publisher = PositionPublisher()
        let statusTask = spawn {
            var seen: [PublisherStatus] = []
            for await status in publisher.status { seen.append(status) }
            return seen
        }
        let (positions, _) = subscribe(publisher)
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        publisher.start(try FileByteSource(path: pty.slavePath))
        try pty.write(Journey(seconds: 1).epoch(0))
        #expect(waitUntil(timeout: .seconds(2)) { publisher.latestPosition != nil })
        publisher.stop()
        #expect(runAsync { await positions.value } != nil)
        let seen = runAsync { await statusTask.value } ?? []
        #expect(seen.last?.connection == .ended(reason: .stopped))
        #expect(seen.contains { $0.connection.isConnected && $0.fix == .twoD || $0.fix == .threeD })
    }

    /// A receiver behind socat's ptys, unplugged (socat stopped) and plugged back (socat started with the same
    /// links): the status stream says so, and the fix comes back.
    @Test(.enabled(if: Tools.available("socat"), "socat is not installed (scripts/test installs it)"))
    func statusFollowsUnplugAndReplug() throws {
        let directory = TemporaryDirectory("replug")
        defer { directory.remove() }
        let socat = SocatPair(directory: directory.path)
        #expect(socat.start())
        defer { socat.stop() }
        let journey = Journey(seconds: 60)
        let feeder = NMEAFeeder(path: socat.receiverSide, count: journey.fixes.count, keepsTime: true) {
            journey.epoch($0)
        }
        feeder.start()
        defer { feeder.stop() }

        let pipeline = ReceiverPipeline(configuration: .positionAtOnce)
        let publisher = PositionPublisher(pipeline: pipeline)
        let statuses = Shared<[PublisherStatus]>([])
        let watcher = spawn {
            for await status in publisher.status { statuses.withLock { $0.append(status) } }
        }
        publisher.start()
        var options = ReceiverConnection.Options()
        options.memory = nil
        options.rescanInterval = .milliseconds(50)
        let connection = ReceiverConnection(.path(socat.deviceSide), options: options)
        let reader = NativeThread {
            pipeline.feed { feeder in
                try? connection.run { event in
                    switch event {
                    case .data(let bytes): feeder.ingest(bytes)
                    case .idle: feeder.idle()
                    case .status(let status): feeder.report(ReceiverStatus(status))
                    }
                }
            }
        }
        defer {
            connection.stop()
            reader.join()
            publisher.stop()
            watcher.cancel()
        }
        func count(_ predicate: (PublisherStatus) -> Bool) -> Int { statuses.withLock { $0.filter(predicate).count } }
        let located: (PublisherStatus) -> Bool = { $0.connection.isConnected && $0.fix == .threeD }
        #expect(waitUntil(timeout: .seconds(8)) { count(located) >= 1 })
        #expect(count { $0.connection.isConnected && $0.satellitesInView == 28 && $0.satellitesUsed > 0 } >= 1)

        socat.stop()  // unplug
        #expect(
            waitUntil(timeout: .seconds(3)) {
                count { if case .disconnected = $0.connection { return $0.fix == .none } else { return false } } >= 1
            })
        // Unplugged until the connection has looked for the device and found it gone.
        #expect(
            waitUntil(timeout: .seconds(3)) {
                statuses.withLock { sequence in
                    let disconnected = sequence.firstIndex {
                        if case .disconnected = $0.connection { true } else { false }
                    }
                    return disconnected.map { index in
                        sequence[index...].contains { if case .searching = $0.connection { true } else { false } }
                    } ?? false
                }
            })
        #expect(socat.start())  // replug: the same links
        let before = count(located)
        #expect(waitUntil(timeout: .seconds(8)) { count(located) > before })

        let sequence = statuses.withLock { $0 }
        let connections = sequence.map(\.connection)
        let firstConnected = connections.firstIndex { $0.isConnected }
        let disconnected = connections.firstIndex { if case .disconnected = $0 { return true } else { return false } }
        let reconnected = connections.lastIndex { $0.isConnected }
        #expect(firstConnected != nil && disconnected != nil && reconnected != nil)
        if let firstConnected, let disconnected, let reconnected {
            #expect(firstConnected < disconnected && disconnected < reconnected)
            #expect(connections[firstConnected].device == socat.deviceSide)
            if case .connected(_, let rate) = connections[firstConnected] { #expect(rate > 0) }
        }
    }
}

/// A flag set by one task and read by another thread.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Degrees to 9 decimals, rounded, as gpsd (and the server) writes them.
func format9(_ value: Double) -> String {
    let scaled = Int64((abs(value) * 1e9).rounded())
    let fraction = String(scaled % 1_000_000_000)
    return (value < 0 ? "-" : "") + "\(scaled / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count)
        + fraction
}
