import Glibc
import NMEA
import System
import Threading

/// The collector for phones and trackers that speak HTTP (`nmea collect --http [ADDR:]PORT`): OsmAnd reports
/// (Traccar Client, GPSLogger, hardware trackers) and OwnTracks over HTTP, into the same store and through the
/// same geofences as MQTT positions (see ``HTTPReport`` for the protocols).
///
/// - **Stored before answered.** A report is answered 200 only once the transaction that stores it has committed;
///   while the database is unreachable every report is answered 503 (`Retry-After: 10`), so the phone keeps it and
///   sends it again. A report stored before (same vehicle and fix second: the key of `positions`) is answered 200
///   and stored once.
/// - **Only known senders.** An OsmAnd ID not in ``Configuration/devices`` and an OwnTracks login that fails
///   against ``Configuration/users`` (bcrypt, as `htpasswd -B` writes) get 403 and are counted, never stored; an
///   OwnTracks request without credentials gets 401 with `WWW-Authenticate: Basic`. Passwords are checked on a
///   thread of their own (bcrypt takes milliseconds, tens of them at cost 10; at most 256 wait, then 503), so
///   wrong guesses never hold up ingestion; a login that succeeded is remembered (its password's bytes,
///   compared in constant time), so bcrypt runs once per user and password, not once per report.
/// - **The project's one server core** (`System`'s `TCPServerCore`): at most ``Configuration/maxConnections``
///   (the next gets 503), a request head within 8 KiB and ``Configuration/requestTimeout``, a body of at most
///   ``Configuration/maximumBodyLength`` bytes (413), no chunked bodies (411), keep-alive and pipelining (answers
///   in order: a connection waits for its report's commit before its next request is read). TLS belongs to a
///   reverse proxy (nginx, Caddy) in front.
///
/// Three threads: the server core's, which never waits on the database or on bcrypt; the login checker's; and the store's, which takes every report
/// waiting (up to ``Configuration/batchLimit``), stores them in one transaction and hands the answers back. With
/// 100 phones reporting at once, that is one commit for all of them.
public final class HTTPCollector: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var listen: ListenAddress
        /// A libpq URL or connection string.
        public var database: String
        public var devices: DeviceList
        /// `nil`: OwnTracks over HTTP is refused (403).
        public var users: UserList?
        public var maxConnections = 1024
        public var maximumBodyLength = 64 * 1024
        public var requestTimeout = Duration.seconds(30)
        public var writeTimeout = Duration.seconds(30)
        public var batchLimit = 5000
        public var reconnectDelayMinimum = 1.0
        public var reconnectDelayMaximum = 30.0

        public init(listen: ListenAddress, database: String, devices: DeviceList, users: UserList? = nil) {
            self.listen = listen
            self.database = database
            self.devices = devices
            self.users = users
        }
    }

    /// What the collector has done.
    public struct Statistics: Sendable, Hashable {
        /// Requests read whole.
        public var requests = 0
        /// Reports stored now, and reports the database had already (answered 200 both).
        public var stored = 0
        public var duplicates = 0
        /// 403: OsmAnd IDs not in the devices file.
        public var unknownDevices = 0
        /// 401 and 403: OwnTracks requests without credentials or with wrong ones.
        public var failedLogins = 0
        /// 400, 405, 411, 413, 415, 431: not a report.
        public var invalid = 0
        /// OwnTracks messages that are not locations, answered and not stored.
        public var otherTypes = 0
        /// 503: answered while the database was unreachable.
        public var unavailable = 0
        /// Transactions committed.
        public var commits = 0
        /// Geofence events recorded.
        public var events = 0
        /// Seconds the store's thread spent in the database (storing batches).
        public var databaseSeconds = 0.0
        /// Connections accepted, and refused with 503 over the limit.
        public var connections = 0
        public var refusedConnections = 0
        public var lastProblem: String?
        public init() {}
    }

    public let configuration: Configuration
    /// Called on the store's thread with the events each commit recorded (must not block).
    public var onEvents: (@Sendable ([FenceEvent]) -> Void)?

    private let exchange = Locked(Exchange())
    private let serverWake = WakeUp()
    private let storeWake = WakeUp()
    private let loginWake = WakeUp()
    private let shared = Locked(Statistics())
    private let loginThread = Locked<NativeThread?>(nil)
    private let threads = Locked<
        (server: NativeThread?, store: NativeThread?, listener: FileDescriptor?, bound: ListenAddress?)
    >(
        (nil, nil, nil, nil))
    private var writer: DatabaseWriter?

    /// What the two threads hand each other.
    struct Exchange {
        var pending: [(ticket: Int, position: StoredPosition)] = []
        var answers: [(ticket: Int, answer: Answer)] = []
        /// Passwords for the login thread to check against their bcrypt hashes.
        var logins: [(ticket: Int, password: [UInt8], hash: BcryptHash)] = []
        var stopping = false
    }

    /// The store's answer to one report.
    enum Answer {
        case stored
        case unavailable
        /// A login checked on the login thread: whether the password is right.
        case login(Bool)
        /// The database refused the report for its content (400, with the reason).
        case refused(String)
    }

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Connects to the database (creating or migrating the schema), binds and listens, and starts both threads.
    /// - Throws: ``FleetError`` when the database cannot be used or the address cannot be listened on.
    public func start() throws(FleetError) {
        let writer: DatabaseWriter
        do {
            writer = try DatabaseWriter(
                target: configuration.database, reconnectDelayMinimum: configuration.reconnectDelayMinimum,
                reconnectDelayMaximum: configuration.reconnectDelayMaximum)
        } catch {
            throw FleetError("cannot use the database: \(error.message)")
        }
        self.writer = writer
        let socket: ListeningSocket
        do {
            socket = try ListeningSocket.open(configuration.listen, backlog: 1024)
        } catch {
            throw FleetError(error.description)
        }
        let core = {
            var core = TCPServerConfiguration()
            core.maxConnections = configuration.maxConnections
            core.maxRefusing = 64
            core.writeTimeout = configuration.writeTimeout
            core.socketSendBufferSize = 64 * 1024
            return core
        }()
        let (wake, listener) = (serverWake, socket.descriptor)
        threads.withLock { threads in
            threads.listener = listener
            threads.bound = socket.bound
            threads.server = NativeThread(name: "http-collect") { [self] in
                let handler = IngestHandler(collector: self)
                TCPServerCore(listener: listener, wakeUp: wake, configuration: core, handler: handler).run()
            }
            threads.store = NativeThread(name: "http-store") { [self] in storeLoop(self.writer!) }
        }
        loginThread.withLock { thread in
            thread = NativeThread(name: "http-login") { [self] in loginLoop() }
        }
    }

    /// Stops both threads (reports waiting for the database are answered 503) and closes the listener.
    public func stop() {
        exchange.withLock { $0.stopping = true }
        storeWake.signal()
        serverWake.signal()
        loginWake.signal()
        loginThread.withLock { $0 }?.join()
        let (server, store, listener) = threads.withLock { threads in
            defer { threads = (nil, nil, nil, threads.bound) }
            return (threads.server, threads.store, threads.listener)
        }
        store?.join()
        server?.join()
        try? listener?.close()
    }

    /// The address listened on (the real port when 0 was asked for).
    public var boundAddress: ListenAddress? { threads.withLock { $0.bound } }

    public var statistics: Statistics { shared.current }

    /// The database connection's state.
    public var databaseStatus: ConnectionStatus? { writer?.status }

    func count(_ update: (inout Statistics) -> Void) { shared.withLock(update) }

    // MARK: The server's side

    /// Hands a report to the store's thread; its answer comes back through ``takeAnswers()``.
    func submit(_ position: StoredPosition, ticket: Int) {
        exchange.withLock { $0.pending.append((ticket, position)) }
        storeWake.signal()
    }

    /// Hands a password to the login thread (bcrypt takes milliseconds to tens of them, which the server's thread
    /// must not spend); `false` when 256 wait already (the client is told to come back).
    func check(_ password: [UInt8], against hash: BcryptHash, ticket: Int) -> Bool {
        let queued = exchange.withLock { exchange in
            guard exchange.logins.count < 256 else { return false }
            exchange.logins.append((ticket, password, hash))
            return true
        }
        if queued { loginWake.signal() }
        return queued
    }

    private func loginLoop() {
        while true {
            loginWake.wait(timeout: .milliseconds(250))
            loginWake.drain()
            let (logins, stopping) = exchange.withLock { exchange in
                defer { exchange.logins.removeAll() }
                return (exchange.logins, exchange.stopping)
            }
            if stopping { return }
            for login in logins {
                let right = login.hash.verifies(login.password)
                exchange.withLock { $0.answers.append((login.ticket, .login(right))) }
                serverWake.signal()
            }
        }
    }

    /// The answers the store has given since the last call, and whether the collector is stopping.
    func takeAnswers() -> (answers: [(ticket: Int, answer: Answer)], stopping: Bool) {
        exchange.withLock { exchange in
            defer { exchange.answers.removeAll(keepingCapacity: true) }
            return (exchange.answers, exchange.stopping)
        }
    }

    // MARK: The store's side

    private func storeLoop(_ writer: DatabaseWriter) {
        while true {
            storeWake.wait(timeout: .milliseconds(250))
            storeWake.drain()
            while true {
                let (batch, stopping) = exchange.withLock { exchange in
                    let count = min(exchange.pending.count, configuration.batchLimit)
                    let batch = Array(exchange.pending.prefix(count))
                    exchange.pending.removeFirst(count)
                    return (batch, exchange.stopping)
                }
                if batch.isEmpty {
                    if stopping { return }
                    _ = writer.reconnectIfDue()
                    break
                }
                let answers = stopping ? batch.map { _ in Answer.unavailable } : store(batch, writer)
                exchange.withLock { exchange in
                    for (report, answer) in zip(batch, answers) { exchange.answers.append((report.ticket, answer)) }
                }
                serverWake.signal()
            }
        }
    }

    /// Stores `batch` in one transaction: each report `.stored` once it has committed (or `.refused` when the
    /// database would not take it: the others are then stored one by one).
    private func store(_ batch: [(ticket: Int, position: StoredPosition)], _ writer: DatabaseWriter) -> [Answer] {
        if !writer.isConnected { _ = writer.reconnectIfDue() }
        guard writer.isConnected else {
            count { $0.unavailable += batch.count }
            return batch.map { _ in .unavailable }
        }
        for report in batch { writer.stage(report.position) }
        let began = MonotonicTime.now().seconds
        let result = writer.commit()
        let spent = MonotonicTime.now().seconds - began
        count { $0.databaseSeconds += spent }
        guard let committed = result else {
            count {
                $0.unavailable += batch.count
                $0.lastProblem = writer.status.lastError
            }
            return batch.map { _ in .unavailable }
        }
        count {
            $0.stored += committed.positions
            $0.duplicates += batch.count - committed.positions - committed.refused.count
            $0.invalid += committed.refused.count
            $0.commits += 1
            $0.events += committed.events.count
            if let last = committed.refused.last { $0.lastProblem = "refused by the database: \(last)" }
        }
        if !committed.events.isEmpty { onEvents?(committed.events) }
        var answers = batch.map { _ in Answer.stored }
        for (index, reason) in zip(committed.refusedPositions, committed.refused) { answers[index] = .refused(reason) }
        return answers
    }
}

/// HTTP for the collector, over the server core: reads a request head and its body, turns it into a report (or a
/// refusal), and holds the connection until the store answers.
final class IngestHandler: TCPServerHandler {
    struct Session {
        enum Phase {
            case head
            /// The head is read; its body (Content-Length bytes) is awaited.
            case body(HTTPRequest)
            /// A report is with the store: nothing more is read until it answers.
            case waiting(ticket: Int, keepAlive: Bool, ownTracks: Bool)
        }
        var phase = Phase.head
    }

    private unowned let collector: HTTPCollector
    private let configuration: HTTPCollector.Configuration
    private var nextTicket = 0
    private var waiting: [Int: Connection] = [:]
    /// Logins that succeeded: the password's bytes by user.
    private var verified: [String: [UInt8]] = [:]
    /// Requests whose login the login thread is checking, by ticket.
    private var checking: [Int: (request: HTTPRequest, body: [UInt8], user: String, password: [UInt8])] = [:]

    init(collector: HTTPCollector) {
        self.collector = collector
        configuration = collector.configuration
    }

    func makeSession() -> Session { Session() }

    func connected(_ connection: Connection, on server: Server) {
        connection.deadline = MonotonicTime.now() + configuration.requestTimeout
        collector.count { $0.connections += 1 }
    }

    func refusal(on server: Server) -> [UInt8]? {
        collector.count { $0.refusedConnections += 1 }
        return HTTPResponse.error(
            .serviceUnavailable, "Too many connections; try again shortly", headers: ["Retry-After: 5"]
        ).encoded(keepAlive: false)
    }

    func woken(_ server: Server) -> Bool {
        let (answers, stopping) = collector.takeAnswers()
        for (ticket, answer) in answers {
            let login = checking.removeValue(forKey: ticket)
            guard let connection = waiting.removeValue(forKey: ticket) else { continue }
            guard connection.isOpen, case .waiting(_, let keepAlive, let ownTracks) = connection.session.phase else {
                continue
            }
            connection.session.phase = .head
            switch answer {
            case .login(true):
                if let login {
                    verified[login.user] = login.password
                    handle(login.request, body: login.body, connection, server, isRetry: true)
                }
            case .login(false):
                reply(
                    .error(.forbidden, "Wrong user or password"), keepAlive: keepAlive, connection, server,
                    counted: \.failedLogins)
            case .stored:
                let response =
                    ownTracks
                    ? HTTPResponse.json(Array("[]".utf8)) : HTTPResponse(contentType: "text/plain", body: [])
                reply(response, keepAlive: keepAlive, connection, server)
            case .refused(let reason):
                reply(.error(.badRequest, "Not stored: \(reason)"), keepAlive: keepAlive, connection, server)
            case .unavailable:
                reply(
                    .error(
                        .serviceUnavailable, "The database is unreachable: the report is not stored; send it again",
                        headers: ["Retry-After: 10"]), keepAlive: keepAlive, connection, server)
            }
            if connection.isOpen { process(connection, server) }
        }
        return !stopping
    }

    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
        connection.input.append(contentsOf: bytes)
        if connection.input.count > 8 * 1024 + configuration.maximumBodyLength + 64 * 1024 {
            // A client that pipelines without end while its report waits: cut.
            server.close(connection)
            return
        }
        process(connection, server)
    }

    func deadlinePassed(_ connection: Connection, on server: Server) {
        if connection.input.isEmpty {
            server.close(connection)
            return
        }
        refuse(.requestTimeout, "The request did not arrive in time; closing", connection, server)
    }

    /// Answers every complete request in the connection's input, in order, until one waits for the store.
    private func process(_ connection: Connection, _ server: Server) {
        while connection.isOpen {
            switch connection.session.phase {
            case .waiting:
                return
            case .head:
                if connection.input.isEmpty { return }
                let parsed = connection.input.withUnsafeBytes { HTTPRequest.parse($0, limit: 8 * 1024) }
                switch parsed {
                case .incomplete:
                    return
                case .invalid(let status, let reason):
                    refuse(status, reason, connection, server)
                    return
                case .request(let request, let consumed):
                    connection.input.removeFirst(consumed)
                    if request.isChunked {
                        refuse(.lengthRequired, "Send the body with a Content-Length", connection, server)
                        return
                    }
                    if request.contentLength > configuration.maximumBodyLength {
                        refuse(
                            .contentTooLarge, "A report is at most \(configuration.maximumBodyLength) bytes",
                            connection, server)
                        return
                    }
                    connection.session.phase = .body(request)
                }
            case .body(let request):
                guard connection.input.count >= request.contentLength else { return }
                let body = Array(connection.input.prefix(request.contentLength))
                connection.input.removeFirst(request.contentLength)
                connection.session.phase = .head
                handle(request, body: body, connection, server)
            }
        }
    }

    private func handle(
        _ request: HTTPRequest, body: [UInt8], _ connection: Connection, _ server: Server, isRetry: Bool = false
    ) {
        if !isRetry { collector.count { $0.requests += 1 } }
        let keepAlive = request.keepsAlive
        guard request.method == "GET" || request.method == "POST" else {
            reply(
                .error(.methodNotAllowed, "Report with GET or POST", headers: ["Allow: GET, POST"]),
                keepAlive: keepAlive, connection, server, counted: \.invalid)
            return
        }
        let contentType = request.contentType?.lowercased() ?? ""
        let result: Result<StoredPosition, HTTPReport.Refusal>
        let ownTracks = request.method == "POST" && contentType.hasPrefix("application/json")
        if ownTracks {
            switch ownTracksReport(request, body) {
            case .report(let report):
                result = report
            case .check(let user, let password, let hash):
                nextTicket += 1
                guard collector.check(password, against: hash, ticket: nextTicket) else {
                    reply(
                        .error(.serviceUnavailable, "Too many logins at once; try again", headers: ["Retry-After: 5"]),
                        keepAlive: keepAlive, connection, server, counted: \.unavailable)
                    return
                }
                checking[nextTicket] = (request, body, user, password)
                waiting[nextTicket] = connection
                connection.deadline = nil
                connection.session.phase = .waiting(ticket: nextTicket, keepAlive: keepAlive, ownTracks: true)
                return
            }
        } else {
            var items = request.query
            if !body.isEmpty {
                guard
                    contentType.isEmpty || contentType.hasPrefix("application/x-www-form-urlencoded")
                        || contentType.hasPrefix("text/plain"),
                    let form = HTTPReport.formItems(body)
                else {
                    reply(
                        .error(
                            .unsupportedMediaType,
                            "Send OsmAnd fields in the query or a form body, OwnTracks as application/json"),
                        keepAlive: keepAlive, connection, server, counted: \.invalid)
                    return
                }
                items += form
            }
            result = HTTPReport.osmAnd(
                items, devices: configuration.devices, now: WallClock.millisecondsSinceEpoch() / 1000)
        }
        switch result {
        case .success(let position):
            nextTicket += 1
            waiting[nextTicket] = connection
            connection.deadline = nil
            connection.session.phase = .waiting(ticket: nextTicket, keepAlive: keepAlive, ownTracks: ownTracks)
            collector.submit(position, ticket: nextTicket)
        case .failure(.notALocation):
            reply(.json(Array("[]".utf8)), keepAlive: keepAlive, connection, server, counted: \.otherTypes)
        case .failure(.invalid(let reason)):
            reply(
                .error(.badRequest, "Not a report: \(reason)"), keepAlive: keepAlive, connection, server,
                counted: \.invalid)
        case .failure(.unknownDevice(let id)):
            reply(
                .error(.forbidden, "Unknown device '\(id)': add it to the collector's devices file"),
                keepAlive: keepAlive, connection, server, counted: \.unknownDevices)
        case .failure(.noCredentials):
            reply(
                .error(
                    .unauthorized, "Log in (HTTP basic authentication)",
                    headers: [
                        "WWW-Authenticate: Basic realm=\"nmea collect\", charset=\"UTF-8\""
                    ]), keepAlive: keepAlive, connection, server, counted: \.failedLogins)
        case .failure(.badLogin):
            reply(
                .error(.forbidden, "Wrong user or password"), keepAlive: keepAlive, connection, server,
                counted: \.failedLogins)
        }
    }

    /// What an OwnTracks request comes to: a report (or a refusal), or a password to check first.
    private enum OwnTracksOutcome {
        case report(Result<StoredPosition, HTTPReport.Refusal>)
        case check(user: String, password: [UInt8], hash: BcryptHash)
    }

    /// An OwnTracks location from an authenticated user; a login not verified before goes to the login thread.
    private func ownTracksReport(_ request: HTTPRequest, _ body: [UInt8]) -> OwnTracksOutcome {
        guard let credentials = HTTPRequest.basicCredentials(request.authorization) else {
            return .report(.failure(.noCredentials))
        }
        guard let hash = configuration.users?.hashes[credentials.user] else { return .report(.failure(.badLogin)) }
        guard let known = verified[credentials.user], Self.equal(known, credentials.password) else {
            return .check(user: credentials.user, password: credentials.password, hash: hash)
        }
        let user = request.extensionHeaders["x-limit-u"] ?? credentials.user
        guard user == credentials.user else { return .report(.failure(.badLogin)) }
        return .report(HTTPReport.ownTracks(body, user: user, device: request.extensionHeaders["x-limit-d"]))
    }

    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    private func reply(
        _ response: HTTPResponse, keepAlive: Bool, _ connection: Connection, _ server: Server,
        counted: WritableKeyPath<HTTPCollector.Statistics, Int>? = nil
    ) {
        if let counted { collector.count { $0[keyPath: counted] += 1 } }
        server.send(SharedBytes.line(response.encoded(keepAlive: keepAlive), lineEnding: false), to: connection)
        if keepAlive {
            connection.deadline = MonotonicTime.now() + configuration.requestTimeout
        } else {
            server.closeAfterSending(connection, deadline: nil)
        }
    }

    /// A request that cannot be read: answered, and the connection closed (what follows cannot be trusted).
    private func refuse(_ status: HTTPStatus, _ reason: String, _ connection: Connection, _ server: Server) {
        collector.count { $0.invalid += 1 }
        server.send(
            SharedBytes.line(HTTPResponse.error(status, reason).encoded(keepAlive: false), lineEnding: false),
            to: connection)
        server.closeAfterSending(connection, deadline: nil)
    }
}
