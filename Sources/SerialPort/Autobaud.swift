import NMEA
import System

/// Finds the rate a receiver talks at: tries rates in turn until a checksum-valid NMEA sentence arrives.
///
/// The order is the rate remembered for the device (if any), then ``BaudRate/autobaudOrder``. Each rate gets at
/// most ``window`` (1.5 s by default; a 1 Hz receiver sends a burst each second), and less when the bytes that
/// arrive are plainly not NMEA at this rate: ``garbageLimit`` bytes without one valid sentence. A receiver at 9600
/// (the commonest default) locks on within about a second.
public struct Autobaud: Sendable {
    /// The longest time spent on one rate.
    public var window: Duration
    /// Bytes without a valid sentence after which a rate is abandoned early.
    public var garbageLimit: Int
    /// Valid sentences needed to accept a rate.
    public var sentencesNeeded: Int
    /// The rates to try, in order (duplicates are skipped).
    public var candidates: [BaudRate]
    /// The longest time for the whole search, or `nil` for no limit beyond the per-rate window.
    public var totalLimit: Duration?

    /// - Parameters:
    ///   - remembered: the rate that last worked for this device, tried first.
    public init(
        remembered: BaudRate? = nil, window: Duration = .milliseconds(1500), garbageLimit: Int = 1200,
        sentencesNeeded: Int = 1, order: [BaudRate] = BaudRate.autobaudOrder, totalLimit: Duration? = nil
    ) {
        self.window = window
        self.totalLimit = totalLimit
        self.garbageLimit = garbageLimit
        self.sentencesNeeded = sentencesNeeded
        var candidates: [BaudRate] = []
        for rate in (remembered.map { [$0] } ?? []) + order where !candidates.contains(rate) {
            candidates.append(rate)
        }
        self.candidates = candidates
    }

    /// What autobaud found.
    public enum Outcome: Sendable, Equatable {
        /// NMEA at this rate. `bytes` are everything read at that rate (at most 64 KiB), the proving sentence
        /// included, so the caller loses nothing that was received.
        case locked(BaudRate, bytes: [UInt8], elapsed: Duration)
        /// Every rate was tried without a valid sentence.
        case noNMEA(tried: [BaudRate], elapsed: Duration)
        /// The stop signal was raised.
        case stopped
        /// The device went away while trying.
        case disconnected(DisconnectReason)
    }

    /// Tries the candidate rates on `connection`, calling `trying` before each.
    /// - Throws: ``SerialPortError`` when the port fails otherwise (for example the driver refuses every rate).
    public func run(
        on connection: any SerialConnection, stop: StopSignal? = nil,
        trying: (BaudRate) -> Void = { _ in }
    ) throws(SerialPortError) -> Outcome {
        let started = MonotonicTime.now()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var tried: [BaudRate] = []
        var lastError: SerialPortError?
        let end = totalLimit.map { started + $0 }
        for rate in candidates {
            if stop?.isSignaled == true { return .stopped }
            if let end, MonotonicTime.now() >= end { break }
            do {
                try connection.setBaudRate(rate)
            } catch  where error.kind == .unsupportedSettings {
                lastError = error
                continue  // a driver that cannot do this rate
            }
            trying(rate)
            tried.append(rate)
            var deadline = MonotonicTime.now() + window
            if let end, end < deadline { deadline = end }
            let result = try listen(on: connection, buffer: buffer, until: deadline, stop: stop)
            switch result {
            case .valid(let bytes):
                return .locked(rate, bytes: bytes, elapsed: started.elapsed)
            case .invalid:
                continue
            case .stopped:
                return .stopped
            case .disconnected(let reason):
                return .disconnected(reason)
            }
        }
        if tried.isEmpty, let lastError { throw lastError }
        return .noNMEA(tried: tried, elapsed: started.elapsed)
    }

    private enum Listening {
        case valid([UInt8])
        case invalid
        case stopped
        case disconnected(DisconnectReason)
    }

    /// Reads at the current rate until enough valid sentences, the window ends, or too much garbage.
    private func listen(
        on connection: any SerialConnection, buffer: UnsafeMutableRawBufferPointer,
        until deadline: MonotonicTime, stop: StopSignal?
    ) throws(SerialPortError) -> Listening {
        var framer = Framer()
        var received: [UInt8] = []
        var valid = 0
        var bytesSinceValid = 0
        while true {
            let remaining = deadline - MonotonicTime.now()
            if remaining <= .zero { return .invalid }
            let outcome = try connection.read(into: buffer, timeout: remaining, stop: stop)
            switch outcome {
            case .timedOut: return .invalid
            case .stopped: return .stopped
            case .disconnected(let reason): return .disconnected(reason)
            case .data(let count):
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                if received.count + count <= 65536 { received.append(contentsOf: chunk) }
                let validBefore = valid
                framer.feed(chunk) { event in
                    // A checksum-valid UBX frame proves the rate as a sentence does (a receiver set to UBX only).
                    switch event {
                    case .sentence: valid += 1
                    case .binaryFrame(let frame) where frame.kind == .ubx: valid += 1
                    default: break
                    }
                }
                bytesSinceValid = valid > validBefore ? 0 : bytesSinceValid + count
                if valid >= sentencesNeeded { return .valid(received) }
                if bytesSinceValid >= garbageLimit { return .invalid }
            }
        }
    }
}
