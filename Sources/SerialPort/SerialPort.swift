import System

/// A serial port open for reading NMEA: exclusive, raw 8N1, at a standard rate.
///
///     let port = try SerialPort(path: "/dev/ttyACM0", baudRate: .b9600)
///     defer { port.close() }
///     var buffer = [UInt8](repeating: 0, count: 4096)
///     let outcome = try buffer.withUnsafeMutableBytes { try port.read(into: $0, timeout: .seconds(1), stop: nil) }
///
/// Opening: `open(2)` with `O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC` (no controlling terminal; no wait for
/// carrier), an advisory lock (`flock(2)`, `LOCK_EX | LOCK_NB`) that a second logger cannot take even as root, and
/// `TIOCEXCL` so no second program (but root) can open it at all, then raw mode (`cfmakeraw`, `CLOCAL | CREAD`, 8N1,
/// no flow control) at `baudRate`, and input received before the change is discarded. The descriptor stays non-blocking:
/// reads wait in `poll(2)`, so a read can time out and be stopped. ``close()`` restores the settings found at open.
///
/// Not thread-safe: one thread reads. Failures are ``SerialPortError``s whose messages say what to do.
public final class SerialPort: SerialConnection {
    public let path: String
    /// The open descriptor (valid until ``close()``).
    public let fileDescriptor: FileDescriptor
    public private(set) var baudRate: BaudRate
    /// The settings the port had when opened, put back on close.
    public let originalAttributes: TerminalAttributes
    private var isClosed = false

    /// Opens `path` (a device node or a symlink to one, such as `/dev/serial/by-id/…`).
    /// - Parameters:
    ///   - exclusive: lock the port (`flock`: a second lock fails, for root too) and take it with `TIOCEXCL`
    ///     (later opens by others fail with EBUSY; root is exempt).
    /// - Throws: ``SerialPortError``: `.notFound`, `.permissionDenied` (naming the group that could open it, or
    ///   the udev rule that would give it one), `.busy` (naming the holder: of the lock from `/proc/locks`),
    ///   `.notATerminal`, `.unsupportedSettings`.
    public init(path: String, baudRate: BaudRate = .b9600, exclusive: Bool = true) throws(SerialPortError) {
        self.path = path
        self.baudRate = baudRate
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                path, .readWrite,
                options: [.noControllingTerminal, .nonBlocking, .closeOnExec])
        } catch {
            throw SerialPortError(error, path: path, operation: "open")
        }
        do {
            let original = try TerminalAttributes(of: fd)
            if exclusive {
                // TIOCEXCL does not stop root, and two loggers would split the bytes: the lock stops every one.
                try SerialPort.lock(fd, path: path)
                // Failure here is not fatal: emulated ttys may not know the ioctl.
                try? fd.setExclusiveUse(true)
            }
            var attributes = original
            attributes.makeRaw()
            attributes.baudRate = baudRate
            do {
                try attributes.apply(to: fd)
            } catch {
                // Put back what was there before failing.
                try? original.apply(to: fd)
                throw SerialPortError(kind: .unsupportedSettings, path: path, operation: "configure", errno: error)
            }
            try? fd.discardTerminalInput()
            originalAttributes = original
            fileDescriptor = fd
        } catch let error as SerialPortError {
            try? fd.close()
            throw error
        } catch let errno as Errno {
            try? fd.close()
            throw SerialPortError(errno, path: path, operation: "configure")
        } catch {
            try? fd.close()
            throw SerialPortError(kind: .other, path: path, operation: "configure")
        }
    }

    deinit { close() }

    /// `flock(fd, LOCK_EX | LOCK_NB)`; a lock held elsewhere is ``SerialPortError/Kind/busy`` naming its holders.
    private static func lock(_ fd: FileDescriptor, path: String) throws(SerialPortError) {
        do {
            try fd.lockExclusively()
        } catch {
            guard error == .wouldBlock else { return }  // a file system without locks: TIOCEXCL still applies
            throw SerialPortError(
                kind: .busy, path: path, operation: "lock", errno: .wouldBlock,
                holders: DeviceHolder.lockHolders(path: path))
        }
    }

    /// The settings in force, read back from the driver (`tcgetattr`).
    public func currentAttributes() throws(SerialPortError) -> TerminalAttributes {
        do {
            return try TerminalAttributes(of: fileDescriptor)
        } catch {
            throw SerialPortError(error, path: path, operation: "configure")
        }
    }

    /// Whether the port is held exclusively (`TIOCGEXCL`); `nil` when the driver cannot say.
    public var isExclusive: Bool? { try? fileDescriptor.isExclusiveUse() }

    public func setBaudRate(_ rate: BaudRate) throws(SerialPortError) {
        do throws(Errno) {
            var attributes = try TerminalAttributes(of: fileDescriptor)
            attributes.baudRate = rate
            try attributes.apply(to: fileDescriptor, when: .afterFlush)
            baudRate = rate
            try? fileDescriptor.discardTerminalInput()
        } catch .invalidArgument {
            throw SerialPortError(
                kind: .unsupportedSettings, path: path, operation: "set \(rate) baud on",
                errno: .invalidArgument)
        } catch {
            throw SerialPortError(error, path: path, operation: "configure")
        }
    }

    /// Discards input received but not yet read (`tcflush(TCIFLUSH)`).
    public func discardInput() {
        try? fileDescriptor.discardTerminalInput()
    }

    /// Waits up to `timeout` for data, hang-up or `stop`, then reads.
    ///
    /// Hang-up (`POLLHUP`/`POLLERR`), end of file and EIO/ENXIO/ENODEV are reported as
    /// ``ReadOutcome/disconnected(_:)``, after any bytes still buffered have been read.
    /// - Throws: ``SerialPortError`` for other failures.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, stop: StopSignal?)
        throws(SerialPortError) -> ReadOutcome
    {
        precondition(!isClosed, "read from a closed SerialPort")
        let deadline = MonotonicTime.now() + timeout
        while true {
            let portEvents: FileDescriptor.PollEvents
            do {
                let events = try FileDescriptor.poll(
                    (fileDescriptor, .readable),
                    stop.map { ($0.fileDescriptor, .readable) },
                    timeoutMilliseconds: deadline.millisecondsFromNow)
                if !events.1.isEmpty { return .stopped }
                portEvents = events.0
            } catch {
                throw SerialPortError(error, path: path, operation: "read")
            }
            if portEvents.isEmpty {
                if MonotonicTime.now() < deadline { continue }
                return .timedOut
            }
            if portEvents.contains(.invalid) { return .disconnected(.error(.badFileDescriptor)) }
            do throws(Errno) {
                let count = try fileDescriptor.read(into: buffer)
                if count == 0 { return .disconnected(portEvents.contains(.hangUp) ? .hangUp : .endOfFile) }
                return .data(count)
            } catch .wouldBlock {
                if !portEvents.isDisjoint(with: [.hangUp, .error]) { return .disconnected(.hangUp) }
                continue
            } catch .ioError {
                return .disconnected(.error(.ioError))
            } catch .noSuchDeviceOrAddress {
                return .disconnected(.error(.noSuchDeviceOrAddress))
            } catch .noSuchDevice {
                return .disconnected(.error(.noSuchDevice))
            } catch {
                throw SerialPortError(error, path: path, operation: "read")
            }
        }
    }

    /// Writes all of `bytes` (commands to the receiver).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialPortError) {
        do {
            try fileDescriptor.writeAll(bytes)
        } catch {
            throw SerialPortError(error, path: path, operation: "write")
        }
    }

    /// Restores the settings found at open, gives up exclusivity and closes. Calling it twice is harmless.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        try? originalAttributes.apply(to: fileDescriptor)
        try? fileDescriptor.setExclusiveUse(false)
        try? fileDescriptor.close()
    }
}
