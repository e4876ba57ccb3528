import Glibc
import NMEA
import Pipeline
import SerialPort
import System
import Trips
import Watch

/// What the view knows, kept up to date by a feed; ``snapshot(now:)`` is what gets drawn.
final class WatchModel {
    var state: WatchState
    /// When the latest fix arrived (``Clock/now()``).
    private var arrival: Double?
    private var meter = FixRateMeter()
    /// The trips so far by the one rule, for the footer: the figures `nmea trips` gives the same fixes.
    private var trips = TripLog(undatedFixes: .timeOfDay)
    /// `true` once the input has ended: no age is shown then.
    var hasEnded = false

    init(source: WatchState.Source) {
        state = WatchState(source: source)
    }

    /// A new fix.
    func received(_ fix: Fix, at now: Double) {
        state.fix = fix
        arrival = now
        if !fix.isProvisional { trips.add(fix) }
        // The time of day serves for logs without dates (GGA only); midnight starts the measurement afresh.
        if let timestamp = fix.timestamp ?? fix.time?.nanosecondsSinceMidnight {
            meter.add(timestamp)
            state.fixRateHz = meter.hertz
        }
    }

    /// Some fixes were not seen: the rate is measured afresh.
    func missedFixes() { meter.reset() }

    func snapshot(now: Double) -> WatchState {
        var snapshot = state
        snapshot.fixAgeSeconds = hasEnded ? nil : arrival.map { now - $0 }
        snapshot.trips = trips.summary
        return snapshot
    }
}

/// Where the view's data comes from: a pipeline (a receiver, a replayed file) or a gpsd connection.
protocol WatchFeed: AnyObject {
    /// A descriptor to poll for input (a socket), or `nil`.
    var descriptor: FileDescriptor? { get }
    /// Takes in what has arrived: updates `model`, calls `fix` for every new fix, in order.
    func pump(_ model: WatchModel, fix: (Fix) -> Void)
    /// Waits up to `milliseconds` for something to pump.
    func wait(milliseconds: Int32)
    /// `true` when nothing more will come.
    var hasEnded: Bool { get }
    /// Why the source could not be read, when that ended it.
    var failure: String? { get }
    /// Lines for standard error in the plain mode (connection changes), taken once.
    func takeMessages() -> [String]
    func stop()
}

/// A receiver or a recorded file read through a ``ReceiverPipeline``; the view is one consumer of its ring.
final class PipelineFeed: WatchFeed {
    let pipeline: ReceiverPipeline
    let consumer: RingConsumer<PipelineRecord>
    private let receiver: RunningReceiver?
    private let isReplay: Bool
    private(set) var hasEnded = false
    private var messages: [String] = []
    private var lastStatus: ReceiverStatus?

    static func configuration(assembler: FixAssembler.Options) -> ReceiverPipeline.Configuration {
        var configuration = ReceiverPipeline.Configuration()
        configuration.publishesSentences = false
        configuration.publishesRaw = false
        configuration.assembler = assembler
        return configuration
    }

    /// A receiver through ``DeviceReceiver`` (autobaud, unplug and replug).
    init(selector: DeviceSelector, baudRate: BaudRate?) {
        let today = UTCDate(containing: WallClock.nanosecondsSinceEpoch())
        pipeline = ReceiverPipeline(
            configuration: PipelineFeed.configuration(
                assembler: FixAssembler.Options(fallbackDate: today, referenceDate: today)))
        consumer = pipeline.makeConsumer(name: "watch")
        let receiver = RunningReceiver(selector: selector, baudRate: baudRate, pipeline: pipeline)
        self.receiver = receiver
        isReplay = false
        receiver.start()
    }

    /// A `tcp://`, `udp://` or `gpsd://` source through ``NetworkReceiver`` (reconnects with backoff).
    init(network address: NetworkSourceAddress) {
        let today = UTCDate(containing: WallClock.nanosecondsSinceEpoch())
        pipeline = ReceiverPipeline(
            configuration: PipelineFeed.configuration(
                assembler: FixAssembler.Options(fallbackDate: today, referenceDate: today)))
        consumer = pipeline.makeConsumer(name: "watch")
        let receiver = RunningReceiver(address, pipeline: pipeline)
        self.receiver = receiver
        isReplay = false
        receiver.start()
    }

    /// A file or standard input, replayed by a ``ReplayByteSource`` (paced unless `speed` is `nil`) that waits for
    /// the view: a file can wait, so no fix is lost to a slow reader (one line of output per fix when piped).
    init(replaying file: sending FileByteSource, speed: Double?) {
        pipeline = ReceiverPipeline(configuration: PipelineFeed.configuration(assembler: FixAssembler.Options()))
        consumer = pipeline.makeConsumer(name: "watch")
        receiver = nil
        isReplay = true
        pipeline.start(ReplayByteSource(file, speed: speed, waitingFor: consumer))
    }

    var descriptor: FileDescriptor? { nil }

    func wait(milliseconds: Int32) {
        _ = consumer.wait(timeout: .milliseconds(Int(milliseconds)))
    }

    func pump(_ model: WatchModel, fix: (Fix) -> Void) {
        while let (record, lost) = consumer.next(timeout: .zero) {
            if lost > 0 { model.missedFixes() }
            switch record.content {
            case .fix(let received):
                model.received(received, at: MonotonicTime.now().seconds)
                fix(received)
            case .status(let status):
                take(status, model)
            default:
                break
            }
        }
        let statistics = pipeline.statistics
        model.state.fixCount = statistics.published.fixes
        model.state.rejectedLines = statistics.framer.rejected
    }

    private func take(_ status: ReceiverStatus, _ model: WatchModel) {
        switch status.state {
        case .connected:
            if isReplay {
                model.state.status = "replaying"
            } else {
                model.state.device = status.device.string
                model.state.baudRate = status.baudRate > 0 ? Int(status.baudRate) : nil
                model.state.status = "connected"
            }
        case .ended:
            hasEnded = true
            model.hasEnded = true
            if let failure {
                model.state.status = failure
            } else {
                model.state.status = status.reason == .endOfFile ? "end of input" : "stopped"
            }
        case .searching, .connecting, .disconnected:
            model.state.status = status.summary
            if status.state == .disconnected { model.state.baudRate = nil }
        }
        // Connection changes as lines for the plain mode; the error that ends the source is reported once, at the end.
        let description = status.summary
        if !isReplay && status != lastStatus && status.state != .ended && status.reason != .failed {
            messages.append(description)
        }
        lastStatus = status
    }

    var failure: String? {
        receiver?.failure
    }

    func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    func stop() {
        if let receiver {
            receiver.stop()
        } else {
            pipeline.stop()
        }
    }
}
