import Glibc
import NMEA
import Pipeline
import Simulation
import Synchronization
import System
import TestSupport
import Testing

/// The reader thread end to end: simulated NMEA in, records out.
@Suite struct ReceiverPipelineTests {
    /// Two minutes of a journey at 1 Hz: driving, parked, no fix, driving in a curve.
    static let scenario = Scenario(legs: [
        .drive(seconds: 60, speedKmh: 50), .park(seconds: 30), .noFix(seconds: 10),
        .drive(seconds: 20, speedKmh: 30, turnDegreesPerSecond: 3),
    ])
    static let truth = Array(scenario.fixes())

    static func nmea(_ fixes: some Sequence<SimulatedFix>, profile: EpochWriter.Profile = .multiGNSS) -> [UInt8] {
        var builder = SentenceBuilder()
        let writer = EpochWriter(profile: profile)
        for fix in fixes { writer.write(fix, into: &builder) }
        return builder.bytes
    }

    /// What the parser core makes of `bytes` without a pipeline: the sentences (as the pipeline writes them) and
    /// the fixes.
    static func reference(_ bytes: [UInt8], options: FixAssembler.Options = .init())
        -> (sentences: [String], fixes: [Fix])
    {
        var framer = Framer()
        var assembler = FixAssembler(options: options)
        var sentences: [String] = []
        var fixes: [Fix] = []
        let handle = { (event: FramerEvent) in
            guard case .sentence(let sentence) = event else { return }
            var text = String(decoding: sentence.bytes, as: UTF8.self)
            if let checksum = sentence.checksum {
                let hex = String(checksum, radix: 16, uppercase: true)
                text += "*" + (hex.count == 1 ? "0" + hex : hex)
            }
            sentences.append(text)
            if let parsed = try? ParsedSentence(sentence) { assembler.add(parsed) { fixes.append($0) } }
        }
        framer.feed(bytes, handle)
        framer.finish(handle)
        assembler.finish { fixes.append($0) }
        return (sentences, fixes)
    }

    /// Everything a consumer reads until the ring is finished.
    struct Received {
        var records: [PipelineRecord] = []
        var lost = 0
        var fixes: [Fix] { records.compactMap(\.fix) }
        var sentences: [String] { records.compactMap { $0.sentence?.string } }
        var raw: [UInt8] { records.compactMap { $0.raw }.flatMap { $0.bytes } }
        var statuses: [ReceiverStatus] { records.compactMap(\.status) }
    }

    static func readAll(_ consumer: RingConsumer<PipelineRecord>, batch: Int = 256) -> Received {
        var received = Received()
        var idle = 0
        while idle < 20 {
            let read = consumer.read(maximumCount: batch, timeout: .milliseconds(500))
            received.records += read.records
            received.lost += read.lost
            if read.isFinished { break }
            idle = read.records.isEmpty ? idle + 1 : 0
        }
        return received
    }

    @Test func simulatedJourneyEndToEnd() throws {
        let input = Self.nmea(Self.truth)
        let reference = Self.reference(input)
        var configuration = ReceiverPipeline.Configuration()
        configuration.capacity = 4096
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer(name: "test")
        pipeline.start(MemoryByteSource(input, chunkSize: 37))
        let received = Self.readAll(consumer)
        pipeline.waitUntilFinished()

        #expect(received.lost == 0)
        // One fix per simulated epoch, with exactly the parser core's values.
        let fixes = received.fixes
        #expect(fixes.count == 120)
        #expect(fixes == reference.fixes)
        #expect(fixes.filter(\.hasPosition).count == 110)
        let first = try #require(fixes.first)
        #expect(first.iso8601 == "2026-11-30T08:00:00.00Z")
        #expect(abs(first.latitude! - 48.137_40) < 1e-9)
        #expect(abs(first.longitude! - 11.575_50) < 1e-9)
        #expect(first.altitudeMeters == 520.0)
        #expect(first.mode == .threeD)
        #expect(first.quality == .gps)
        #expect(first.satellitesUsed == Self.truth[0].satellites.filter(\.used).count)
        #expect(first.satellites.count == Self.truth[0].satellites.count)
        #expect(abs(first.speed! - 26.998 * 1852 / 3600) < 1e-9)
        for (fix, simulated) in zip(fixes, Self.truth) {
            #expect(fix.timestamp == simulated.nanosecondsSinceEpoch)
            #expect(fix.hasPosition == simulated.hasFix)
            if simulated.hasFix {
                // Five decimals of minutes: within 1e-5 / 60 degrees, half a step.
                #expect(abs(fix.latitude! - simulated.latitude) <= 0.5e-5 / 60 + 1e-12)
                #expect(abs(fix.longitude! - simulated.longitude) <= 0.5e-5 / 60 + 1e-12)
            }
        }
        #expect(fixes.last?.iso8601 == "2026-11-30T08:01:59.00Z")

        // Every sentence, and every byte exactly as received.
        #expect(received.sentences == reference.sentences)
        #expect(received.sentences.count == 120 * 16)
        #expect(received.raw == input)
        let chunks = received.records.compactMap { $0.raw }
        #expect(chunks.allSatisfy { $0.count <= PipelineRecord.rawCapacity && !$0.isTruncated })

        // Connected first, ended last; times never go back.
        #expect(received.statuses.map(\.state) == [.connected, .ended])
        #expect(received.records.first?.status?.device == "memory")
        #expect(received.records.last?.status == .ended(reason: .endOfFile))
        #expect(zip(received.records, received.records.dropFirst()).allSatisfy { $0.time <= $1.time })

        let statistics = pipeline.statistics
        #expect(statistics.framer.sentences == 1920)
        #expect(statistics.framer.rejected == 0)
        #expect(statistics.framer.bytes == input.count)
        #expect(statistics.decoder.totalDecoded == 1920)
        #expect(statistics.decoder[.gsv] == 120 * 7)
        #expect(statistics.assembler.fixes == 120)
        #expect(statistics.published.fixes == 120)
        #expect(statistics.published.sentences == 1920)
        #expect(statistics.published.rawBytes == input.count)
        #expect(statistics.published.statusChanges == 2)
        #expect(statistics.published.total == received.records.count)
        #expect(statistics.status == .ended(reason: .endOfFile))
        #expect(pipeline.latestFix?.fix == fixes.last)
        #expect(consumer.delivered == UInt64(received.records.count))
        #expect(pipeline.ring.isClosed)
    }

    /// Damaged input: the raw records still carry every byte, and fixes and sentences match the parser core's.
    @Test(arguments: [1, 7, 4096])
    func damagedInputInAnyChunking(chunkSize: Int) {
        let (input, faults) = FaultInjector(interval: 12, seed: 3).damage(Self.nmea(Self.truth.prefix(40)))
        #expect(faults.badChecksums > 0 && faults.garbageLines > 0)
        let reference = Self.reference(input)
        var configuration = ReceiverPipeline.Configuration()
        configuration.capacity = 2048
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer()
        pipeline.start(MemoryByteSource(input, chunkSize: chunkSize))
        let received = Self.readAll(consumer)
        pipeline.waitUntilFinished()
        #expect(received.lost == 0)
        #expect(received.raw == input)
        #expect(received.sentences == reference.sentences)
        #expect(received.fixes == reference.fixes)
        #expect(received.fixes.count == 40)
        #expect(pipeline.statistics.framer.rejected > 0)
    }

    /// A consumer that never keeps up loses records — counted exactly — and the reader thread is not slowed.
    @Test func slowConsumerLosesCountedRecords() {
        let input = Self.nmea(Self.truth)
        var configuration = ReceiverPipeline.Configuration()
        configuration.capacity = 16
        let pipeline = ReceiverPipeline(configuration: configuration)
        let laggard = pipeline.makeConsumer(name: "laggard")
        pipeline.start(MemoryByteSource(input))
        pipeline.waitUntilFinished()
        let published = pipeline.statistics.published.total
        let received = Self.readAll(laggard)
        #expect(received.records.count == 16)
        #expect(received.lost == published - 16)
        #expect(laggard.lost == UInt64(published - 16))
        #expect(received.records.last?.status?.state == .ended)
        #expect(pipeline.statistics.published.fixes == 120)
    }

    /// Unplugged mid-sentence and plugged in again: the cut sentence is dropped rather than glued to the next
    /// device's first, the epoch in hand still becomes a fix, and both sessions' fixes arrive.
    @Test func disconnectionStartsFramingAfresh() throws {
        let before = Self.nmea(Self.truth[0..<3])
        let after = Self.nmea(Self.truth[3..<6])
        let cut = Array(Self.nmea(Self.truth[3..<4]).prefix(20))
        let device = "/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_7_-_GPS_GNSS_Receiver-if00"
        let source = ScriptedSource([
            .status(.connecting(device: device, baudRate: 9600)),
            .status(.connected(device: device, baudRate: 9600)),
            .bytes(before + cut),
            .status(.disconnected(device: device, reason: .hangUp)),
            .status(.searching(device: device)),
            .status(.connected(device: device, baudRate: 9600)),
            .bytes(after),
            .end(.endOfFile),
        ])
        let pipeline = ReceiverPipeline()
        let consumer = pipeline.makeConsumer()
        pipeline.start(source)
        let received = Self.readAll(consumer)
        pipeline.waitUntilFinished()
        #expect(received.fixes.map(\.timestamp) == Self.truth[0..<6].map(\.nanosecondsSinceEpoch))
        let states = received.statuses.map(\.state)
        try #require(states == [.connecting, .connected, .disconnected, .searching, .connected, .ended])
        #expect(received.statuses[1].device.string == device)
        #expect(received.statuses[1].baudRate == 9600)
        #expect(received.statuses[2].reason == .hangUp)
        #expect(received.raw == before + cut + after)
        let statistics = pipeline.statistics
        #expect(statistics.framer.truncated == 0)
        #expect(statistics.framer.sentences == 6 * 16)
        #expect(statistics.framer.bytes == before.count + cut.count + after.count)
        // The status record's layout: device path inline, reason as a code.
        #expect(received.statuses[2].description == "disconnected \(device) (hang-up)")
    }

    /// `stop()` ends a source that never ends: the reader notices within a read timeout, publishes `.ended`
    /// (stopped) and closes the ring.
    @Test func stopEndsAnEndlessSource() {
        var configuration = ReceiverPipeline.Configuration()
        configuration.readTimeout = .milliseconds(20)
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer()
        pipeline.start(EndlessSource(epoch: Self.nmea(Self.truth.prefix(1))))
        // Wait for the first fix (the epoch repeats with the same time, so one fix, then none).
        var sawSentence = false
        for _ in 0..<100 where !sawSentence {
            let batch = consumer.read(maximumCount: 64, timeout: .milliseconds(100))
            sawSentence = batch.records.contains { $0.sentence != nil }
        }
        #expect(sawSentence)
        let start = MonotonicTime.now()
        pipeline.stop()
        #expect(start.elapsed < .seconds(2))
        let rest = Self.readAll(consumer, batch: 4096)
        #expect(rest.records.last?.status == .ended(reason: .stopped))
        #expect(pipeline.ring.isClosed)
        #expect(pipeline.status == .ended(reason: .stopped))
        pipeline.stop()  // harmless
    }

    /// Statistics, the latest fix and the consumers' counters are read from other threads while the reader runs:
    /// they only grow, and (under Thread Sanitizer) without a race.
    @Test func countersReadWhileRunning() {
        var configuration = ReceiverPipeline.Configuration()
        configuration.statisticsInterval = .milliseconds(1)
        configuration.capacity = 64
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer(name: "reader")
        var journey = Self.truth
        journey += Self.truth.map { fix in
            var later = fix
            later.nanosecondsSinceEpoch += 120_000_000_000
            return later
        }
        pipeline.start(EndlessSource(epoch: Self.nmea(journey)))
        let readers = (0..<2).map { index in
            TestThread {
                var last = 0
                for _ in 0..<200 {
                    let statistics = pipeline.statistics
                    #expect(statistics.framer.bytes >= last)
                    last = statistics.framer.bytes
                    _ = pipeline.latestFix
                    _ = pipeline.ring.consumerStatistics()
                    // A consumer reads on one thread at a time.
                    if index == 0 { _ = consumer.read(maximumCount: 16, timeout: .milliseconds(1)) }
                    sleep(for: .milliseconds(1))  // pacing under test: 200 looks spread over the reader's work
                }
            }
        }
        for reader in readers { reader.join() }
        // The reader has framed sentences and made a fix (on a busy machine perhaps only after the readers' looks).
        #expect(
            waitUntil(timeout: .seconds(10)) { pipeline.statistics.framer.sentences > 0 && pipeline.latestFix != nil })
        pipeline.stop()
        let statistics = pipeline.statistics
        #expect(statistics.framer.sentences > 0)
        #expect(statistics.status == .ended(reason: .stopped))
        #expect(pipeline.latestFix != nil)
        #expect(consumer.delivered + consumer.lost + consumer.lag == UInt64(statistics.published.total))
    }

    /// A source with a push loop of its own drives the pipeline through `feed`, on the caller's thread.
    @Test func feedFromAPushLoop() {
        let input = Self.nmea(Self.truth.prefix(10), profile: .gps)
        var configuration = ReceiverPipeline.Configuration()
        configuration.publishesSentences = false
        configuration.publishesRaw = false
        configuration.assembler.provisionalPositions = true
        let pipeline = ReceiverPipeline(configuration: configuration)
        let consumer = pipeline.makeConsumer()
        pipeline.feed { feeder in
            feeder.report(.connected(device: "push", baudRate: 4800))
            var offset = 0
            while offset < input.count {
                let end = min(offset + 100, input.count)
                input[offset..<end].withUnsafeBytes { feeder.ingest($0) }
                offset = end
                if offset % 300 == 0 { feeder.idle() }
            }
        }
        let received = Self.readAll(consumer)
        // The first epoch's position at once (provisional, issue 12 item 8), then one fix per epoch, each at its
        // end from the second on (the first epoch's end teaches the cycle's); nothing but fixes and statuses.
        #expect(received.fixes.count == 11)
        #expect(received.fixes.map(\.isProvisional) == [true] + Array(repeating: false, count: 10))
        let complete = received.fixes.filter { !$0.isProvisional }
        #expect(complete.map(\.timestamp) == Self.truth.prefix(10).map(\.nanosecondsSinceEpoch))
        #expect(received.fixes[0].timestamp == Self.truth[0].nanosecondsSinceEpoch)
        #expect(received.records.allSatisfy { $0.fix != nil || $0.status != nil })
        #expect(received.statuses == [.connected(device: "push", baudRate: 4800), .ended(reason: .endOfFile)])
        #expect(pipeline.statistics.framer.sentences == 60)
    }

    /// A file read through `FileByteSource`, and a late consumer that starts from the latest fix.
    @Test func fileSource() throws {
        let input = Self.nmea(Self.truth.prefix(30), profile: .rmcGGA)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write(input, to: "input.nmea")
        let path = directory.file("input.nmea")

        let pipeline = ReceiverPipeline()
        let consumer = pipeline.makeConsumer()
        pipeline.start(try FileByteSource(path: path))
        let received = Self.readAll(consumer)
        pipeline.waitUntilFinished()
        #expect(received.fixes.count == 30)
        #expect(received.statuses.first == .connected(device: path))
        #expect(received.raw == input)
        #expect(pipeline.latestFix?.fix.timestamp == Self.truth[29].nanosecondsSinceEpoch)

        #expect(throws: FileByteSource.OpenError(path: "/nonexistent/x", errorNumber: ENOENT)) {
            _ = try FileByteSource(path: "/nonexistent/x")
        }
    }

    @Test func recordLayout() {
        // Issue 16 added the magnetic heading, the depth and the rate of turn (16 bytes each), issue 18 the receive
        // time (`receivedNanoseconds`, Int64?) and `dateIsFromEpoch`: 1,227 bytes before both. Issue 16's group 4
        // added pitch and roll (16 bytes each): still one 1,344-byte slot. Issue 25 added `modeIsAssumed` (a track
        // file's point that stated no fix type): one byte. Issue 28 the speed and time accuracy (u-blox sAcc, tAcc;
        // 16 bytes each): a 1,408-byte slot.
        #expect(MemoryLayout<Fix>.size == 1355)
        #expect(MemoryLayout<PipelineRecord>.size == 1363)
        #expect(MemoryLayout<PipelineRecord>.stride == 1368)
        #expect(MemoryLayout<ReceiverStatus>.size == 723)
        #expect(MemoryLayout<InlineBytes<1024>>.size == 1027)
        let pipeline = ReceiverPipeline()
        #expect(pipeline.ring.slotSize == 1408)
        #expect(pipeline.ring.capacity == 2048)
        #expect(pipeline.ring.memorySize == 2_883_584)

        var text = InlineBytes<8>("0123456789")
        #expect(text.string == "01234567")
        #expect(text.isTruncated)
        text.removeAll()
        #expect(text.isEmpty && !text.isTruncated)
        let long = String(repeating: "x", count: 300)
        let status = ReceiverStatus.disconnected(device: long, reason: .readError, errorNumber: EIO, detail: "EIO")
        #expect(status.device.count == ReceiverStatus.deviceCapacity)
        #expect(status.device.isTruncated)
        #expect(status.errorNumber == EIO)
    }
}

/// A source that plays a script of events, one per read.
struct ScriptedSource: ByteSource {
    enum Step {
        case bytes([UInt8])
        case status(ReceiverStatus)
        case end(ReceiverStatus.Reason)
    }

    var steps: [Step]
    var pending: [UInt8] = []

    init(_ steps: [Step]) { self.steps = steps }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if pending.isEmpty {
            guard !steps.isEmpty else { return .end(.endOfFile) }
            switch steps.removeFirst() {
            case .bytes(let bytes): pending = bytes
            case .status(let status): return .status(status)
            case .end(let reason): return .end(reason)
            }
        }
        let count = min(pending.count, buffer.count)
        buffer.copyBytes(from: pending.prefix(count))
        pending.removeFirst(count)
        return .bytes(count)
    }
}

/// A receiver that sends the same epoch forever, a little at a time, with pauses.
struct EndlessSource: ByteSource {
    let epoch: [UInt8]
    var offset = 0
    var reads = 0

    init(epoch: [UInt8]) { self.epoch = epoch }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        reads += 1
        if reads % 3 == 0 {
            sleep(for: .milliseconds(5))  // pacing under test: the receiver pauses, and the read times out
            return .timedOut
        }
        let count = min(50, epoch.count - offset, buffer.count)
        buffer.copyBytes(from: epoch[offset..<(offset + count)])
        offset = (offset + count) % epoch.count
        return .bytes(count)
    }
}
