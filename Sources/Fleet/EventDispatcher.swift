import Glibc
import System
import Threading

/// Sends each geofence event on: to MQTT (an OwnTracks `transition` on `<vehicle topic>/event`, through a
/// ``FleetPublisher`` and its disk queue) and, with a webhook, as a JSON `POST` (``FenceEvent/json``).
///
/// ``dispatch(_:)`` never blocks: the collectors call it from the thread that stores positions. The webhook's
/// events wait in a bounded queue in memory (``Configuration/webhookQueueLimit``; when full, the oldest is dropped
/// and counted) and a thread of its own posts them one at a time, in order; an answer other than 2xx, a refused
/// connection or a timeout is tried again after the one backoff (``ReconnectBackoff``: 1 s doubling to 30 s), so
/// an endpoint down for a while receives every event once it is back. Every event is in the database whatever
/// happens here (`nmea fleet events`).
public final class EventDispatcher: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Publishes the MQTT messages; `nil` for none.
        public var publisher: FleetPublisher?
        /// The vehicle's topic is this followed by the vehicle (`owntracks/` + `acme/van7`).
        public var topicPrefix = "owntracks/"
        public var webhook: WebhookURL?
        public var webhookQueueLimit = 100_000
        /// How long one POST may take.
        public var webhookTimeout = Duration.seconds(10)
        public var retryDelayMinimum = 1.0
        public var retryDelayMaximum = 30.0

        public init(publisher: FleetPublisher? = nil, webhook: WebhookURL? = nil) {
            self.publisher = publisher
            self.webhook = webhook
        }
    }

    public struct Statistics: Sendable, Hashable {
        public var events = 0
        /// Queued for the broker.
        public var published = 0
        /// Posted and answered 2xx.
        public var delivered = 0
        /// Attempts that failed (each is tried again).
        public var failedAttempts = 0
        /// Dropped because the webhook's queue was full.
        public var dropped = 0
        /// Waiting for the webhook now.
        public var waiting = 0
        public var lastProblem: String?
        public init() {}
    }

    public let configuration: Configuration
    private let queue = Locked<(events: [FenceEvent], head: Int, stopping: Bool)>(([], 0, false))
    private let shared = Locked(Statistics())
    private let wake = WakeUp()
    private var thread: NativeThread?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        if let webhook = configuration.webhook {
            thread = NativeThread(name: "webhook") { [self] in deliver(to: webhook) }
        }
    }

    public var statistics: Statistics { shared.current }

    /// Hands `events` on; returns at once.
    public func dispatch(_ events: [FenceEvent]) {
        guard !events.isEmpty else { return }
        shared.withLock { $0.events += events.count }
        if let publisher = configuration.publisher {
            for event in events {
                let topic = configuration.topicPrefix + event.vehicle + "/event"
                if case .queued = publisher.enqueue(topic: topic, payload: event.ownTracksTransition, retain: false) {
                    shared.withLock { $0.published += 1 }
                }
            }
        }
        guard configuration.webhook != nil else { return }
        let dropped = queue.withLock { queue in
            queue.events += events
            let over = max(0, queue.events.count - queue.head - configuration.webhookQueueLimit)
            queue.head += over
            if queue.head > 4096 && queue.head * 2 > queue.events.count {
                queue.events.removeFirst(queue.head)
                queue.head = 0
            }
            return over
        }
        shared.withLock {
            $0.dropped += dropped
            $0.waiting = $0.waiting + events.count - dropped
        }
        wake.signal()
    }

    /// Stops the webhook's thread (what waits is given up; it is in the database) after trying for up to `grace`.
    public func stop(grace: Duration = .seconds(2)) {
        let deadline = MonotonicTime.now() + grace
        while statistics.waiting > 0 && MonotonicTime.now() < deadline { _ = wake.wait(timeout: .milliseconds(20)) }
        queue.withLock { $0.stopping = true }
        wake.signal()
        thread?.join()
        thread = nil
    }

    private func deliver(to webhook: WebhookURL) {
        var backoff = ReconnectBackoff(
            minimum: configuration.retryDelayMinimum, maximum: configuration.retryDelayMaximum)
        while true {
            let (next, stopping) = queue.withLock { queue in
                (queue.head < queue.events.count ? queue.events[queue.head] : nil, queue.stopping)
            }
            if stopping { return }
            guard let event = next else {
                wake.wait(timeout: .seconds(1))
                wake.drain()
                continue
            }
            if !backoff.isDue {
                wake.wait(timeout: .milliseconds(Int64(min(backoff.secondsLeft, 1) * 1000) + 1))
                wake.drain()
                continue
            }
            switch webhook.post(event.json, timeout: configuration.webhookTimeout) {
            case .success:
                backoff.succeeded()
                queue.withLock { queue in
                    if queue.head < queue.events.count && queue.events[queue.head] == event { queue.head += 1 }
                }
                shared.withLock {
                    $0.delivered += 1
                    $0.waiting = max(0, $0.waiting - 1)
                }
            case .failure(let problem):
                backoff.failed()
                shared.withLock {
                    $0.failedAttempts += 1
                    $0.lastProblem = "the webhook \(webhook): \(problem.message)"
                }
            }
        }
    }
}

/// Where events are posted: `http://HOST[:PORT]/PATH` (HTTPS through a local proxy: no TLS here).
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var path: String

    public init(parsing text: String) throws(FleetError) {
        guard text.hasPrefix("http://") else {
            throw FleetError("give an http:// URL (for https, post through a local proxy such as nginx or Caddy)")
        }
        let rest = text.dropFirst(7)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let address = HostAndPort(parsing: String(rest[..<slash])), let host = address.host, !host.isEmpty
        else {
            throw FleetError("'\(text)' has no host")
        }
        self.host = host
        port = address.port ?? 80
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw FleetError("the path of '\(text)' must be printable ASCII without spaces (percent-encode the rest)")
        }
    }

    public var description: String {
        "http://" + (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)") + path
    }

    /// Posts `body` as JSON; success for a 2xx answer.
    func post(_ body: [UInt8], timeout: Duration) -> Result<Void, FleetError> {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        let addresses: [ResolvedAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port)
        } catch {
            return .failure(FleetError("cannot resolve \(host): \(error)"))
        }
        guard let address = addresses.first else { return .failure(FleetError("cannot resolve \(host)")) }
        let socket: FileDescriptor
        do {
            socket = try FileDescriptor.socket(family: address.family, nonBlocking: true)
        } catch {
            return .failure(FleetError("\(error)"))
        }
        defer { try? socket.close() }
        let hostHeader = (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)")
        let request =
            Array(
                ("POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\n"
                    + "User-Agent: nmea-collect\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
            + body
        do throws(Errno) {
            try socket.connect(to: address.address, timeoutMilliseconds: milliseconds)
            var sent = 0
            while sent < request.count {
                let result = request.withUnsafeBytes { bytes in
                    Result { () throws(Errno) in try socket.send(UnsafeRawBufferPointer(rebasing: bytes[sent...])) }
                }
                switch result {
                case .success(let count): sent += count
                case .failure(.wouldBlock):
                    guard !(try socket.poll(.writable, timeoutMilliseconds: milliseconds)).isEmpty else {
                        throw Errno.timedOut
                    }
                case .failure(let error): throw error
                }
            }
            // The status line is all that matters.
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !answer.contains(0x0A) && answer.count < 4096 {
                guard !(try socket.poll(.readable, timeoutMilliseconds: milliseconds)).isEmpty else {
                    throw Errno.timedOut
                }
                let result = buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) in try socket.receive(into: bytes) }
                }
                switch result {
                case .success(0): break
                case .success(let count): answer += buffer[..<count]
                case .failure(.wouldBlock): continue
                case .failure(let error): throw error
                }
                if case .success(0) = result { break }
            }
            let line = String(decoding: answer.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
            let parts = line.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                return .failure(FleetError("not an HTTP answer"))
            }
            return (200..<300).contains(status) ? .success(()) : .failure(FleetError("answered \(line)"))
        } catch {
            return .failure(FleetError("\(error)"))
        }
    }
}
