import Glibc
import System
import Threading

/// NMEA read from a TCP peer (`tcp://HOST:PORT`, and `gpsd://`): connects, reads, and — for a receiver — connects
/// again with backoff when the connection is refused or dropped.
///
/// What it reports, as a serial receiver does (see ``ReceiverStatus/summary``):
///
///     .connecting(device: "tcp://gps.local:2000")                          resolving, connecting
///     .connected(device: "tcp://gps.local:2000", detail: "connected")      then bytes
///     .disconnected(…, reason: .unavailable, detail: "tcp://gps.local:2000: connection closed by the peer; …")
///     .connecting(…) … .connected(…, detail: "reconnected")
///
/// A disconnection starts framing afresh and breaks a track's segment. Waits between attempts follow
/// ``ReconnectBackoff`` from 0.5 s, doubling to at most 5 s, reset by a connection. A name that does not resolve
/// before any connection was made ends the source (it is a typo, not an outage), as does, with
/// ``Options/reconnects`` off, any refused or dropped connection: the source then ends with
/// ``ReceiverStatus/Reason/failed`` (refused, unresolvable) or ``ReceiverStatus/Reason/endOfFile`` (the peer
/// closed), and `failure` holds the message.
///
/// Memory is bounded: each read hands out at most the buffer it is given; nothing is kept between reads but the
/// state of the JSON-line filter. The kernel's flow control slows a peer we read too slowly: nothing is lost here.
public final class TCPByteSource: ByteSource {
    /// How it connects and what it sends.
    public struct Options: Sendable {
        /// Connect again after a refused or dropped connection (a receiver); off, either ends the source.
        public var reconnects = true
        /// The first wait before connecting again, in seconds; doubled after each failure.
        public var minimumBackoff = 0.5
        /// The longest wait before connecting again, in seconds.
        public var maximumBackoff = 5.0
        /// The longest a connection attempt may take.
        public var connectTimeout = Duration.seconds(5)
        /// Bytes sent once after each connection (gpsd's `?WATCH={"enable":true,"nmea":true}`).
        public var greeting: [UInt8] = []
        /// Drop lines that begin with `{` (gpsd's JSON objects between the sentences).
        public var skipsJSONLines = false
        /// The name its status and messages use (`ntrip://caster:2101/MOUNT`); `nil`: the address's.
        public var name: String?

        public init() {}
    }

    public let address: NetworkSourceAddress
    public let options: Options
    private let name: String
    private let failure: Locked<String?>
    private var state = State.idle
    private var backoff: ReconnectBackoff
    private var everConnected = false
    /// A `.connecting` status is due (at the start and after each disconnection).
    private var announcing = true
    /// Where the JSON-line filter stands: at the start of a line, or inside a line it drops.
    private var atLineStart = true
    private var droppingLine = false

    private enum State {
        case idle
        case connecting(FileDescriptor, deadline: MonotonicTime, remaining: [ResolvedAddress])
        case connected(FileDescriptor)
        case ended(ReceiverStatus.Reason)
    }

    /// A source for `address` (its host and port; the scheme only names it). `failure` receives the message that
    /// ends the source, if one does.
    public init(_ address: NetworkSourceAddress, options: Options = Options(), failure: Locked<String?> = Locked(nil)) {
        self.address = address
        self.options = options
        self.failure = failure
        name = options.name ?? address.description
        backoff = ReconnectBackoff(minimum: options.minimumBackoff, maximum: options.maximumBackoff)
    }

    deinit {
        switch state {
        case .connecting(let descriptor, _, _), .connected(let descriptor): try? descriptor.close()
        case .idle, .ended: break
        }
    }

    /// - Complexity: at most one `poll`, one `recv` (or one `getaddrinfo` and `connect`) per call.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        switch state {
        case .ended(let reason):
            return .end(reason)
        case .idle:
            if announcing {
                announcing = false
                return .status(.connecting(device: name))
            }
            let wait = backoff.secondsLeft
            if wait > 0 {
                sleep(for: min(timeout, .milliseconds(Int64((wait * 1000).rounded(.up)))))
                return .timedOut
            }
            return startConnecting()
        case .connecting(let descriptor, let deadline, let remaining):
            return continueConnecting(descriptor, deadline: deadline, remaining: remaining, timeout: timeout)
        case .connected(let descriptor):
            return receive(from: descriptor, into: buffer, timeout: timeout)
        }
    }

    // MARK: Connecting

    private func startConnecting() -> ByteSourceEvent {
        let candidates: [ResolvedAddress]
        do {
            candidates = try SocketAddress.resolve(host: address.host, port: address.port)
        } catch {
            let message = "cannot resolve '\(address.host ?? "")' (\(name)): \(error)"
            if !everConnected { return give(up: message, reason: .failed) }
            return failedAttempt(message)
        }
        return attempt(candidates)
    }

    /// Starts a non-blocking `connect` to the first of `candidates`; the rest are tried if it fails.
    private func attempt(_ candidates: [ResolvedAddress]) -> ByteSourceEvent {
        var remaining = candidates
        var lastError = Errno.addressFamilyNotSupported
        while !remaining.isEmpty {
            let candidate = remaining.removeFirst()
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.socket(
                    family: candidate.family, type: Int32(SOCK_STREAM.rawValue), protocol: candidate.protocol,
                    nonBlocking: true)
            } catch {
                lastError = error
                continue
            }
            do {
                try descriptor.connect(to: candidate.address)
                return connected(descriptor)
            } catch .nowInProgress {
                state = .connecting(
                    descriptor, deadline: .now() + options.connectTimeout, remaining: remaining)
                return .timedOut
            } catch {
                lastError = error
                try? descriptor.close()
            }
        }
        return failedAttempt("\(name): \(lastError.description)", errno: lastError)
    }

    private func continueConnecting(
        _ descriptor: FileDescriptor, deadline: MonotonicTime, remaining: [ResolvedAddress], timeout: Duration
    ) -> ByteSourceEvent {
        let now = MonotonicTime.now()
        let wait = min(timeout, deadline - now)
        let events: FileDescriptor.PollEvents
        do {
            events = try descriptor.poll(.writable, timeoutMilliseconds: wait.pollMilliseconds)
        } catch {
            events = .error
        }
        if events.isEmpty {
            guard MonotonicTime.now() >= deadline else { return .timedOut }
            try? descriptor.close()
            state = .idle
            if !remaining.isEmpty { return attempt(remaining) }
            return failedAttempt("\(name): no answer within \(options.connectTimeout)", errno: .timedOut)
        }
        let pending: Errno?
        do {
            pending = try descriptor.socketError()
        } catch {
            pending = error
        }
        guard let error = pending else { return connected(descriptor) }
        try? descriptor.close()
        state = .idle
        if !remaining.isEmpty { return attempt(remaining) }
        return failedAttempt("\(name): \(error.description)", errno: error)
    }

    private func connected(_ descriptor: FileDescriptor) -> ByteSourceEvent {
        try? descriptor.setOption(.noDelay, 1)
        if !options.greeting.isEmpty {
            // A few bytes into an empty send buffer: taken whole at once.
            _ = options.greeting.withUnsafeBytes { try? descriptor.send($0, flags: [.noSignal, .dontWait]) }
        }
        state = .connected(descriptor)
        backoff.succeeded()
        atLineStart = true
        droppingLine = false
        let again = everConnected
        everConnected = true
        return .status(.connected(device: name, detail: again ? "reconnected" : "connected"))
    }

    /// A connection attempt failed: try again after the backoff (a receiver), or end.
    private func failedAttempt(_ message: String, errno: Errno? = nil) -> ByteSourceEvent {
        guard options.reconnects else { return give(up: message, reason: .failed, errno: errno) }
        let wait = Self.seconds(backoff.nextDelay)
        backoff.failed()
        state = .idle
        return .status(
            .disconnected(
                device: name, reason: .unavailable, errorNumber: errno?.rawValue ?? 0,
                detail: "\(message); trying again in \(wait)"))
    }

    /// Ends the source for good, reporting `message` once.
    private func give(up message: String, reason: ReceiverStatus.Reason, errno: Errno? = nil) -> ByteSourceEvent {
        failure.withLock { $0 = message }
        state = .ended(reason)
        return .status(
            .disconnected(device: name, reason: .failed, errorNumber: errno?.rawValue ?? 0, detail: message))
    }

    /// `0.5 s`, `2 s`: the wait before jitter (±10 %), as ``ReconnectBackoff`` will make it.
    private static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
    }

    // MARK: Reading

    private func receive(
        from descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, timeout: Duration
    ) -> ByteSourceEvent {
        let count: Int
        do throws(Errno) {
            if try descriptor.poll(.readable, timeoutMilliseconds: timeout.pollMilliseconds).isEmpty {
                return .timedOut
            }
            count = try descriptor.receive(into: buffer, flags: .dontWait)
        } catch .wouldBlock {
            return .timedOut
        } catch {
            return dropped(descriptor, "\(name): \(error.description)", errno: error)
        }
        guard count > 0 else { return dropped(descriptor, "\(name): connection closed by the peer", errno: nil) }
        guard options.skipsJSONLines else { return .bytes(count) }
        let kept = skipJSONLines(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
        return kept > 0 ? .bytes(kept) : .timedOut
    }

    /// The connection ended: end the source (no reconnection, or a clean close then) or try again after the backoff.
    private func dropped(_ descriptor: FileDescriptor, _ message: String, errno: Errno?) -> ByteSourceEvent {
        try? descriptor.close()
        guard options.reconnects else {
            failure.withLock { $0 = errno == nil ? nil : message }
            state = .ended(errno == nil ? .endOfFile : .readError)
            return .status(
                .disconnected(
                    device: name, reason: errno == nil ? .endOfFile : .readError,
                    errorNumber: errno?.rawValue ?? 0))
        }
        state = .idle
        announcing = true
        let wait = Self.seconds(backoff.nextDelay)
        backoff.failed()
        return .status(
            .disconnected(
                device: name, reason: .unavailable, errorNumber: errno?.rawValue ?? 0,
                detail: "\(message); reconnecting in \(wait)"))
    }

    // MARK: Talking back (NTRIP)

    /// Sends `bytes` on the connection without waiting (an NTRIP client's GGA: a few bytes into a socket buffer that
    /// is all but empty); `false` when not connected, or the socket would not take them all at once.
    public func send(_ bytes: [UInt8]) -> Bool {
        guard case .connected(let descriptor) = state else { return false }
        let sent = bytes.withUnsafeBytes { try? descriptor.send($0, flags: [.noSignal, .dontWait]) }
        return sent == bytes.count
    }

    /// Ends the connection as if the peer had dropped it (an NTRIP caster's refusal): the next read connects again
    /// after the backoff, or ends the source without reconnection. `message` says why.
    public func hangUp(_ message: String) -> ByteSourceEvent {
        guard case .connected(let descriptor) = state else { return .timedOut }
        return dropped(descriptor, "\(name): \(message)", errno: .connectionReset)
    }

    /// Ends the source for good (a caster refusing the login before it ever served data): `message` is its failure.
    public func giveUp(_ message: String) -> ByteSourceEvent {
        if case .connected(let descriptor) = state { try? descriptor.close() }
        return give(up: "\(name): \(message)", reason: .failed)
    }

    /// Removes, in place, the lines that begin with `{` (gpsd's JSON objects); returns the bytes kept.
    /// - Complexity: O(*n*) in the bytes.
    private func skipJSONLines(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
        var kept = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if atLineStart { droppingLine = byte == UInt8(ascii: "{") }
            atLineStart = byte == 0x0A
            if !droppingLine {
                bytes[kept] = byte
                kept += 1
            }
        }
        return kept
    }
}
