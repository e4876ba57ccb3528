import Glibc
import NMEA
import Pipeline
import System
import Threading
import Timekeeping

/// `--chrony SOCKET`, `--ntp-shm UNIT`, `--time-offset SECONDS` and `--pps DEVICE`: the receiver's time to
/// chrony and ntpd, one sample per trusted epoch (`serve`, `record`).
struct TimeOptions {
    private static let chrony = Option<String?>(
        long: "chrony", valueName: "socket", help: "Send each trusted fix's time to chronyd's 'refclock SOCK SOCKET'."
    ) { text throws(ValueError) in
        guard !text.isEmpty else { throw .invalid("", because: "expected a socket path") }
        return text
    }
    private static let sharedMemory = Option<Int?>(
        long: "ntp-shm", valueName: "unit",
        help: "Write each trusted fix's time into NTP shared-memory unit N (units 0-1 need root).", in: 0...255)
    private static let pps = Option<String?>(
        long: "pps", valueName: "device", help: "Also send the kernel PPS device's edges (/dev/ppsN) as pulse samples.")

    /// The options, declared once.
    static let options: [any OptionDeclaration] = [chrony, sharedMemory, delayOption, pps]

    /// `--time-offset`, shared with `nmea time`.
    static let delayOption = Option<Double>(
        long: "time-offset", valueName: "seconds",
        help: "The receiver's known delay from the second to its first byte, added to its time.", default: 0,
        in: -10...10)

    /// `--time-offset`'s value in nanoseconds.
    static func delayNanoseconds(_ arguments: ParsedArguments) throws(UsageError) -> Int64 {
        Int64((try arguments.value(delayOption) * 1e9).rounded())
    }

    /// `--set-clock` (`record` only).
    static let setClockOption = Flag(
        long: "set-clock",
        help: "Step the system clock once, at the first trusted 3D fix, when it is off by more than 1 s "
            + "(needs CAP_SYS_TIME).")

    var chronyPath: String?
    var setsClock = false
    var sharedMemoryUnit: Int?
    var delayNanoseconds: Int64 = 0
    var ppsPath: String?

    /// `true` when no time output is asked for.
    var isEmpty: Bool { chronyPath == nil && sharedMemoryUnit == nil && ppsPath == nil && !setsClock }

    /// The options given; `canSetClock` when the command has `--set-clock`.
    init(_ arguments: ParsedArguments, canSetClock: Bool = false) throws(UsageError) {
        chronyPath = try arguments.value(Self.chrony)
        sharedMemoryUnit = try arguments.value(Self.sharedMemory)
        delayNanoseconds = try TimeOptions.delayNanoseconds(arguments)
        ppsPath = try arguments.value(Self.pps)
        setsClock = canSetClock && arguments.flag(Self.setClockOption)
        if ppsPath != nil && chronyPath == nil && sharedMemoryUnit == nil {
            throw arguments.usageError("--pps needs --chrony or --ntp-shm to send its pulses to")
        }
    }

    /// Asks `configuration` to stamp reads with the system clock, when any output is asked for.
    func configure(_ configuration: inout ReceiverPipeline.Configuration) {
        if !isEmpty { configuration.stampsReceiveTimes = true }
    }

    /// The outputs, running on their ring consumer (and a PPS thread).
    final class Running {
        let loop: RingConsumerLoop
        let consumer: Consumer
        let pps: PPSReader?

        init(loop: RingConsumerLoop, consumer: Consumer, pps: PPSReader?) {
            self.loop = loop
            self.consumer = consumer
            self.pps = pps
        }

        /// Stops at once (the receiver never started).
        func stop() {
            pps?.stop()
            loop.stop()
        }

        /// After the pipeline has stopped: reads the ring to its end.
        func finish() {
            pps?.stop()
            loop.join()
        }

        var summary: [String] {
            var lines = consumer.feed.withLock { $0.summary }
            if let line = consumer.stepperSummary { lines.append(line) }
            return lines
        }
    }

    /// Opens the outputs and joins `pipeline`'s ring; `nil` when none is asked for.
    /// - Throws: ``RuntimeError`` saying what to do when a socket, segment or PPS device cannot be used.
    func start(on pipeline: ReceiverPipeline, console: StatusLine) throws(RuntimeError) -> Running? {
        guard !isEmpty else { return nil }
        var chrony: ChronySocket?
        var sharedMemory: NTPSharedMemory?
        do {
            if let chronyPath { chrony = try ChronySocket(path: chronyPath) }
        } catch {
            throw RuntimeError("--chrony \(chronyPath ?? ""): \(error)")
        }
        if let unit = sharedMemoryUnit {
            do {
                sharedMemory = try NTPSharedMemory(unit: unit)
            } catch {
                let hint =
                    error.rawValue == EACCES ? " (units 0 and 1 are root's: run as root, or use unit 2 and up)" : ""
                throw RuntimeError("--ntp-shm \(unit): \(error)\(hint)")
            }
        }
        var pps: PPSDevice?
        if let ppsPath {
            do {
                pps = try PPSDevice(path: ppsPath)
            } catch {
                throw RuntimeError("--pps: \(error.description); run without --pps to use the NMEA time alone")
            }
        }
        let feed = ReferenceClockFeed(
            sampler: TimeSampler(delayNanoseconds: delayNanoseconds), chrony: chrony, sharedMemory: sharedMemory)
        let consumer = Consumer(
            feed, stepper: setsClock ? ClockStepper(sampler: TimeSampler(delayNanoseconds: delayNanoseconds)) : nil,
            console: console)
        let loop = RingConsumerLoop(consumer, name: "time", pipeline: pipeline)
        loop.start(threadName: "time")
        if let chronyPath { console.print("sending trusted fixes' time to chrony at \(chronyPath)") }
        if let unit = sharedMemoryUnit { console.print("writing trusted fixes' time to NTP SHM unit \(unit)") }
        let reader = pps.map { PPSReader($0, consumer: consumer) }
        reader?.start()
        return Running(loop: loop, consumer: consumer, pps: reader)
    }

    /// The ring consumer: each fix to the feed.
    final class Consumer: RecordConsumer, @unchecked Sendable {
        /// Shared with the PPS thread, when there is one.
        let feed: Locked<ReferenceClockFeed>
        /// `--set-clock`: used on the consumer's thread only, read after it has finished.
        private(set) var stepper: ClockStepper?
        let console: StatusLine

        init(_ feed: ReferenceClockFeed, stepper: ClockStepper?, console: StatusLine) {
            self.feed = Locked(feed)
            self.stepper = stepper
            self.console = console
        }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            for record in records {
                guard case .fix(let fix) = record.content else { continue }
                feed.withLock { $0.take(fix) }
                if stepper != nil, let outcome = stepper?.consider(fix) { report(outcome) }
            }
        }

        /// Logs what `--set-clock` did.
        func report(_ outcome: ClockStepper.Outcome) {
            switch outcome {
            case .stepped(let offset):
                console.print("set the system clock to the receiver's time (it was off by \(-offset) s)")
            case .withinThreshold(let offset):
                console.print("the system clock is within 1 s of the receiver's (\(-offset) s): not set")
            case .failed(let error, let offset):
                console.print(
                    "cannot set the system clock (off by \(-offset) s): \(error); run as root or give the program "
                        + "CAP_SYS_TIME (setcap cap_sys_time+ep)")
            }
        }

        /// What `--set-clock` refused, for the summary.
        var stepperSummary: String? {
            guard let stepper else { return nil }
            var refused = TimeSampler.Refusal.allCases.compactMap { reason -> String? in
                guard let count = stepper.sampler.refusals[reason], count > 0 else { return nil }
                return "\(count) \(reason.rawValue)"
            }
            refused += ClockStepper.Refusal.allCases.compactMap { reason -> String? in
                guard let count = stepper.refusals[reason], count > 0 else { return nil }
                return "\(count) \(reason.rawValue)"
            }
            let done = stepper.isDone ? "decided" : "no trusted 3D fix, clock not set"
            return "set-clock: \(done); refused: \(refused.isEmpty ? "none" : refused.joined(separator: ", "))"
        }
    }

    /// Fetches PPS edges on a thread of its own and sends each as a pulse sample, once the NMEA time is trusted
    /// (a pulse alone does not say which second it marks).
    final class PPSReader: @unchecked Sendable {
        let device: PPSDevice
        let consumer: Consumer
        private let stopping = Locked(false)
        private var thread: NativeThread?

        init(_ device: PPSDevice, consumer: Consumer) {
            self.device = device
            self.consumer = consumer
        }

        func start() {
            thread = NativeThread(name: "pps") { [self] in
                while !stopping.withLock({ $0 }) {
                    guard let edge = device.fetch(timeoutMilliseconds: 500) else { continue }
                    consumer.feed.withLock { feed in
                        if feed.sampler.accepted > 0 { feed.send(PPSDevice.sample(edgeAt: edge.nanoseconds)) }
                    }
                }
            }
        }

        func stop() {
            stopping.withLock { $0 = true }
            thread?.join()
        }
    }
}
