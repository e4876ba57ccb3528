import NMEA
import Pipeline
import RTCM
import System
import Threading

/// A client of an NTRIP caster: asks for a mount point, takes the RTCM 3 stream (NTRIP 1's `ICY 200 OK` or NTRIP 2's
/// HTTP/1.1, chunked or not), and hands on each whole, CRC-valid frame, in order; sends the receiver's position (a
/// GGA sentence) every ``Options/ggaInterval``; connects again with ``ReconnectBackoff`` when the caster drops it.
///
///     let client = NTRIPClient(options, position: { latestGGA() }) { frame in writer.offer(frame) }
///     client.start()                 // a thread of its own
///     … client.status …              // frames, rate, age, base station, GGA sent
///     client.stop()
///
/// The connection is ``Pipeline/TCPByteSource``'s (resolving, connecting with a timeout, the backoff). A login the
/// caster refuses (401) or a mount it does not have ends the client when nothing was ever received: it is a typo
/// that waiting will not mend (``failure`` says what to do); after data has flowed, the same answers are an outage
/// and are tried again. The password is sent only in the request's `Authorization` header.
public final class NTRIPClient: Sendable {
    public struct Options: Sendable {
        public var address: NTRIPAddress
        /// With ``NTRIPAddress/user``: the login's password.
        public var password: String?
        /// How often the position goes to the caster; never less than ``minimumGGAInterval``.
        public var ggaInterval: Duration = .seconds(10)
        /// 2: an HTTP/1.1 request with `Ntrip-Version: Ntrip/2.0` (NTRIP 1 casters answer it as NTRIP 1); 1: an
        /// NTRIP 1 request (HTTP/1.0), for casters that refuse the other.
        public var version = 2
        /// The `User-Agent` (NTRIP asks that it begin with `NTRIP `).
        public var userAgent = "NTRIP swift-nmea"
        /// Connect again after a drop (off: the first drop ends the client).
        public var reconnects = true
        /// The backoff between connections, seconds: casters ban clients that hammer them.
        public var minimumBackoff = 1.0
        public var maximumBackoff = 30.0

        public init(address: NTRIPAddress) { self.address = address }
    }

    /// Casters ban clients that send their position more often (rtk2go among them).
    public static let minimumGGAInterval = Duration.seconds(5)

    public let options: Options
    private let position: @Sendable () -> [UInt8]?
    private let deliver: @Sendable (UnsafeRawBufferPointer) -> Void
    private let report: @Sendable (String) -> Void
    private let shared: Locked<CorrectionStatus>
    private let failed = Locked<String?>(nil)
    private let stopping = Locked(false)
    private let thread = Locked<NativeThread?>(nil)

    /// `position`: the receiver's latest position as a GGA sentence (`nil` before a fix: nothing is sent);
    /// `deliver`: each RTCM 3 frame, whole, on the client's thread (it must not block); `report`: each change of
    /// the connection, in a line for people ("receiving MOUNT", "…: connection refused; trying again in 2 s").
    public init(
        _ options: Options, position: @escaping @Sendable () -> [UInt8]?,
        report: @escaping @Sendable (String) -> Void = { _ in },
        deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) {
        self.options = options
        self.position = position
        self.report = report
        self.deliver = deliver
        shared = Locked(CorrectionStatus(source: options.address.description))
    }

    public func start() {
        thread.withLock { current in
            guard current == nil else { return }
            current = NativeThread(name: "ntrip") { [self] in run() }
        }
    }

    /// Stops the client (within a read's timeout, 200 ms) and waits for it.
    public func stop() {
        stopping.withLock { $0 = true }
        thread.take()?.join()
    }

    public var status: CorrectionStatus { shared.withLock { $0 } }

    /// Why the client ended, when something ended it (a refused login, a mount the caster does not have).
    public var failure: String? { failed.withLock { $0 } }

    /// `true` once the client has given up (or been stopped).
    public var hasEnded: Bool { shared.withLock { $0.hasEnded } }

    // MARK: The connection's loop

    private func run() {
        let source = TCPByteSource(
            options.address.tcp, options: connectionOptions(mount: options.address.mount), failure: failed)
        var session = Session()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        defer { buffer.deallocate() }
        while !stopping.withLock({ $0 }) {
            let event = source.read(into: buffer, timeout: .milliseconds(200))
            switch event {
            case .status(let status):
                connection(changed: status, &session)
            case .bytes(let count):
                if let problem = session.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]), client: self) {
                    connection(changed: refuse(problem, source: source), &session)
                }
            case .timedOut:
                break
            case .end:
                shared.withLock { $0.hasEnded = true }
                return
            }
            sendPositionIfDue(source, &session)
        }
        shared.withLock { $0.hasEnded = true }
    }

    /// What the TCP connection says: a new connection starts a new response (and a new framer).
    private func connection(changed status: ReceiverStatus, _ session: inout Session) {
        switch status.state {
        case .connected:
            session = Session()
            shared.withLock {
                $0.isConnected = true
                $0.connections += 1
                $0.message = "connected, waiting for the caster's answer"
            }
        case .ended, .disconnected:
            session = Session()
            let message = status.detail.isEmpty ? status.summary : status.detail.string
            shared.withLock {
                $0.isConnected = false
                $0.message = message
            }
            report(message)
        default:
            shared.withLock { $0.message = "connecting" }
        }
    }

    /// The caster refused (or answered nonsense): give up before any data, hang up and try again after.
    private func refuse(_ problem: Refusal, source: TCPByteSource) -> ReceiverStatus {
        let everServed = shared.withLock { $0.frames > 0 }
        let event =
            everServed || !problem.isFinal ? source.hangUp(problem.message) : source.giveUp(problem.message)
        if case .status(let status) = event { return status }
        return .disconnected(device: options.address.description, reason: .failed, detail: problem.message)
    }

    private func sendPositionIfDue(_ source: TCPByteSource, _ session: inout Session) {
        guard session.isStreaming else { return }
        let now = MonotonicTime.now()
        guard session.nextPosition.map({ now >= $0 }) ?? true else { return }
        guard let sentence = position() else { return }
        session.nextPosition = now + max(options.ggaInterval, Self.minimumGGAInterval)
        if source.send(sentence) {
            shared.withLock {
                $0.ggaSent += 1
                $0.lastGGA = now
            }
        }
    }

    fileprivate func frame(_ frame: BinaryFrame) {
        guard frame.kind == .rtcm3, let rtcm = RTCMFrame(frame) else { return }
        deliver(frame.bytes)
        shared.withLock { $0.count(rtcm, bytes: frame.bytes.count) }
    }

    fileprivate func streamed(_ count: Int) { shared.withLock { $0.streamBytes += count } }

    fileprivate func streaming() {
        let message = "\(options.address): receiving"
        shared.withLock { $0.message = message }
        report(message)
    }

    // MARK: The request

    private func connectionOptions(mount: String?) -> TCPByteSource.Options {
        var tcp = TCPByteSource.Options()
        tcp.reconnects = options.reconnects
        tcp.minimumBackoff = options.minimumBackoff
        tcp.maximumBackoff = options.maximumBackoff
        tcp.name = options.address.description
        tcp.greeting = Self.request(options, mount: mount)
        return tcp
    }

    /// The request for `mount` (`nil`: the sourcetable), in the protocol version the options ask for.
    static func request(_ options: Options, mount: String?) -> [UInt8] {
        let address = options.address
        var lines = ["GET /\(mount ?? "") HTTP/1.\(options.version == 1 ? 0 : 1)"]
        if options.version != 1 {
            lines.append("Host: \(address.host.contains(":") ? "[\(address.host)]" : address.host):\(address.port)")
            lines.append("Ntrip-Version: Ntrip/2.0")
        }
        lines.append("User-Agent: \(options.userAgent)")
        if let user = address.user {
            lines.append(
                "Authorization: " + HTTPRequest.basicAuthorization(user: user, password: options.password ?? ""))
        }
        if options.version != 1 { lines.append("Connection: close") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}

/// Why a connection must end, and whether waiting could mend it.
private struct Refusal {
    var message: String
    /// A refused login, a mount the caster does not have, an answer that is not NTRIP: not an outage.
    var isFinal: Bool
}

/// One connection's answer as it arrives: the head, then the stream (chunked or not) through a framer.
private struct Session: ~Copyable {
    private var head: [UInt8] = []
    private var chunks: ChunkedDecoder?
    private(set) var isStreaming = false
    private var framer = Framer(maximumLength: 1100)
    /// When the position is next due (`nil`: at once, once streaming).
    var nextPosition: MonotonicTime?

    /// Takes bytes: `nil`, or why the connection must end (a refusal, not NTRIP, a broken chunk).
    mutating func take(_ bytes: UnsafeRawBufferPointer, client: NTRIPClient) -> Refusal? {
        guard isStreaming else { return takeHead(bytes, client: client) }
        if var decoder = chunks {
            defer { chunks = decoder }
            do throws(NTRIPError) {
                try decoder.feed(bytes) { frame($0, client) }
            } catch {
                return Refusal(message: "the caster's stream is broken (\(error))", isFinal: false)
            }
            return decoder.isEnded ? Refusal(message: "the caster ended the stream", isFinal: false) : nil
        }
        frame(bytes, client)
        return nil
    }

    private mutating func takeHead(_ bytes: UnsafeRawBufferPointer, client: NTRIPClient) -> Refusal? {
        head.append(contentsOf: bytes)
        let parsed: (NTRIPResponse, headLength: Int)?
        do throws(NTRIPError) {
            parsed = try NTRIPResponse.parse(head)
        } catch {
            return Refusal(message: error.description, isFinal: true)
        }
        guard let (response, length) = parsed else { return nil }
        let mount = client.options.address.mount ?? ""
        switch response {
        case .data(let chunked):
            isStreaming = true
            chunks = chunked ? ChunkedDecoder() : nil
            client.streaming()
            let rest = Array(head[length...])
            head = []
            return rest.withUnsafeBytes { take($0, client: client) }
        case .sourcetable:
            let caster = "ntrip://\(client.options.address.host):\(client.options.address.port)"
            return Refusal(
                message: "the caster has no mount point '\(mount)' ('nmea ntrip sources \(caster)' lists them)",
                isFinal: true)
        case .refused(let code, let reason):
            if code == 401 {
                return Refusal(
                    message: "the caster refused the login (401 \(reason)): check the user in the URL and the "
                        + "password in --ntrip-password-file or $NMEA_NTRIP_PASSWORD",
                    isFinal: true)
            }
            return Refusal(
                message: "the caster refused '\(mount)' (\(code) \(reason))", isFinal: [403, 404].contains(code))
        }
    }

    private mutating func frame(_ bytes: UnsafeRawBufferPointer, _ client: NTRIPClient) {
        client.streamed(bytes.count)
        framer.feed(bytes) { event in
            if case .binaryFrame(let frame) = event { client.frame(frame) }
        }
    }
}
