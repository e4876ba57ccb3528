import Glibc
import Synchronization
import System
import Threading

/// `socat pty,raw,echo=0,link=A pty,raw,echo=0,link=B`: two linked ptys, as a null-modem cable. The receiver
/// writes into ``receiverSide``; the program under test opens ``deviceSide``.
public final class SocatPair: @unchecked Sendable {
    public let receiverSide: String
    public let deviceSide: String
    public let directory: String
    public private(set) var process: ChildProcess?

    /// Links named `gps-out` and `ttyGPS` in `directory`.
    public init(directory: String) {
        self.directory = directory
        receiverSide = directory + "/gps-out"
        deviceSide = directory + "/ttyGPS"
    }

    deinit { stop() }

    /// Starts socat and waits (5 s at most) for both links.
    public func start() -> Bool {
        guard
            let socat = try? ChildProcess([
                "socat", "pty,raw,echo=0,link=\(receiverSide)", "pty,raw,echo=0,link=\(deviceSide)",
            ])
        else { return false }
        process = socat
        return waitUntil(timeout: .seconds(5)) {
            access(receiverSide, F_OK) == 0 && access(deviceSide, F_OK) == 0
        }
    }

    /// Stops socat (both ptys close: the "receiver" is unplugged) and waits for it to end.
    public func stop() {
        process?.stop(SIGTERM, timeout: .seconds(5))
        process = nil
        // socat removes its links at exit; make sure.
        unlink(receiverSide)
        unlink(deviceSide)
    }
}

/// Writes NMEA into a pty path every `interval` until stopped (or `count` writes), reopening the path when it goes
/// away: a receiver that is unplugged and plugged in again.
///
///     let feeder = NMEAFeeder(path: socat.receiverSide)                        // sampleRMC, 10 Hz
///     let journey = NMEAFeeder(path: link, count: 600, keepsTime: true) { epochs[$0] }
public final class NMEAFeeder: @unchecked Sendable {
    public let path: String
    public let interval: Duration
    private let count: Int?
    private let keepsTime: Bool
    private let bytes: @Sendable (Int) -> [UInt8]
    private let stopFlag = Atomic<Bool>(false)
    private var thread: NativeThread?
    /// Writes done so far.
    public let written = Atomic<Int>(0)

    /// - Parameters:
    ///   - count: how many writes, at most (`nil`: until ``stop()``).
    ///   - keepsTime: the index moves on every `interval` whether or not the write got through, as a receiver keeps
    ///     its clock while unplugged; otherwise it moves on with each write that did.
    ///   - bytes: what to write the `n`th time (`sampleRMC(second: n)` by default).
    public init(
        path: String, interval: Duration = .milliseconds(100), count: Int? = nil, keepsTime: Bool = false,
        bytes: @escaping @Sendable (Int) -> [UInt8] = { Array(sampleRMC(second: $0).utf8) }
    ) {
        self.path = path
        self.interval = interval
        self.count = count
        self.keepsTime = keepsTime
        self.bytes = bytes
    }

    /// Starts writing on a thread of its own.
    public func start() {
        thread = NativeThread { [self] in
            var descriptor: FileDescriptor?
            var index = 0
            while !stopFlag.load(ordering: .relaxed) && index < (count ?? .max) {
                if descriptor == nil {
                    descriptor = try? FileDescriptor.open(
                        path, .writeOnly, options: [.noControllingTerminal, .nonBlocking, .closeOnExec])
                }
                var wrote = false
                if let open = descriptor {
                    let line = bytes(index)
                    let result = line.withUnsafeBytes { bytes in Result { () throws(Errno) in try open.write(bytes) } }
                    switch result {
                    case .success(let count) where count > 0:
                        written.add(1, ordering: .relaxed)
                        wrote = true
                    case .success, .failure(.wouldBlock):
                        break  // the pty is full: nobody reads the other side yet
                    case .failure:
                        try? open.close()
                        descriptor = nil
                    }
                }
                if wrote || keepsTime { index += 1 }
                sleep(for: interval)  // pacing under test: a receiver writing a line every `interval`
            }
            try? descriptor?.close()
        }
    }

    /// Stops writing and waits for the thread.
    public func stop() {
        stopFlag.store(true, ordering: .relaxed)
        thread?.join()
    }
}

/// A checksum-valid RMC sentence (with CR LF) for second `second` after 12:00:00 on 1994-03-23.
public func sampleRMC(second: Int) -> String {
    nmeaSentence("GPRMC,\(sampleTime(second)),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
}

/// A checksum-valid GGA sentence (with CR LF) for second `second` after 12:00:00.
public func sampleGGA(second: Int) -> String {
    nmeaSentence("GPGGA,\(sampleTime(second)),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
}

/// An RMC and a GGA sentence (with CR LF) `offset` seconds after the midnight UTC between the days `before` and
/// `after` (`ddmmyy`; by default 1994-03-23 and 24), on `before` when `offset` is negative: for tests of what
/// happens at midnight.
public func sampleEpoch(aroundMidnight offset: Int, before: String = "230394", after: String = "240394") -> String {
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let seconds = (offset + 86_400) % 86_400
    let time = twoDigits(seconds / 3600) + twoDigits(seconds / 60 % 60) + twoDigits(seconds % 60) + ".00"
    let date = offset < 0 ? before : after
    return nmeaSentence("GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,\(date),003.1,W")
        + nmeaSentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
}

/// `$body*hh\r\n`: the body with its checksum (upper-case hex) and line end.
public func nmeaSentence(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
}

private func sampleTime(_ second: Int) -> String {
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "12\(twoDigits(second / 60 % 60))\(twoDigits(second % 60)).00"
}
