import System

/// Opens a port briefly to see whether it sends NMEA: what `nmea devices --probe` does for each candidate.
public enum DeviceProbe {
    /// What a probe found.
    public enum Outcome: Sendable, Equatable {
        /// Checksum-valid NMEA at this rate.
        case nmea(BaudRate)
        /// Nothing NMEA within the time allowed (the rates tried are listed).
        case noNMEA(tried: [BaudRate])
        /// The port could not be opened or read.
        case failed(SerialPortError)
    }

    /// Autobauds `path` for at most `budget`, wanting `sentencesNeeded` valid sentences. A rate found is
    /// remembered in `memory` under `key`, and the remembered rate is tried first.
    public static func probe(
        path: String, budget: Duration = .seconds(4), window: Duration = .milliseconds(1200),
        sentencesNeeded: Int = 2, memory: BaudRateMemory? = nil, key: String? = nil, stop: StopSignal? = nil
    ) -> (outcome: Outcome, elapsed: Duration) {
        let started = MonotonicTime.now()
        let remembered = key.flatMap { memory?.rate(for: $0) }
        let port: SerialPort
        do {
            port = try SerialPort(path: path, baudRate: remembered ?? .b9600)
        } catch {
            return (.failed(error), started.elapsed)
        }
        defer { port.close() }
        let autobaud = Autobaud(
            remembered: remembered, window: window, sentencesNeeded: sentencesNeeded,
            totalLimit: budget)
        let outcome: Outcome
        do {
            switch try autobaud.run(on: port, stop: stop) {
            case .locked(let rate, _, _):
                if let key { memory?.remember(rate, for: key) }
                outcome = .nmea(rate)
            case .noNMEA(let tried, _):
                outcome = .noNMEA(tried: tried)
            case .stopped:
                outcome = .noNMEA(tried: [])
            case .disconnected(let reason):
                outcome = .failed(
                    SerialPortError(
                        kind: .disconnected, path: path, operation: "read",
                        errno: reason.errno))
            }
        } catch {
            outcome = .failed(error)
        }
        return (outcome, started.elapsed)
    }
}

extension DisconnectReason {
    /// The system error behind it, if any.
    var errno: Errno? {
        if case .error(let errno) = self { return errno }
        return nil
    }
}
