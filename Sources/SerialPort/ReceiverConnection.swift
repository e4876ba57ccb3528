import Glibc
import System

/// A receiver, kept connected: finds the device, opens it, autobauds, hands out the bytes it sends, and when it goes
/// away waits for it to come back and starts again.
///
///     let connection = ReceiverConnection(.auto)
///     // on a thread of its own:
///     try connection.run { event in
///         switch event {
///         case .data(let bytes): framer.feed(bytes) { … }          // bytes valid only during the call
///         case .status(.connected(let device)): print("using \(device.path) at \(device.baudRate)")
///         case .status(.disconnected(let path, let reason)): print("\(path): \(reason)")
///         case .status, .idle: break
///         }
///     }
///     // from any thread (a signal handler's thread, the main thread):
///     connection.stop()
///
/// `run` blocks the calling thread until ``stop()`` or a fatal error. Every wait in it is a `poll` that also
/// watches the stop signal, so `stop()` takes effect at once. A device comes back when its path exists again, or
/// (USB) when a device with the same serial number or `/dev/serial/by-id` link appears; hotplug events wake the
/// loop early, and a rescan every ``Options/rescanInterval`` covers places without them.
///
/// Fatal (thrown): for a device named by path, on the first attempt only — it does not exist (unless
/// ``Options/waitForDevice``), permission denied, busy, not a terminal, or no NMEA at any rate (unless
/// ``Options/giveUpWithoutNMEA`` is off). Once a device has been used, failures to reopen it are reported as
/// ``ConnectionStatus/unavailable(path:error:)`` and retried, since udev can briefly leave a new node root-only.
public final class ReceiverConnection: @unchecked Sendable {
    /// How to connect.
    public struct Options: Sendable {
        /// A fixed rate, or `nil` to autobaud.
        public var baudRate: BaudRate?
        /// The per-rate window and early-abandon rule for autobaud (the remembered rate is added per device).
        public var autobaudWindow: Duration = .milliseconds(1500)
        /// How long a read waits before the handler gets ``ConnectionEvent/idle``.
        public var idleInterval: Duration = .milliseconds(500)
        /// How often to look for the device while waiting for it.
        public var rescanInterval: Duration = .milliseconds(200)
        /// Wait for a device named by path to appear instead of failing at once. `nil`: wait for `auto` and serial
        /// numbers, fail for paths.
        public var waitForDevice: Bool?
        /// Keep going after the device went away (otherwise `run` returns after the first disconnection).
        public var reconnect = true
        /// For a device named by path: throw ``SerialPortError/Kind/noNMEA`` when the first autobaud finds nothing.
        public var giveUpWithoutNMEA = true
        /// In `auto` mode, how long a port that sent no NMEA is left alone before it is tried again.
        public var retryRejectedAfter: Duration = .seconds(30)
        /// Where rates that worked are remembered (`nil`: nowhere).
        public var memory: BaudRateMemory? = .standard
        /// Take ports exclusively (`TIOCEXCL`).
        public var exclusive = true
        /// Opens a connection; replace it to test with a fake device. The default opens a ``SerialPort``.
        public var open:
            @Sendable (_ path: String, _ rate: BaudRate, _ exclusive: Bool) throws(SerialPortError)
                -> any SerialConnection = { path, rate, exclusive throws(SerialPortError) in
                    try SerialPort(path: path, baudRate: rate, exclusive: exclusive)
                }
        /// Lists candidate devices for `auto` and serial numbers, and describes paths; `nil` uses libudev.
        public var listDevices: (@Sendable () -> [SerialDeviceInfo])?
        /// Talks to the receiver once it is connected, before its bytes are read for fixes: the configuration
        /// `record --rate` and `--gnss` ask for, sent at every connection (a replugged receiver forgets what it was
        /// told unless it saved it). What the receiver sends meanwhile is not handed on.
        public var prepare: (@Sendable (_ connection: any SerialConnection, _ path: String, _ rate: BaudRate) -> Void)?
        /// Writes to the port while it is read (RTCM corrections): attached once ``prepare`` is done, so that the
        /// port has one writer at a time, and detached before the port closes.
        public var writer: PortWriter?

        public init() {}
    }

    public let selector: DeviceSelector
    public let options: Options
    private let stopSignal = StopSignal()

    public init(_ selector: DeviceSelector, options: Options = Options()) {
        self.selector = selector
        self.options = options
    }

    /// Makes `run` return as soon as possible (thread-safe; callable before `run`, which then returns at once).
    public func stop() { stopSignal.signal() }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { stopSignal.isSignaled }

    // MARK: The loop

    /// Runs until ``stop()``: finds, opens, reads, and reconnects, calling `handler` on this thread.
    /// - Throws: ``SerialPortError`` for the fatal cases listed in the type's documentation.
    public func run(_ handler: (ConnectionEvent) -> Void) throws(SerialPortError) {
        var state = LoopState(discovery: options.listDevices == nil ? DeviceDiscovery() : nil)
        state.monitor = state.discovery.flatMap { HotplugMonitor(discovery: $0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { buffer.deallocate() }
        var searching = false
        while true {
            if stopSignal.isSignaled { break }
            var sessionEnded = false
            let found = candidates(&state)
            if found.isEmpty, case .path(let path) = selector, !state.everConnected,
                !(options.waitForDevice ?? false)
            {
                throw SerialPortError(.noSuchFileOrDirectory, path: path, operation: "open")
            }
            for candidate in found {
                if stopSignal.isSignaled { break }
                let result = try session(candidate, state: &state, buffer: buffer, handler: handler)
                switch result {
                case .stopped:
                    handler(.status(.stopped))
                    return
                case .disconnected:
                    sessionEnded = true
                    searching = false
                case .unusable:
                    continue
                }
                break
            }
            if sessionEnded && !options.reconnect { break }
            if stopSignal.isSignaled { break }
            if !searching && !sessionEnded {
                searching = true
                handler(.status(.searching(selector)))
            }
            waitForChange(&state)
        }
        handler(.status(.stopped))
    }

    private struct LoopState {
        var discovery: DeviceDiscovery?
        var monitor: HotplugMonitor?
        /// The device last used, to find it again.
        var last: SerialDeviceInfo?
        var everConnected = false
        /// Ports that sent no NMEA (`auto`), and when.
        var rejected: [String: MonotonicTime] = [:]
        /// The last failure reported per path, so a waiting loop does not repeat itself.
        var reported: [String: SerialPortError.Kind] = [:]
    }

    private enum SessionResult {
        case stopped
        case disconnected
        case unusable
    }

    private func devices(_ state: LoopState) -> [SerialDeviceInfo] {
        if let listDevices = options.listDevices { return listDevices() }
        return state.discovery?.serialDevices() ?? []
    }

    /// The devices to try now, best first.
    private func candidates(_ state: inout LoopState) -> [SerialDeviceInfo] {
        switch selector {
        case .path(let path):
            if access(path, F_OK) == 0 {
                let info =
                    options.listDevices == nil
                    ? state.discovery?.device(atPath: path) : devices(state).first { $0.path == path }
                return [info ?? SerialDeviceInfo(path: path)]
            }
            // A USB device that came back under another name.
            if let last = state.last, last.serialNumber != nil || last.byIDLink != nil,
                let moved = devices(state).first(where: { $0.sameHardware(as: last) })
            {
                return [moved]
            }
            return []
        case .serialNumber(let serial):
            return devices(state).filter { $0.serialNumber == serial }
        case .auto:
            let now = MonotonicTime.now()
            state.rejected = state.rejected.filter { now < $0.value + options.retryRejectedAfter }
            let found = devices(state)
            // Forget rejections of ports that are gone, so a replugged one is tried at once.
            let present = Set(found.map(\.path))
            state.rejected = state.rejected.filter { present.contains($0.key) }
            let rejected = state.rejected
            let usable = found.filter { $0.classification != .notGPS && rejected[$0.path] == nil }
            let last = state.last
            return usable.sorted { a, b in
                let aSame = last.map { a.sameHardware(as: $0) } ?? false
                let bSame = last.map { b.sameHardware(as: $0) } ?? false
                if aSame != bSame { return aSame }
                if a.classification.rank != b.classification.rank {
                    return a.classification.rank < b.classification.rank
                }
                return a.path < b.path
            }
        }
    }

    /// Waits until something may have changed: a hotplug event, the rescan interval, or stop.
    private func waitForChange(_ state: inout LoopState) {
        let events = try? FileDescriptor.poll(
            (stopSignal.fileDescriptor, .readable),
            state.monitor.map { ($0.fileDescriptor, .readable) },
            timeoutMilliseconds: options.rescanInterval.pollMilliseconds)
        if let events, !events.1.isEmpty, let monitor = state.monitor {
            for event in monitor.pendingEvents() {
                if let path = event.path {
                    state.rejected[path] = nil
                    state.reported[path] = nil
                }
            }
            // udevd may still be making links; give it a moment.
            if !DeviceDiscovery.udevdIsRunning { sleep(for: .milliseconds(50)) }
        }
    }

    /// One device from open to disconnection.
    private func session(
        _ device: SerialDeviceInfo, state: inout LoopState, buffer: UnsafeMutableRawBufferPointer,
        handler: (ConnectionEvent) -> Void
    ) throws(SerialPortError) -> SessionResult {
        let path = device.path
        let explicit: Bool = if case .path = selector { true } else { false }
        let waits = options.waitForDevice ?? !explicit
        let firstAttempt = !state.everConnected
        let key = device.stableKey
        let remembered = options.memory?.rate(for: key)

        func unusable(_ error: SerialPortError) throws(SerialPortError) -> SessionResult {
            let fatal =
                explicit && firstAttempt
                && (error.kind != .notFound || !waits)
                && (error.kind != .noNMEA || options.giveUpWithoutNMEA)
            if fatal { throw error }
            if state.reported[path] != error.kind {
                state.reported[path] = error.kind
                handler(.status(.unavailable(path: path, error: error)))
            }
            if error.kind == .noNMEA, case .auto = selector { state.rejected[path] = .now() }
            return .unusable
        }

        let connection: any SerialConnection
        do {
            connection = try options.open(path, options.baudRate ?? remembered ?? .b9600, options.exclusive)
        } catch {
            return try unusable(error)
        }
        defer { connection.close() }

        let started = MonotonicTime.now()
        let rate: BaudRate
        let initialBytes: [UInt8]
        switch try findRate(on: connection, path: path, key: key, remembered: remembered, handler: handler) {
        case .found(let found, let bytes):
            (rate, initialBytes) = (found, bytes)
        case .noNMEA:
            return try unusable(SerialPortError(kind: .noNMEA, path: path, operation: "autobaud"))
        case .ended(let result):
            return result
        }
        announce(device, rate: rate, since: started, initialBytes: initialBytes, state: &state, handler: handler)
        options.prepare?(connection, path, rate)
        if let writer = options.writer, let port = connection as? SerialPort { writer.attach(port) }
        defer { options.writer?.detach() }
        return readUntilGone(connection, path: path, buffer: buffer, handler: handler)
    }

    /// What finding the rate came to.
    private enum RateOutcome {
        /// The rate, and the bytes read while finding it.
        case found(BaudRate, [UInt8])
        case noNMEA
        /// Stopped, or disconnected (said).
        case ended(SessionResult)
    }

    /// The rate: the one the options fix, else found by autobaud (starting with the one `remembered`, and
    /// remembering what it finds).
    private func findRate(
        on connection: any SerialConnection, path: String, key: String, remembered: BaudRate?,
        handler: (ConnectionEvent) -> Void
    ) throws(SerialPortError) -> RateOutcome {
        if let fixed = options.baudRate { return .found(fixed, []) }
        let autobaud = Autobaud(remembered: remembered, window: options.autobaudWindow)
        let outcome = try autobaud.run(on: connection, stop: stopSignal) { rate in
            handler(.status(.autobauding(path: path, rate: rate)))
        }
        switch outcome {
        case .locked(let found, let bytes, _):
            if remembered != found { options.memory?.remember(found, for: key) }
            return .found(found, bytes)
        case .noNMEA:
            return .noNMEA
        case .stopped:
            return .ended(.stopped)
        case .disconnected(let reason):
            handler(.status(.disconnected(path: path, reason: reason)))
            return .ended(.disconnected)
        }
    }

    /// Says the device is connected, at `rate`, and hands on the bytes the autobaud read.
    private func announce(
        _ device: SerialDeviceInfo, rate: BaudRate, since started: MonotonicTime, initialBytes: [UInt8],
        state: inout LoopState, handler: (ConnectionEvent) -> Void
    ) {
        let path = device.path
        let isReconnection = state.everConnected
        state.everConnected = true
        state.last = device
        state.reported[path] = nil
        handler(
            .status(
                .connected(
                    ConnectedDevice(
                        path: path, baudRate: rate, info: device, setupTime: started.elapsed,
                        isReconnection: isReconnection))))
        if !initialBytes.isEmpty {
            initialBytes.withUnsafeBytes { handler(.data($0)) }
        }
    }

    /// Reads the connection until it goes away or the loop is stopped.
    private func readUntilGone(
        _ connection: any SerialConnection, path: String, buffer: UnsafeMutableRawBufferPointer,
        handler: (ConnectionEvent) -> Void
    ) -> SessionResult {
        while true {
            let outcome: ReadOutcome
            do {
                outcome = try connection.read(into: buffer, timeout: options.idleInterval, stop: stopSignal)
            } catch {
                handler(.status(.disconnected(path: path, reason: .error(error.errno ?? .ioError))))
                return .disconnected
            }
            switch outcome {
            case .data(let count):
                handler(.data(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
            case .timedOut:
                handler(.idle)
            case .stopped:
                return .stopped
            case .disconnected(let reason):
                handler(.status(.disconnected(path: path, reason: reason)))
                return .disconnected
            }
        }
    }
}

/// What ``ReceiverConnection/run(_:)`` hands its handler.
public enum ConnectionEvent {
    /// Bytes from the receiver, exactly as received. The view is valid only during the call.
    case data(UnsafeRawBufferPointer)
    /// A change of state.
    case status(ConnectionStatus)
    /// Nothing arrived for ``ReceiverConnection/Options/idleInterval`` (a chance to refresh a status line).
    case idle
}

/// The state of a ``ReceiverConnection``.
public enum ConnectionStatus: Sendable, Equatable, CustomStringConvertible {
    /// Waiting for a device to appear (or to come back).
    case searching(DeviceSelector)
    /// Trying a rate on a device.
    case autobauding(path: String, rate: BaudRate)
    /// Reading from a device.
    case connected(ConnectedDevice)
    /// The device went away; the connection will look for it again (unless reconnection is off).
    case disconnected(path: String, reason: DisconnectReason)
    /// A device could not be used (permission, busy, no NMEA…); reported once until its state changes.
    case unavailable(path: String, error: SerialPortError)
    /// ``ReceiverConnection/stop()`` was called; `run` returns.
    case stopped

    public var description: String {
        switch self {
        case .searching(let selector):
            if case .auto = selector { return "waiting for a GPS receiver" }
            return "waiting for \(selector)"
        case .autobauding(let path, let rate): return "\(path): trying \(rate) baud"
        case .connected(let device): return "\(device.path): connected at \(device.baudRate) baud"
        case .disconnected(let path, let reason): return "\(path): disconnected (\(reason))"
        case .unavailable(_, let error): return error.description
        case .stopped: return "stopped"
        }
    }
}

/// The device a ``ReceiverConnection`` is reading from.
public struct ConnectedDevice: Sendable, Equatable {
    public var path: String
    public var baudRate: BaudRate
    /// What discovery knows about it (USB IDs, by-id link…; only the path for a pty or built-in port).
    public var info: SerialDeviceInfo
    /// From opening to the first valid sentence (autobaud included).
    public var setupTime: Duration
    /// `true` when this follows a disconnection (a track writer starts a new segment).
    public var isReconnection: Bool
}

extension SerialDeviceInfo {
    /// The same physical device: same by-id link, or same USB IDs and serial number.
    func sameHardware(as other: SerialDeviceInfo) -> Bool {
        if let link = byIDLink, link == other.byIDLink { return true }
        if let serial = serialNumber, serial == other.serialNumber, usbID == other.usbID { return true }
        return false
    }
}

extension GPSClassification {
    /// Known receivers before possible ones.
    var rank: Int {
        switch self {
        case .gps: 0
        case .possibleGPS: 1
        case .notGPS: 2
        }
    }
}
