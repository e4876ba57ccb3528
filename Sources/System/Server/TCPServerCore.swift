/// The one non-blocking TCP server of the project: a `poll(2)` loop on one thread that accepts, reads, writes and
/// closes, under a ``TCPServerHandler`` that supplies the protocol (gpsd's JSON, raw NMEA, HTTP and its event
/// streams).
///
///     let socket = try ListeningSocket.open(address)          // on the caller's thread: errors are thrown here
///     NativeThread(name: "server") {                          // the loop's own thread
///         TCPServerCore(listener: socket.descriptor, wakeUp: wakeUp, configuration: .init(), handler: Echo()).run()
///     }
///     …; wakeUp.signal()                                      // from any thread: the handler's `woken` runs
///
/// **What the core owns.** Accepting, paused for a moment when the process runs out of descriptors (rather than
/// spinning on a listener that stays readable), and refusing beyond ``Configuration/maxConnections`` (the client is
/// sent the handler's refusal and closed; at most ``Configuration/maxRefusing`` are being refused at once). Each
/// client's input buffer and its bounded output queue of shared buffers, written with gathered `sendmsg(2)`; a
/// client whose queue passes ``Configuration/queueLimit`` or waits longer than ``Configuration/writeTimeout`` is
/// disconnected. Deadlines (the handler's per client, a periodic tick) as the `poll` timeout. Closing: the queue
/// is sent, the write side shut down, and the input read and dropped until the client closes or the deadline
/// passes, so that the last reply is not lost to a reset. Fan-out: one buffer queued to many clients.
///
/// **Rounds.** Wait in `poll` (the ``WakeUp``, the listener unless paused, every client: readable, and writable
/// while its queue is not empty; at most a second); let the handler take what other threads posted
/// (``TCPServerHandler/woken(_:)``); accept; read and write the clients that are ready; run the tick; then for
/// every client: write what is queued, enforce the write timeout and the handler's deadline, move closings on;
/// forget the closed; update ``statistics``.
package final class TCPServerCore<Handler: TCPServerHandler> {
    package typealias Configuration = TCPServerConfiguration

    /// One client, owned by the core's thread.
    package final class Connection {
        /// Where a client is between its connection and its end.
        package enum State: Equatable {
            /// Reading requests, receiving what it is sent.
            case open
            /// Being closed: its queue is sent (until `deadline`, when there is one), then its write side is shut
            /// down. Its input is dropped.
            case closing(deadline: MonotonicTime?)
            /// Write side shut down; its input is read and dropped until it closes or `deadline` passes.
            case draining(deadline: MonotonicTime)
            /// Closed: forgotten at the end of the round.
            case closed
        }

        package let descriptor: FileDescriptor
        /// Numbers the clients in the order they were accepted, from 0.
        package let identifier: Int
        /// The protocol's state for this client.
        package var session: Handler.Session
        /// Bytes received and not yet understood (a request not yet whole); the handler fills and empties it.
        package var input: [UInt8] = []
        /// What is yet to be sent.
        package fileprivate(set) var output = OutputQueue()
        package fileprivate(set) var state = State.open
        /// When the handler wants to hear of this client again (``TCPServerHandler/deadlinePassed(_:on:)``), while
        /// it is open; `nil` for never.
        package var deadline: MonotonicTime?
        /// Since when its queue has not been empty (kept only with a write timeout).
        fileprivate var outputSince: MonotonicTime?

        init(descriptor: FileDescriptor, identifier: Int, session: Handler.Session) {
            self.descriptor = descriptor
            self.identifier = identifier
            self.session = session
        }

        /// Open: not being closed, nor closed.
        /// - Complexity: O(1).
        package var isOpen: Bool {
            if case .open = state { return true }
            return false
        }

        /// - Complexity: O(1).
        package var isClosed: Bool {
            if case .closed = state { return true }
            return false
        }
    }

    package let configuration: Configuration
    package let handler: Handler
    /// The accepted clients, in the order they came (the closed ones until the end of the round): those the limit
    /// counts.
    package private(set) var connections: [Connection] = []
    /// What the core has done so far, up to date at the end of each round.
    package private(set) var statistics = TCPServerStatistics()
    /// When to call ``TCPServerHandler/tick(_:)`` next; `nil` for never.
    package var nextTick: MonotonicTime?

    private let listener: FileDescriptor
    private let wakeUp: WakeUp
    /// Refused clients, being told why.
    private var refusing: [Connection] = []
    private var nextIdentifier = 0
    private var acceptPausedUntil: MonotonicTime?
    private let readBuffer: UnsafeMutableRawBufferPointer

    /// A core that accepts the clients of `listener` (bound, listening, non-blocking; its owner closes it after
    /// ``run()`` returns) and wakes up when `wakeUp` is signalled.
    package init(listener: FileDescriptor, wakeUp: WakeUp, configuration: Configuration, handler: Handler) {
        precondition(configuration.maxConnections >= 1, "a server serves at least one client")
        self.listener = listener
        self.wakeUp = wakeUp
        self.configuration = configuration
        self.handler = handler
        readBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    // MARK: The loop

    /// Serves until the handler's ``TCPServerHandler/woken(_:)`` says to stop (or `poll` fails), then closes every
    /// client. Call once, on the thread that owns the core.
    package func run() {
        defer {
            for connection in connections + refusing { closeNow(connection) }
            connections.removeAll()
            refusing.removeAll()
        }
        var entries: [FileDescriptor.PollEntry] = []
        var polled: [Connection] = []
        while true {
            let timeout = prepare(&entries, &polled, now: MonotonicTime.now())
            do {
                try FileDescriptor.poll(&entries, timeoutMilliseconds: timeout)
            } catch {
                break
            }
            if !entries[0].returned.isEmpty { wakeUp.drain() }
            guard handler.woken(self) else { break }
            if entries[1].returned.contains(.readable) { acceptClients() }
            for (offset, connection) in polled.enumerated() where !connection.isClosed {
                let events = entries[offset + 2].returned
                if events.isEmpty { continue }
                if !events.isDisjoint(with: [.readable, .hangUp, .error]) { read(connection) }
                if !connection.isClosed && events.contains(.writable) { flush(connection) }
            }
            let now = MonotonicTime.now()
            if let tick = nextTick, now >= tick {
                nextTick = nil
                handler.tick(self)
            }
            for connection in connections where !connection.isClosed { service(connection, now: now) }
            for connection in refusing where !connection.isClosed { service(connection, now: now) }
            connections.removeAll { $0.isClosed }
            refusing.removeAll { $0.isClosed }
            updateStatistics()
            handler.roundEnded(self)
        }
    }

    /// Fills `entries` (the wake-up, the listener, then each client in `polled`'s order); returns the `poll`
    /// timeout: the nearest deadline, at most a second.
    private func prepare(
        _ entries: inout [FileDescriptor.PollEntry], _ polled: inout [Connection], now: MonotonicTime
    ) -> Int32 {
        entries.removeAll(keepingCapacity: true)
        polled.removeAll(keepingCapacity: true)
        entries.append(.init(wakeUp.fileDescriptor, .readable))
        if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }
        entries.append(.init(acceptPausedUntil == nil ? listener : nil, .readable))
        var nearest = earliest(acceptPausedUntil, nextTick)
        func add(_ connection: Connection) {
            var events = FileDescriptor.PollEvents.readable
            if !connection.output.isEmpty { events.insert(.writable) }
            entries.append(.init(connection.descriptor, events))
            polled.append(connection)
            nearest = earliest(nearest, nextDeadline(of: connection))
        }
        for connection in connections where !connection.isClosed { add(connection) }
        for connection in refusing where !connection.isClosed { add(connection) }
        guard let nearest else { return 1000 }
        let milliseconds = (nearest.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
        return Int32(clamping: max(0, min(milliseconds, 1000)))
    }

    /// The first of the client's deadlines: the handler's, its closing's, its write timeout's.
    private func nextDeadline(of connection: Connection) -> MonotonicTime? {
        var nearest: MonotonicTime?
        switch connection.state {
        case .open: nearest = connection.deadline
        case .closing(let deadline): nearest = deadline
        case .draining(let deadline): nearest = deadline
        case .closed: return nil
        }
        if let since = connection.outputSince, let timeout = configuration.writeTimeout {
            nearest = earliest(nearest, since + timeout)
        }
        return nearest
    }

    private func earliest(_ first: MonotonicTime?, _ second: MonotonicTime?) -> MonotonicTime? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }

    // MARK: Accepting

    /// Accepts every client waiting: under the limit, the handler greets it; over it, it is refused.
    private func acceptClients() {
        while true {
            let descriptor: FileDescriptor
            switch listener.acceptClient(sendBufferSize: configuration.socketSendBufferSize) {
            case .accepted(let accepted): descriptor = accepted
            case .pause:
                acceptPausedUntil = MonotonicTime.now() + configuration.acceptPause
                return
            case .none: return
            }
            let connection = Connection(
                descriptor: descriptor, identifier: nextIdentifier, session: handler.makeSession())
            nextIdentifier += 1
            if connections.count(where: { !$0.isClosed }) >= configuration.maxConnections {
                refuse(connection)
                continue
            }
            statistics.accepted += 1
            connections.append(connection)
            handler.connected(connection, on: self)
        }
    }

    /// Sends a client over the limit the handler's refusal and closes it, or closes it at once.
    private func refuse(_ connection: Connection) {
        statistics.refused += 1
        guard refusing.count < configuration.maxRefusing, let refusal = handler.refusal(on: self) else {
            closeNow(connection)
            return
        }
        send(SharedBytes.line(refusal, lineEnding: false), to: connection)
        closeAfterSending(connection, deadline: MonotonicTime.now() + configuration.closingGracePeriod)
        refusing.append(connection)
    }

    // MARK: Reading

    /// Reads what the client sent: an open client's bytes go to the handler, a closing one's are dropped; the end of
    /// its stream, or an error, closes it.
    private func read(_ connection: Connection) {
        let count: Int
        do throws(Errno) {
            count = try connection.descriptor.receive(into: readBuffer, flags: .dontWait)
        } catch .wouldBlock {
            return
        } catch {
            closeNow(connection)
            return
        }
        if count == 0 {
            // The client closed (or half-closed) its side: done. Whatever was still to be sent to it is dropped.
            closeNow(connection)
            return
        }
        guard connection.isOpen else { return }
        handler.received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), from: connection, on: self)
    }

    // MARK: Sending

    /// Queues `chunk` for `connection` (an open one, or one closing with its queue not yet sent); a client whose
    /// queue passes ``Configuration/queueLimit`` is closed at once.
    /// - Complexity: O(1) amortized.
    package func send(_ chunk: SharedBytes, to connection: Connection) {
        switch connection.state {
        case .open, .closing: enqueue(chunk, connection)
        case .draining, .closed: return
        }
    }

    /// Queues `chunk` (one buffer, shared) for every open client `include` accepts, in the order they came.
    /// - Complexity: O(*n*) in the clients.
    package func broadcast(_ chunk: SharedBytes, where include: (Connection) -> Bool) {
        for connection in connections where connection.isOpen && include(connection) {
            enqueue(chunk, connection)
        }
    }

    private func enqueue(_ chunk: SharedBytes, _ connection: Connection) {
        if connection.output.isEmpty && configuration.writeTimeout != nil {
            connection.outputSince = MonotonicTime.now()
        }
        connection.output.append(chunk)
        if let limit = configuration.queueLimit, connection.output.byteCount > limit {
            statistics.disconnectedSlow += 1
            closeNow(connection)
        }
    }

    /// Sends what the socket takes now; a failed connection is closed. A queue sent whole moves a closing client
    /// on, or lets the handler queue what it held back.
    private func flush(_ connection: Connection) {
        var sent = 0
        let outcome = connection.output.send(to: connection.descriptor, sent: &sent)
        statistics.bytesSent += sent
        switch outcome {
        case .failed:
            closeNow(connection)
        case .blocked:
            break
        case .drained:
            connection.outputSince = nil
            switch connection.state {
            case .open:
                handler.drained(connection, on: self)
                if !connection.output.isEmpty && connection.isOpen { flush(connection) }
            case .closing(let deadline):
                shutWriteSide(connection, deadline: deadline)
            case .draining, .closed:
                break
            }
        }
    }

    // MARK: Deadlines and closing

    /// The end of a round for one client: write what is queued, enforce the write timeout and the handler's
    /// deadline, move a closing on.
    private func service(_ connection: Connection, now: MonotonicTime) {
        if !connection.output.isEmpty { flush(connection) }
        if connection.isClosed { return }
        if let since = connection.outputSince, let timeout = configuration.writeTimeout, now - since > timeout {
            statistics.writeTimeouts += 1
            closeNow(connection)
            return
        }
        if connection.isOpen, let deadline = connection.deadline, now >= deadline {
            connection.deadline = nil
            handler.deadlinePassed(connection, on: self)
            if !connection.output.isEmpty && !connection.isClosed { flush(connection) }
        }
        switch connection.state {
        case .closing(let deadline):
            if connection.output.isEmpty {
                shutWriteSide(connection, deadline: deadline)
            } else if let deadline, now >= deadline {
                closeNow(connection)
            }
        case .draining(let deadline):
            if now >= deadline { closeNow(connection) }
        case .open, .closed:
            break
        }
    }

    /// Closes `connection` once what is queued for it is sent: its write side is then shut down and its input read
    /// and dropped until it closes, so that the last reply is not lost to a reset. At `deadline` (or, without one,
    /// ``Configuration/closingGracePeriod`` after the write side is shut down) it is closed whatever remains.
    package func closeAfterSending(_ connection: Connection, deadline: MonotonicTime?) {
        guard connection.isOpen else { return }
        connection.deadline = nil
        connection.input.removeAll()
        connection.state = .closing(deadline: deadline)
    }

    /// Closes `connection` now; what was queued for it is dropped.
    package func close(_ connection: Connection) { closeNow(connection) }

    private func shutWriteSide(_ connection: Connection, deadline: MonotonicTime?) {
        try? connection.descriptor.shutdown(.write)
        connection.state = .draining(deadline: deadline ?? MonotonicTime.now() + configuration.closingGracePeriod)
    }

    private func closeNow(_ connection: Connection) {
        guard !connection.isClosed else { return }
        connection.state = .closed
        connection.deadline = nil
        connection.outputSince = nil
        connection.output.removeAll()
        try? connection.descriptor.close()
    }

    private func updateStatistics() {
        statistics.connections = connections.count
        statistics.queuedBytes = connections.reduce(0) { $0 + $1.output.byteCount }
    }
}

/// The limits a ``TCPServerCore`` enforces.
package struct TCPServerConfiguration: Sendable {
    /// Clients served at once; the next is refused.
    package var maxConnections = 64
    /// The most bytes queued for one client (besides what the kernel holds) before it is disconnected as one
    /// that stopped reading; `nil` for no bound (a protocol that bounds its queues itself).
    package var queueLimit: Int?
    /// How long a client's queue may stay unsent before it is disconnected; `nil` for no limit.
    package var writeTimeout: Duration?
    /// How long a refused client has to read its refusal, and how long a client being closed without a deadline
    /// of its own is drained after its write side is shut down.
    package var closingGracePeriod = Duration.seconds(1)
    /// Refused clients being told why at once; beyond this, a refused client is closed without a word.
    package var maxRefusing = 64
    /// The kernel's send buffer per client socket (`SO_SNDBUF`; Linux doubles it), so a client that stops
    /// reading holds a bounded amount of kernel memory too; `nil` leaves the kernel's default.
    package var socketSendBufferSize: Int?
    /// How long accepting pauses when the process or the system is out of descriptors or memory.
    package var acceptPause = Duration.milliseconds(100)

    package init() {}
}
