import Glibc
import System
import TestSupport

@testable import SerialPort

/// A receiver behind the port abstraction: NMEA bursts when the line is at `rightRate`, noise at any other rate
/// (what a UART sampling at the wrong rate makes of it), or nothing at all when `silent`.
final class FakeReceiver: SerialConnection {
    let path: String
    private(set) var baudRate: BaudRate
    let rightRate: BaudRate?
    /// Time between bursts (a 1 Hz receiver: 1 s).
    let burstInterval: Duration
    /// Garbage bytes per burst at a wrong rate.
    let garbagePerBurst: Int
    /// The rates set, in order.
    private(set) var ratesSet: [BaudRate] = []
    private(set) var isClosed = false
    /// After this many bursts the device "unplugs" (nil: never).
    var unplugAfterBursts: Int?

    private var nextBurst: MonotonicTime
    private var pending: [UInt8] = []
    private var bursts = 0
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(
        path: String = "/dev/fake", rightRate: BaudRate?, initialRate: BaudRate = .b9600,
        burstInterval: Duration = .milliseconds(200), garbagePerBurst: Int = 60, phase: Duration = .zero
    ) {
        self.path = path
        self.rightRate = rightRate
        self.baudRate = initialRate
        self.burstInterval = burstInterval
        self.garbagePerBurst = garbagePerBurst
        nextBurst = MonotonicTime.now() + phase
    }

    func setBaudRate(_ rate: BaudRate) throws(SerialPortError) {
        baudRate = rate
        ratesSet.append(rate)
        pending.removeAll()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, stop: StopSignal?)
        throws(SerialPortError) -> ReadOutcome
    {
        precondition(!isClosed)
        let deadline = MonotonicTime.now() + timeout
        while pending.isEmpty {
            if let limit = unplugAfterBursts, bursts >= limit { return .disconnected(.hangUp) }
            let now = MonotonicTime.now()
            if now >= nextBurst {
                makeBurst()
                nextBurst = nextBurst + burstInterval
                continue
            }
            let wake = min(nextBurst, deadline)
            if let stop {
                if stop.wait(timeout: wake - now) { return .stopped }
            } else {
                sleep(for: wake - now)  // pacing under test: the receiver's next burst
            }
            if MonotonicTime.now() >= deadline && pending.isEmpty && MonotonicTime.now() < nextBurst {
                return .timedOut
            }
        }
        let count = min(buffer.count, pending.count)
        pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        pending.removeFirst(count)
        return .data(count)
    }

    func close() { isClosed = true }

    private func makeBurst() {
        defer { bursts += 1 }
        guard let rightRate else { return }  // silent
        if baudRate == rightRate {
            pending += Array((sampleRMC(second: bursts) + sampleGGA(second: bursts)).utf8)
        } else {
            for _ in 0..<garbagePerBurst {
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                pending.append(UInt8(truncatingIfNeeded: random))
            }
        }
    }
}
