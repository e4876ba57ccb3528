import Glibc
import NMEA
import Pipeline
import System
import Threading
import Timekeeping

/// `nmea time`: how far the system clock is from the receiver's time, as `ntpshmmon` and `gpsmon` tell it.
enum TimeCommand: Command {
    static let spec = CommandSpec(
        name: "time",
        abstract: "Tell how far the system clock is from the receiver's time.",
        discussion: """
            Reads SOURCE until --epochs trusted fixes have arrived (a fix with a date of the receiver's own, \
            after the week-rollover checks, not before this program was built, with no jump of its time) and \
            prints the offset of the system clock from the receiver's time at the arrival of each epoch's first \
            byte (positive: the system clock is ahead, as chronyc prints it), its median, the jitter (standard \
            deviation) and the epochs refused, by reason. A serial receiver's first byte arrives some tens of \
            milliseconds after the second it names: give that delay with --time-offset to see the clock's own \
            offset. NMEA times are UTC; NMEA 0183 announces no leap second, so none is reported. Exits 1 when no \
            trusted fix arrives within --timeout.
            """,
        arguments: [source],
        options: [epochs, timeout, receiver.baud, TimeOptions.delayOption, json],
        examples: [
            "nmea time", "nmea time /dev/ttyACM0 --epochs 60 --json", "nmea time /dev/ttyUSB0 --time-offset 0.130",
        ])

    private static let source = Argument<String?>(
        "source", help: "A device path, 'auto', a serial number, a FIFO, or tcp://HOST:PORT, gpsd://HOST[:PORT].",
        defaultText: "auto")
    private static let epochs = Option<Int>(
        long: "epochs", valueName: "n", help: "Trusted epochs to measure.", default: 10, in: 1...86_400)
    private static let timeout = Option<Double>(
        long: "timeout", valueName: "seconds", help: "Give up when they have not arrived by then.", default: 60,
        in: 0.1...86_400)
    private static let receiver = ReceiverOptions(baudHelp: "A device's line rate, or 'auto' to find it.")
    private static let json = Flag(long: "json", help: "Print one JSON object instead of text.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let epochs = try arguments.value(Self.epochs)
        let timeout = try arguments.value(Self.timeout)
        let baudRate = try receiver.baudRate(arguments)
        let delay = try TimeOptions.delayNanoseconds(arguments)
        let json = arguments.flag(Self.json)
        let source = try ReceiverSource.classify(arguments.value(Self.source) ?? "auto", receiver: receiver, arguments)
        switch source {
        case .file, .standardInput:
            throw arguments.usageError(
                "nmea time measures a live receiver; a file's or a pipe's times are not now (use a device or a FIFO)")
        case .device, .network, .stream:
            break
        }
        StopSignal.install()
        var configuration = source.pipelineConfiguration
        configuration.publishesSentences = false
        configuration.publishesRaw = false
        configuration.stampsReceiveTimes = true
        let pipeline = ReceiverPipeline(configuration: configuration)
        let measurement = Measurement(sampler: TimeSampler(delayNanoseconds: delay), wanted: epochs)
        let loop = RingConsumerLoop(measurement, name: "time", pipeline: pipeline)
        loop.start(threadName: "time")
        let receiver = try source.start(speed: nil, baudRate: baudRate, on: pipeline)
        let deadline = MonotonicTime.now() + .milliseconds(Int64(timeout * 1000))
        while !StopSignal.wait(timeout: .milliseconds(100)) {
            if measurement.isDone || MonotonicTime.now() >= deadline { break }
            if let receiver, receiver.hasEnded { break }
            if receiver == nil && pipeline.status.state == .ended { break }
        }
        receiver?.stop()
        pipeline.stop()
        loop.join()
        let result = measurement.result
        if json {
            Console.standardOutput.write(result.json + "\n")
        } else {
            Console.standardOutput.write(result.text)
        }
        Console.standardOutput.flush()
        guard result.offsets.isEmpty else { return ExitStatus.success }
        if let failure = receiver?.failure { throw RuntimeError(failure) }
        if StopSignal.isRequested {
            // Stopped by the user (Ctrl-C, SIGTERM) before a trusted fix: not a failure to find one.
            Console.error("nmea time: stopped before a trusted fix arrived; nothing measured\n")
            return ExitStatus.success
        }
        Console.error(
            "nmea time: no trusted fix within \(Int(timeout)) s: check that the receiver has a fix ('nmea watch' "
                + "shows it) and a date (an RMC or ZDA sentence)\n")
        return ExitStatus.failure
    }

    /// The ring consumer: each fix through the sampler, its offset kept.
    final class Measurement: RecordConsumer, @unchecked Sendable {
        struct Result {
            /// The system clock less the receiver's time, in seconds, per trusted epoch.
            var offsets: [Double] = []
            var refusals: [TimeSampler.Refusal: Int] = [:]
            var fixes = 0

            var median: Double? {
                guard !offsets.isEmpty else { return nil }
                let sorted = offsets.sorted()
                return sorted.count % 2 == 1
                    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }

            var jitter: Double? {
                guard offsets.count > 1 else { return nil }
                let mean = offsets.reduce(0, +) / Double(offsets.count)
                let variance = offsets.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(offsets.count - 1)
                return variance.squareRoot()
            }

            var text: String {
                var text = ""
                if let median {
                    text += "offset: \(seconds(median)) s (system clock less receiver, median of \(offsets.count))\n"
                    text += "jitter: \(jitter.map { seconds($0, signed: false) } ?? "-") s\n"
                    text += "date: trusted\n"
                } else {
                    text += "offset: - (no trusted fix)\n"
                    text += "date: not trusted\n"
                }
                text += "leap second: none announced\n"
                text += "fixes: \(fixes), refused: \(refusedText)\n"
                return text
            }

            var refusedText: String {
                let parts = TimeSampler.Refusal.allCases.compactMap { reason -> String? in
                    guard let count = refusals[reason], count > 0 else { return nil }
                    return "\(count) \(reason.rawValue)"
                }
                return parts.isEmpty ? "none" : parts.joined(separator: ", ")
            }

            var json: String {
                var refused = TimeSampler.Refusal.allCases.map { "\"\($0.rawValue)\":\(refusals[$0] ?? 0)" }
                refused.sort()
                return "{\"epochs\":\(offsets.count),\"offset\":\(median.map { seconds($0) } ?? "null"),"
                    + "\"jitter\":\(jitter.map { seconds($0, signed: false) } ?? "null"),"
                    + "\"dateTrusted\":\(!offsets.isEmpty),\"leap\":\"none\",\"fixes\":\(fixes),"
                    + "\"refused\":{\(refused.joined(separator: ","))}}"
            }

            /// Seconds to the microsecond: `+0.050123`.
            func seconds(_ value: Double, signed: Bool = true) -> String {
                let micros = Int64((abs(value) * 1e6).rounded())
                let fraction = String(micros % 1_000_000)
                let sign = value < 0 && micros != 0 ? "-" : (signed ? "+" : "")
                return "\(sign)\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
            }
        }

        private var sampler: TimeSampler
        private let wanted: Int
        private let state = Locked(Result())

        init(sampler: TimeSampler, wanted: Int) {
            self.sampler = sampler
            self.wanted = wanted
        }

        var isDone: Bool { state.withLock { $0.offsets.count >= wanted } }
        var result: Result { state.withLock { $0 } }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            for record in records {
                guard case .fix(let fix) = record.content else { continue }
                let sample = sampler.sample(fix)
                let refusals = sampler.refusals
                state.withLock { result in
                    result.fixes += 1
                    result.refusals = refusals
                    if let sample, result.offsets.count < wanted { result.offsets.append(-sample.offsetSeconds) }
                }
            }
        }
    }
}
