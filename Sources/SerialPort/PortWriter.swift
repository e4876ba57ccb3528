import System
import Threading

/// Bytes other threads send to a receiver's port while it is read (RTCM corrections from an NTRIP caster), written
/// by a thread of its own so that the reader never waits for them. The port's one writer once it is connected
/// (``ReceiverConnection`` attaches it after the connection's configuration, ``ReceiverConnection/Options/prepare``,
/// is done, and detaches it before the port closes).
///
///     let writer = PortWriter()
///     options.writer = writer                       // the ReceiverConnection attaches each port it reads
///     writer.start()
///     _ = frame.withUnsafeBytes { writer.offer($0) } // from the NTRIP client's thread: never blocks
///     writer.stop()
///
/// Frames are queued whole (at most ``capacity`` bytes in all); a frame that does not fit, or that comes while no
/// port is connected (autobauding, unplugged), is dropped and counted: a correction is worth nothing seconds later,
/// and a receiver that cannot take them at its baud rate must not hold up the caster's socket. A frame whose write
/// does not finish within ``writeTimeout`` is cut short (the receiver discards it by its CRC) and counted.
public final class PortWriter: Sendable {
    /// What the writer has done.
    public struct Statistics: Sendable, Hashable {
        /// Frames written to the port whole.
        public var framesWritten = 0
        public var bytesWritten = 0
        /// Frames dropped because the queue was full.
        public var droppedFull = 0
        /// Frames dropped because no port was connected.
        public var droppedDisconnected = 0
        /// Frames cut short: the port did not take them in time, or the write failed.
        public var failedWrites = 0

        public init() {}
    }

    /// The most bytes queued.
    public let capacity: Int
    /// The longest one frame's write may take.
    public let writeTimeout: Duration
    private let state = Locked(State())
    /// Held while a frame is written: ``detach()`` takes it, so no write follows its return.
    private let portLock = Locked<SerialPort?>(nil)
    private let wakeUp = WakeUp()
    private let thread = Locked<NativeThread?>(nil)

    private struct State {
        var queue: [(bytes: [UInt8], offered: MonotonicTime)] = []
        var head = 0
        var queuedBytes = 0
        var attached = false
        var stopping = false
        var statistics = Statistics()
        /// The latest latencies from offer to written, µs (a ring of ``latencySampleCount``).
        var latencies: [Int] = []
        var latencyNext = 0
    }

    private static let latencySampleCount = 4096

    /// `capacity`: 64 KiB is about 40 s of a typical 1 Hz RTCM stream (1–1.5 kB/s), and 5.5 s at 115,200 baud.
    public init(capacity: Int = 65_536, writeTimeout: Duration = .milliseconds(500)) {
        self.capacity = capacity
        self.writeTimeout = writeTimeout
    }

    /// Starts the writing thread.
    public func start() {
        thread.withLock { current in
            guard current == nil else { return }
            current = NativeThread(name: "port writer") { [self] in run() }
        }
    }

    /// Stops the writing thread (what is queued is dropped) and waits for it.
    public func stop() {
        state.withLock { $0.stopping = true }
        wakeUp.signal()
        thread.take()?.join()
    }

    /// Queues a copy of `frame` for the port; `false` (counted) when it was dropped. Never blocks on the port.
    @discardableResult
    public func offer(_ frame: UnsafeRawBufferPointer) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.attached else {
                state.statistics.droppedDisconnected += 1
                return false
            }
            guard state.queuedBytes + frame.count <= capacity else {
                state.statistics.droppedFull += 1
                return false
            }
            state.queue.append((Array(frame), .now()))
            state.queuedBytes += frame.count
            return true
        }
        if accepted { wakeUp.signal() }
        return accepted
    }

    /// The port bytes go to from now on (``ReceiverConnection`` calls it).
    public func attach(_ port: SerialPort) {
        portLock.withLock { $0 = port }
        state.withLock { $0.attached = true }
    }

    /// No port any more: what is queued is dropped; returns once no write is under way.
    public func detach() {
        state.withLock { state in
            state.attached = false
            state.statistics.droppedDisconnected += state.queue.count - state.head
            state.queue.removeAll(keepingCapacity: true)
            state.head = 0
            state.queuedBytes = 0
        }
        portLock.withLock { $0 = nil }
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The latest latencies from ``offer(_:)`` to the frame written whole (at most 4,096), in microseconds.
    public var latencyMicroseconds: [Int] { state.withLock { $0.latencies } }

    private func run() {
        while true {
            _ = wakeUp.wait(timeout: .milliseconds(250))
            wakeUp.drain()
            while let (frame, offered) = next() {
                let written = portLock.withLock { port in port.map { write(frame, to: $0) } }
                record(frame.count, offered: offered, written: written)
            }
            if state.withLock({ $0.stopping }) { return }
        }
    }

    private func next() -> ([UInt8], MonotonicTime)? {
        state.withLock { state in
            guard !state.stopping, state.head < state.queue.count else { return nil }
            let item = state.queue[state.head]
            state.head += 1
            state.queuedBytes -= item.bytes.count
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return item
        }
    }

    /// Writes all of `frame` within ``writeTimeout``; `false` when it could not.
    private func write(_ frame: [UInt8], to port: SerialPort) -> Bool {
        let deadline = MonotonicTime.now() + writeTimeout
        return frame.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                do throws(Errno) {
                    done += try port.fileDescriptor.write(UnsafeRawBufferPointer(rebasing: bytes[done...]))
                } catch .wouldBlock {
                    let left = deadline - MonotonicTime.now()
                    guard left > .zero else { return false }
                    _ = try? port.fileDescriptor.poll(.writable, timeoutMilliseconds: left.pollMilliseconds)
                } catch {
                    return false
                }
            }
            return true
        }
    }

    private func record(_ count: Int, offered: MonotonicTime, written: Bool?) {
        let microseconds = Int((MonotonicTime.now().nanoseconds - offered.nanoseconds) / 1000)
        state.withLock { state in
            switch written {
            case true?:
                state.statistics.framesWritten += 1
                state.statistics.bytesWritten += count
                if state.latencies.count < Self.latencySampleCount {
                    state.latencies.append(microseconds)
                } else {
                    state.latencies[state.latencyNext] = microseconds
                }
                state.latencyNext = (state.latencyNext + 1) % Self.latencySampleCount
            case false?: state.statistics.failedWrites += 1
            case nil: state.statistics.droppedDisconnected += 1
            }
        }
    }
}
