import JSON
import NMEA
import Pipeline
import System
import Threading

/// gpsd's JSON protocol on TCP, for every program that speaks it: `gpspipe`, `cgps`, `xgps`, libgps, the Python
/// `gps` module, Home Assistant, chrony's gpsd refclock tools…
///
///     let server = GPSDServer(pipeline: pipeline, listen: .loopback, maxClients: 64)   // before pipeline.start
///     try server.start()             // binds now: errors are thrown here
///     …
///     server.stop()
///
/// **Protocol** (the subset clients use, as gpsd 3.22 speaks it; see `gpsd_json(5)`): a VERSION object on connect;
/// `?WATCH={"enable":true,"json":true}` answered with DEVICES and WATCH, then a TPV per fix and a SKY per epoch;
/// `"nmea":true` (or `"raw":1`) adds the sentences as received; `?POLL;` answers POLL with the latest TPV and SKY;
/// `?DEVICES;`, `?DEVICE;`, `?VERSION;`; anything else gets an ERROR object. Lines end in CR LF. A watcher that
/// joins gets the latest TPV and SKY at once (position at once, for gpsd clients too), then live ones.
///
/// **Raw NMEA** (``Configuration/servesRawNMEA``, `--nmea-tcp`): every client gets every sentence as received from
/// the moment it connects, CR LF after each, with no handshake and no JSON — what OpenCPN, GPXSee, QGIS and gpsd's
/// own `tcp://` sources read. What a client sends is read and dropped; one over the limit is closed at once. The
/// limits and the slow-client rule are the same.
///
/// **Safety.** The default address is loopback only. At most ``Configuration/maxClients`` clients: the next is
/// sent an ERROR and closed. A command longer than ``Configuration/maximumCommandLength`` gets an ERROR and the
/// connection is closed. A client whose unsent data passes ``Configuration/clientQueueLimit`` (it stopped reading)
/// is disconnected. Malformed input of any kind is answered with an ERROR and never traps.
///
/// **Threads.** One consumer thread (a ``Pipeline/RingConsumerLoop``) reads the pipeline's ring and encodes each
/// record as JSON once; one socket thread runs a `poll(2)` loop (woken by an `eventfd` when reports are ready), hands
/// each report — the same shared buffer — to every watching client's bounded queue, and writes with non-blocking
/// `sendmsg`. Neither ever waits for a client, and the pipeline never waits for either.
public final class GPSDServer: Sendable {
    /// How the server behaves.
    public struct Configuration: Sendable {
        /// Where to listen (loopback by default).
        public var listen = ListenAddress.loopback
        /// Clients served at once; the next is refused with an ERROR.
        public var maxClients = 64
        /// The longest command accepted, in bytes: longer gets an ERROR and the connection is closed.
        public var maximumCommandLength = 4096
        /// The most bytes queued for one client (besides what the kernel holds) before it is disconnected as one
        /// that stopped reading. The default holds about 10 s of a 10 Hz multi-GNSS receiver's reports.
        public var clientQueueLimit = 512 * 1024
        /// The kernel's send buffer per client socket (`SO_SNDBUF`; Linux doubles it), so a client that stops
        /// reading holds a bounded amount of kernel memory too, rather than what TCP autotuning would grow to.
        /// `nil` leaves the kernel's default.
        public var socketSendBufferSize: Int? = 128 * 1024
        /// How long a client being closed (refused, or after an overlong command) has to read its ERROR.
        public var closingGracePeriod = Duration.seconds(1)
        /// A new watcher gets the latest TPV and SKY at once, before live ones.
        public var sendsLatestOnWatch = true
        /// The VERSION object's `release`.
        public var release = "swift-nmea"
        /// The VERSION object's `rev`.
        public var revision = "swift-nmea"
        /// Serve the sentences alone, to every client, without a handshake (see "Raw NMEA" above). The pipeline must
        /// publish sentences (``Pipeline/ReceiverPipeline/Configuration/publishesSentences``).
        public var servesRawNMEA = false

        public init() {}
    }

    public let configuration: Configuration
    public let pipeline: ReceiverPipeline
    private let reports: RingConsumerLoop
    private let shared: Locked<SharedState>
    private let wakeUp: WakeUp
    private let threads = Locked(Threads())

    private struct Threads {
        var sockets: NativeThread?
        var listener: FileDescriptor?
        var bound: ListenAddress?
        var stopped = false
    }

    /// Serves `pipeline`'s records on `listen`. Make it before the pipeline starts to miss nothing (it joins the
    /// ring now); nothing listens until ``start()``.
    public convenience init(pipeline: ReceiverPipeline, listen: ListenAddress = .loopback, maxClients: Int = 64) {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        self.init(pipeline: pipeline, configuration: configuration)
    }

    public init(pipeline: ReceiverPipeline, configuration: Configuration) {
        precondition(configuration.maxClients >= 1, "a server serves at least one client")
        self.pipeline = pipeline
        self.configuration = configuration
        let shared = Locked(SharedState())
        let wakeUp = WakeUp()
        self.shared = shared
        self.wakeUp = wakeUp
        reports = RingConsumerLoop(
            ReportEncoder(shared: shared, wakeUp: wakeUp, sentencesOnly: configuration.servesRawNMEA),
            name: configuration.servesRawNMEA ? "nmea-tcp" : "gpsd-server", pipeline: pipeline,
            options: .init(batchSize: 64, idleInterval: .seconds(1)))
    }

    // MARK: Running

    /// Binds and listens (errors are thrown here, before any thread starts), then starts the consumer and socket
    /// threads. Call once.
    public func start() throws(GPSDServerError) {
        let socket = try ListeningSocket.open(configuration.listen)
        threads.withLock { threads in
            threads.listener = socket.descriptor
            threads.bound = socket.bound
            let raw = configuration.servesRawNMEA
            reports.start(threadName: raw ? "nmea-tcp-reports" : "gpsd-reports")
            threads.sockets = NativeThread(name: raw ? "nmea-tcp-sockets" : "gpsd-sockets") { [self] in
                var loop = SocketLoop(server: self, listener: socket.descriptor)
                loop.run()
            }
        }
    }

    /// A server on `pipeline` (made before the pipeline starts, so it misses nothing), listening on `listen` and
    /// naming itself `version` in VERSION (`release`; `rev` is "swift-nmea" and the version): what `nmea serve`
    /// and `nmea record --serve` run.
    /// - Throws: ``GPSDServerError`` when the address cannot be listened on.
    public static func started(
        pipeline: ReceiverPipeline, listen: ListenAddress, maxClients: Int = 64,
        version: String
    ) throws(GPSDServerError) -> GPSDServer {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        configuration.release = version
        configuration.revision = "swift-nmea \(version)"
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        try server.start()
        return server
    }

    /// A raw NMEA server on `pipeline` (made before the pipeline starts), listening on `listen`: what
    /// `--nmea-tcp` runs. The pipeline must publish sentences.
    /// - Throws: ``GPSDServerError`` when the address cannot be listened on.
    public static func startedRawNMEA(
        pipeline: ReceiverPipeline, listen: ListenAddress, maxClients: Int = 64
    ) throws(GPSDServerError) -> GPSDServer {
        var configuration = Configuration()
        configuration.listen = listen
        configuration.maxClients = maxClients
        configuration.servesRawNMEA = true
        let server = GPSDServer(pipeline: pipeline, configuration: configuration)
        try server.start()
        return server
    }

    /// Closes every connection and the listening socket and stops both threads. Harmless when not started, or
    /// stopped already.
    public func stop() {
        let (socketThread, listener) = threads.withLock { threads in
            defer {
                threads.sockets = nil
                threads.listener = nil
                threads.stopped = true
            }
            return (threads.sockets, threads.listener)
        }
        shared.withLock { $0.stopping = true }
        wake()
        socketThread?.join()
        reports.stop()
        try? listener?.close()
    }

    /// The address and port actually listened on (the real port when 0 was asked for); `nil` before ``start()``.
    public var boundAddress: ListenAddress? { threads.withLock { $0.bound } }

    /// What the server has done so far. ``GPSDServerStatistics/queuedBytes`` includes the reports encoded and not
    /// yet handed to the clients, so that "the source ended and nothing waits" is never seen while the last reports
    /// are on their way to the socket thread.
    public var statistics: GPSDServerStatistics {
        shared.withLock { state in
            var statistics = state.statistics
            statistics.queuedBytes += state.outbox.reduce(0) { $0 + $1.bytes.count }
            return statistics
        }
    }

    /// The path of the device the server reports as active (in DEVICES); `nil` while none is connected.
    public var activeDevice: String? { shared.withLock { $0.device?.path } }

    // MARK: Consumer thread: records → reports, encoded once

    /// Reads the ring (on the ``RingConsumerLoop``'s thread); encodes each fix as TPV (and SKY for a complete epoch),
    /// each sentence as a line, each connection change as DEVICE; hands them to the socket thread after each batch.
    private final class ReportEncoder: RecordConsumer {
        let shared: Locked<SharedState>
        let wakeUp: WakeUp
        var json = JSONWriter(capacity: 16 * 1024)
        var device: GPSDDevice?
        var path = ""
        var cycle = 1.0
        var lastFixTime: Int64?
        var batch: [Outgoing] = []
        /// Raw NMEA: sentences only, no reports encoded.
        let sentencesOnly: Bool

        init(shared: Locked<SharedState>, wakeUp: WakeUp, sentencesOnly: Bool) {
            self.shared = shared
            self.wakeUp = wakeUp
            self.sentencesOnly = sentencesOnly
        }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            var latestTPV: [UInt8]?
            var latestSKY: [UInt8]?
            var deviceChanged = false
            for record in records {
                if sentencesOnly, record.sentence == nil { continue }
                switch record.content {
                case .fix(let fix):
                    json.reset()
                    GPSDReports.writeTPV(fix, device: path, into: &json)
                    latestTPV = json.bytes
                    batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    if !fix.isProvisional, GPSDReports.hasSky(fix) {
                        json.reset()
                        GPSDReports.writeSKY(fix, device: path, into: &json)
                        latestSKY = json.bytes
                        batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    }
                    if !fix.isProvisional, GPSDReports.hasAttitude(fix) {
                        json.reset()
                        GPSDReports.writeATT(fix, device: path, into: &json)
                        batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    }
                    if !fix.isProvisional, let time = fix.timestamp, learnCycle(time) { deviceChanged = true }
                case .sentence(let sentence):
                    let bytes = sentence.withBytes { SharedBytes($0) }
                    batch.append(Outgoing(audience: .sentences, bytes: bytes))
                case .status(let status):
                    deviceChanged = take(status) || deviceChanged
                case .raw:
                    continue
                }
            }
            post(latestTPV: latestTPV, latestSKY: latestSKY, deviceChanged: deviceChanged, lost: lost)
        }

        func finish() {
            post(latestTPV: nil, latestSKY: nil, deviceChanged: false, lost: 0, finished: true)
        }

        /// The receiver's cycle from consecutive fix times (for DEVICE's `cycle`); `true` when it changed.
        private func learnCycle(_ time: Int64) -> Bool {
            defer { lastFixTime = time }
            guard let last = lastFixTime, time > last, time - last <= 10_000_000_000 else { return false }
            cycle = Double((time - last) / 1_000_000) / 1000
            guard var active = device, active.cycleSeconds != cycle else { return false }
            active.cycleSeconds = cycle
            device = active
            return true
        }

        /// A connection change as DEVICE (activated or deactivated); `true` when the active device changed.
        private func take(_ status: ReceiverStatus) -> Bool {
            let name = status.device.string
            switch status.state {
            case .connected:
                path = name.isEmpty ? path : name
                let active = GPSDDevice(
                    path: path, baudRate: Int(status.baudRate),
                    activatedNanoseconds: WallClock.nanosecondsSinceEpoch(), cycleSeconds: cycle)
                device = active
                json.reset()
                GPSDReports.writeDevice(active, into: &json)
                batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                return true
            case .disconnected, .ended, .searching, .connecting:
                var changed = false
                if let active = device {
                    json.reset()
                    GPSDReports.writeDeactivated(path: active.path, into: &json)
                    batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    device = nil
                    changed = true
                    lastFixTime = nil
                }
                if status.state == .connecting && !name.isEmpty { path = name }
                return changed
            }
        }

        /// Hands the batch to the socket thread and wakes it.
        private func post(
            latestTPV: [UInt8]?, latestSKY: [UInt8]?, deviceChanged: Bool, lost: Int,
            finished: Bool = false
        ) {
            guard !batch.isEmpty || deviceChanged || lost > 0 || finished else { return }
            let reports = batch.count
            let (device, path, batch) = (device, path, batch)
            shared.withLock { state in
                state.post(batch, limit: 16_384)
                if let latestTPV { state.latestTPV = latestTPV }
                if let latestSKY { state.latestSKY = latestSKY }
                if deviceChanged { state.device = device }
                state.devicePath = path
                state.statistics.reports += reports
                state.statistics.lostRecords += lost
                if finished { state.statistics.sourceEnded = true }
            }
            self.batch.removeAll(keepingCapacity: true)
            wakeUp.signal()
        }
    }

    /// Wakes the socket thread.
    fileprivate func wake() { wakeUp.signal() }

    // MARK: Shared between the threads

    fileprivate struct Outgoing {
        enum Audience { case reports, sentences }
        var audience: Audience
        var bytes: SharedBytes
    }

    fileprivate struct SharedState {
        /// Reports encoded and not yet handed to clients.
        var outbox: [Outgoing] = []
        var latestTPV: [UInt8]?
        var latestSKY: [UInt8]?
        /// The active device; `nil` while none is connected.
        var device: GPSDDevice?
        var devicePath = ""
        var stopping = false
        var statistics = GPSDServerStatistics()

        /// Adds `batch` to the outbox, dropping the oldest beyond `limit` (the socket thread never lags that far;
        /// if it somehow did, memory stays bounded).
        mutating func post(_ batch: [Outgoing], limit: Int) {
            outbox.append(contentsOf: batch)
            if outbox.count > limit {
                let excess = outbox.count - limit
                outbox.removeFirst(excess)
                statistics.droppedReports += excess
            }
        }
    }

    // MARK: Socket thread

    /// The `poll(2)` loop: accepts, reads commands, answers, fans reports out, writes, closes.
    private struct SocketLoop {
        let server: GPSDServer
        let listener: FileDescriptor
        let configuration: Configuration
        var clients: [ClientConnection] = []
        /// Refused clients, given their ERROR and the grace period to read it.
        var refused: [ClientConnection] = []
        var nextIdentifier = 0
        var json = JSONWriter(capacity: 16 * 1024)
        var statistics = GPSDServerStatistics()
        var acceptPausedUntil: MonotonicTime?
        let readBuffer: UnsafeMutableRawBufferPointer

        init(server: GPSDServer, listener: FileDescriptor) {
            self.server = server
            self.listener = listener
            configuration = server.configuration
            readBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
        }

        mutating func run() {
            defer {
                for client in clients + refused { client.close() }
                readBuffer.deallocate()
            }
            var descriptors: [FileDescriptor.PollEntry] = []
            var polled: [ClientConnection] = []
            while true {
                // What to wait for.
                descriptors.removeAll(keepingCapacity: true)
                polled.removeAll(keepingCapacity: true)
                descriptors.append(.init(server.wakeUp.fileDescriptor, .readable))
                let now = MonotonicTime.now()
                if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }
                let accepting = acceptPausedUntil == nil
                descriptors.append(.init(accepting ? listener : nil, .readable))
                var nearest: MonotonicTime? = acceptPausedUntil
                for client in clients + refused where !client.isClosed {
                    var events = FileDescriptor.PollEvents.readable
                    if !client.output.isEmpty { events.insert(.writable) }
                    descriptors.append(.init(client.descriptor, events))
                    polled.append(client)
                    if let deadline = client.deadline { nearest = min(nearest ?? deadline, deadline) }
                }
                var timeout: Int32 = 1000
                if let nearest {
                    let milliseconds = (nearest.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
                    timeout = Int32(clamping: max(0, min(milliseconds, 1000)))
                }
                do {
                    try FileDescriptor.poll(&descriptors, timeoutMilliseconds: timeout)
                } catch {
                    break
                }

                // Reports from the consumer thread, and stop requests.
                var incoming: [Outgoing] = []
                var stopping = false
                if !descriptors[0].returned.isEmpty { server.wakeUp.drain() }
                server.shared.withLock { state in
                    swap(&incoming, &state.outbox)
                    stopping = state.stopping
                    // Still queued until the fan-out and the flush below, when publishStatistics counts it again.
                    state.statistics.queuedBytes += incoming.reduce(0) { $0 + $1.bytes.count }
                }
                if stopping { break }
                fanOut(incoming)

                if descriptors[1].returned.contains(.readable) { acceptClients() }
                for (offset, client) in polled.enumerated() where !client.isClosed {
                    let events = descriptors[offset + 2].returned
                    if events.isEmpty { continue }
                    if !events.isDisjoint(with: [.readable, .hangUp, .error]) { readFrom(client) }
                    if !client.isClosed && events.contains(.writable) { flush(client) }
                }
                // Flush what the fan-out and the replies queued, enforce the queue bound, advance closings.
                let time = MonotonicTime.now()
                for client in clients + refused where !client.isClosed {
                    if !client.output.isEmpty { flush(client) }
                    advance(client, now: time)
                }
                clients.removeAll { $0.isClosed }
                refused.removeAll { $0.isClosed }
                publishStatistics()
            }
        }

        // MARK: Reports

        private mutating func fanOut(_ reports: [Outgoing]) {
            guard !reports.isEmpty else { return }
            for client in clients where client.phase == .open {
                let policy = client.policy
                guard policy.wantsReports || policy.wantsSentences else { continue }
                for report in reports {
                    switch report.audience {
                    case .reports where policy.wantsReports: client.output.append(report.bytes)
                    case .sentences where policy.wantsSentences: client.output.append(report.bytes)
                    default: break
                    }
                }
                enforceQueueLimit(client)
            }
        }

        /// Disconnects a client whose queue passed the bound: it stopped reading.
        private mutating func enforceQueueLimit(_ client: ClientConnection) {
            guard client.output.byteCount > configuration.clientQueueLimit else { return }
            client.close()
            statistics.disconnectedSlow += 1
        }

        // MARK: Accepting

        private mutating func acceptClients() {
            while true {
                let descriptor: FileDescriptor
                switch listener.acceptClient(sendBufferSize: configuration.socketSendBufferSize) {
                case .accepted(let accepted): descriptor = accepted
                case .pause:
                    acceptPausedUntil = MonotonicTime.now() + .milliseconds(100)
                    return
                case .none: return
                }
                let client = ClientConnection(descriptor: descriptor, identifier: nextIdentifier)
                nextIdentifier += 1
                let open = clients.count { !$0.isClosed }
                if open >= configuration.maxClients {
                    statistics.refused += 1
                    if configuration.servesRawNMEA {
                        client.close()  // no protocol to say why in
                        continue
                    }
                    guard refused.count < 64 else {
                        client.close()
                        continue
                    }
                    reply(
                        error: "Too many clients: \(configuration.maxClients) are connected; try again later",
                        to: client)
                    beginClosing(client)
                    refused.append(client)
                    continue
                }
                statistics.accepted += 1
                clients.append(client)
                if configuration.servesRawNMEA {
                    client.policy = .everySentence
                    continue
                }
                json.reset()
                GPSDReports.writeVersion(
                    release: configuration.release, revision: configuration.revision,
                    into: &json)
                enqueue(client)
            }
        }

        // MARK: Reading and answering

        private mutating func readFrom(_ client: ClientConnection) {
            let count: Int
            do throws(Errno) {
                count = try client.descriptor.receive(into: readBuffer, flags: .dontWait)
            } catch .wouldBlock {
                return
            } catch {
                client.close()
                return
            }
            if count == 0 {
                client.close()  // the client closed (or half-closed) its side: done, as gpsd does
                return
            }
            guard client.phase == .open, !configuration.servesRawNMEA else { return }  // closing, or raw: dropped
            client.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
            let limit = configuration.maximumCommandLength
            let scan = client.input.withUnsafeBytes { CommandScanner.scan($0, maximumLength: limit) }
            for command in scan.commands {
                answer(command, client)
                if client.isClosed { return }
            }
            if scan.overflow {
                client.input.removeAll()
                statistics.disconnectedOverlong += 1
                reply(error: "Request too long: commands are at most \(limit) bytes; closing", to: client)
                beginClosing(client)
            } else if scan.consumed > 0 {
                client.input.removeFirst(scan.consumed)
            }
        }

        private mutating func answer(_ command: ClientCommand, _ client: ClientConnection) {
            let (device, path, latestTPV, latestSKY) = server.shared.withLock {
                ($0.device, $0.devicePath, $0.latestTPV, $0.latestSKY)
            }
            switch command {
            case .watch(let request):
                if let request { client.policy = request.applied(to: client.policy) }
                json.reset()
                GPSDReports.writeDevices(device, into: &json)
                enqueue(client)
                json.reset()
                GPSDReports.writeWatch(client.policy, into: &json)
                enqueue(client)
                if request?.enable == true, client.policy.wantsReports, configuration.sendsLatestOnWatch,
                    device != nil, let latestTPV
                {
                    client.output.append(.line(latestTPV))
                    if let latestSKY { client.output.append(.line(latestSKY)) }
                }
            case .poll:
                json.reset()
                GPSDReports.writePoll(
                    active: device == nil ? 0 : 1, tpv: latestTPV, sky: latestSKY, device: path,
                    into: &json)
                enqueue(client)
            case .devices:
                json.reset()
                GPSDReports.writeDevices(device, into: &json)
                enqueue(client)
            case .version:
                json.reset()
                GPSDReports.writeVersion(
                    release: configuration.release, revision: configuration.revision,
                    into: &json)
                enqueue(client)
            case .device(let changes):
                if changes {
                    reply(error: "Changing device settings is not supported", to: client)
                } else if let device {
                    json.reset()
                    GPSDReports.writeDevice(device, into: &json)
                    enqueue(client)
                } else {
                    reply(error: "No device is active", to: client)
                }
            case .invalid(let message):
                reply(error: message, to: client)
            }
            enforceQueueLimit(client)
        }

        private mutating func reply(error message: String, to client: ClientConnection) {
            statistics.errors += 1
            json.reset()
            GPSDReports.writeError(message, into: &json)
            enqueue(client)
        }

        /// Queues what `json` holds for `client`.
        private mutating func enqueue(_ client: ClientConnection) {
            client.output.append(json.bytes.withUnsafeBytes { SharedBytes($0) })
        }

        // MARK: Writing and closing

        private mutating func flush(_ client: ClientConnection) {
            var sent = 0
            let outcome = client.output.send(to: client.descriptor, sent: &sent)
            statistics.bytesSent += sent
            if case .failed = outcome { client.close() }
        }

        /// Sends what is queued, then shuts down the write side; the client has the grace period to read it.
        private func beginClosing(_ client: ClientConnection) {
            client.phase = .closingAfterFlush(deadline: MonotonicTime.now() + configuration.closingGracePeriod)
        }

        /// Moves a closing client on: queue sent → write side shut down → input drained until EOF or the deadline.
        private func advance(_ client: ClientConnection, now: MonotonicTime) {
            switch client.phase {
            case .open:
                break
            case .closingAfterFlush(let deadline):
                if client.output.isEmpty {
                    try? client.descriptor.shutdown(.write)
                    client.phase = .draining(deadline: deadline)
                } else if now >= deadline {
                    client.close()
                }
            case .draining(let deadline):
                if now >= deadline { client.close() }
            }
        }

        private mutating func publishStatistics() {
            let open = clients.filter { !$0.isClosed }
            statistics.clients = open.count
            statistics.watchers = open.count { $0.policy.wantsReports || $0.policy.wantsSentences }
            statistics.queuedBytes = open.reduce(0) { $0 + $1.output.byteCount }
            let snapshot = statistics
            server.shared.withLock { state in
                let reports = state.statistics.reports
                let lost = state.statistics.lostRecords
                let dropped = state.statistics.droppedReports
                let ended = state.statistics.sourceEnded
                state.statistics = snapshot
                state.statistics.reports = reports
                state.statistics.lostRecords = lost
                state.statistics.droppedReports = dropped
                state.statistics.sourceEnded = ended
            }
        }
    }
}

/// What a ``GPSDServer`` has done.
public struct GPSDServerStatistics: Sendable, Hashable {
    /// Clients connected now.
    public var clients = 0
    /// Of those, clients watching (reports or sentences).
    public var watchers = 0
    /// Clients accepted in all.
    public var accepted = 0
    /// Clients refused because ``GPSDServer/Configuration/maxClients`` were connected.
    public var refused = 0
    /// Clients disconnected because their queue passed the bound (they stopped reading).
    public var disconnectedSlow = 0
    /// Clients disconnected after a command longer than the limit.
    public var disconnectedOverlong = 0
    /// ERROR objects sent.
    public var errors = 0
    /// Reports and sentences encoded by the consumer thread (each once, whatever the number of clients).
    public var reports = 0
    /// Bytes written to clients.
    public var bytesSent = 0
    /// Bytes queued for clients, not yet written.
    public var queuedBytes = 0
    /// Pipeline records the server lost (it fell a whole ring behind).
    public var lostRecords = 0
    /// Reports dropped between the threads (never expected).
    public var droppedReports = 0
    /// The pipeline's source has ended (end of a file).
    public var sourceEnded = false
}
