import Glibc
import NMEA
import SerialPort
import Simulation
import Synchronization
import System
import Threading
import UBX

/// An emulated receiver (``UBloxReceiver``, ``MediaTekReceiver``) on a pty, as on a serial port: it talks only at
/// its own baud rate (at any other, what it sends arrives as noise and what it is sent is lost, as on a UART), sends
/// an epoch at its configured rate, and answers configuration messages. The tests' receiver for `nmea config` and
/// `nmea record`.
public typealias EmulatedUBlox = EmulatedReceiver<UBloxReceiver>

public final class EmulatedReceiver<Model: EmulatedReceiverModel>: @unchecked Sendable {
    public let pty: PseudoTerminal
    private let receiver: Model
    private let lock = Lock()
    private let running = Atomic<Bool>(true)
    private var thread: NativeThread?
    private var epochTimes: [MonotonicTime] = []
    private var index = 0
    private var noise: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// `receiver` on a new pty, running.
    public init(_ receiver: Model) throws {
        pty = try PseudoTerminal.open()
        self.receiver = receiver
        thread = NativeThread(name: "receiver") { [self] in run() }
    }

    deinit { stop() }

    /// Reads the receiver's state (between its epochs and answers).
    public func inspect<R>(_ body: (Model) -> R) -> R { lock.withLock { body(receiver) } }

    /// Power off and on: the saved settings come back.
    public func powerCycle() {
        lock.withLock {
            receiver.powerCycle()
            epochTimes.removeAll()
        }
    }

    /// The output rate measured from the epochs sent since `since`, Hz (`nil` before two).
    public func measuredRate(since: MonotonicTime) -> Double? {
        let times = lock.withLock { epochTimes.filter { $0 >= since } }
        guard times.count >= 3, let first = times.first, let last = times.last else { return nil }
        let seconds = Double(last.nanoseconds - first.nanoseconds) / 1e9
        return seconds > 0 ? Double(times.count - 1) / seconds : nil
    }

    public func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
        thread = nil
    }

    // MARK: The line

    private func run() {
        var next = MonotonicTime.now()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while running.load(ordering: .relaxed) {
            let now = MonotonicTime.now()
            if now >= next {
                sendEpoch()
                let interval = lock.withLock { receiver.epochMilliseconds }
                next = next + .milliseconds(interval)
                if next < now { next = now + .milliseconds(interval) }
                continue
            }
            let wait = Int32(max(1, min(20, (next.nanoseconds - now.nanoseconds) / 1_000_000)))
            guard (try? pty.master.poll(.readable, timeoutMilliseconds: wait))?.contains(.readable) == true else {
                continue
            }
            guard let count = try? pty.master.read(into: buffer), count > 0 else { continue }
            let bytes = Array(buffer[..<count])
            guard atItsRate() else { continue }  // sampled at the wrong rate: lost
            let answer = lock.withLock { receiver.answer(bytes) }
            if !answer.bytes.isEmpty { try? pty.master.writeAll(answer.bytes) }
            if answer.baudRateAfter != nil { usleep(20_000) }  // the answer leaves at the old rate
        }
    }

    /// `true` when the line runs at the receiver's rate.
    private func atItsRate() -> Bool {
        let rate = lock.withLock { receiver.lineRate }
        return pty.lineRate()?.rawValue == rate
    }

    private func sendEpoch() {
        let nanoseconds = WallClock.nanosecondsSinceEpoch()
        let bytes = lock.withLock {
            defer { index += 1 }
            epochTimes.append(MonotonicTime.now())
            if epochTimes.count > 2000 { epochTimes.removeFirst(1000) }
            return receiver.epoch(atNanoseconds: nanoseconds, index: index)
        }
        if atItsRate() {
            try? pty.master.writeAll(bytes)
        } else {
            // What a UART at another rate makes of it: bytes, none of them a sentence or frame start.
            var garbage: [UInt8] = []
            for _ in 0..<max(8, bytes.count / 3) {
                noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var byte = UInt8(truncatingIfNeeded: noise >> 33)
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") || byte == 0xB5 || byte == 0xD3 {
                    byte = 0x7F
                }
                garbage.append(byte)
            }
            try? pty.master.writeAll(garbage)
        }
    }
}

extension EmulatedReceiver where Model == UBloxReceiver {
    /// A u-blox of `model` at `baudRate`, running.
    public convenience init(model: UBloxReceiver.Model, baudRate: Int = 9600) throws {
        try self.init(UBloxReceiver(model: model, baudRate: baudRate))
    }

    /// The settings in use.
    public var settings: UBloxReceiver.Settings { inspect { $0.settings } }
    /// The settings kept over a power cycle.
    public var savedSettings: UBloxReceiver.Settings { inspect { $0.savedSettings } }
    /// Every CFG message taken or refused, in order.
    public var configurationLog: [(message: String, accepted: Bool)] { inspect { $0.configurationLog } }
}
