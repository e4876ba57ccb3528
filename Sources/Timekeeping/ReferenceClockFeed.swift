import NMEA

/// The receiver's fixes to reference clocks: each fix the ``TimeSampler`` accepts becomes one sample, sent to
/// chrony's SOCK socket and written to an NTP SHM unit, whichever are configured.
public final class ReferenceClockFeed {
    public private(set) var sampler: TimeSampler
    public let chrony: ChronySocket?
    public let sharedMemory: NTPSharedMemory?

    public init(sampler: TimeSampler, chrony: ChronySocket?, sharedMemory: NTPSharedMemory?) {
        self.sampler = sampler
        self.chrony = chrony
        self.sharedMemory = sharedMemory
    }

    /// One fix: sends its sample, if it gives one.
    public func take(_ fix: Fix) {
        guard let sample = sampler.sample(fix) else { return }
        send(sample)
    }

    /// A sample from elsewhere (a PPS edge).
    public func send(_ sample: TimeSample) {
        chrony?.send(sample)
        sharedMemory?.write(sample)
    }

    /// What was sent and refused, for the command's summary.
    public var summary: [String] {
        var lines: [String] = []
        var refused = TimeSampler.Refusal.allCases.compactMap { reason -> String? in
            guard let count = sampler.refusals[reason], count > 0 else { return nil }
            return "\(count) \(reason.rawValue)"
        }.joined(separator: ", ")
        if refused.isEmpty { refused = "none" }
        lines.append("time: \(sampler.accepted) samples, refused: \(refused)")
        if let chrony {
            var line = "chrony \(chrony.path): \(chrony.sent) sent"
            if chrony.failed > 0 {
                line += ", \(chrony.failed) not taken (is chronyd running with 'refclock SOCK \(chrony.path)'?)"
            }
            lines.append(line)
        }
        if let sharedMemory {
            lines.append("ntp shm unit \(sharedMemory.unit): \(sharedMemory.written) written")
        }
        return lines
    }
}
