/// The protocol a ``TCPServerCore`` serves (gpsd's JSON, raw NMEA, HTTP): what a client is told when it comes,
/// what its bytes mean, what every client is sent. The core does the sockets; a handler never sees a descriptor.
///
/// Every method runs on the core's thread, between two `poll(2)` calls, and must not block: it answers through the
/// core (``TCPServerCore/send(_:to:)``, ``TCPServerCore/broadcast(_:where:)``, ``TCPServerCore/close(_:)``,
/// ``TCPServerCore/closeAfterSending(_:deadline:)``), which never waits for a client either.
///
///     final class Echo: TCPServerHandler {
///         func makeSession() {}
///         func connected(_ connection: Connection, on server: Server) {}
///         func refusal(on server: Server) -> [UInt8]? { nil }
///         func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server) {
///             server.send(SharedBytes(bytes, lineEnding: false), to: connection)
///         }
///         func woken(_ server: Server) -> Bool { !stopping.withLock { $0 } }
///     }
package protocol TCPServerHandler: AnyObject {
    /// What the protocol keeps for each client (a gpsd client's watch policy, an HTTP connection's phase).
    associatedtype Session
    typealias Server = TCPServerCore<Self>
    typealias Connection = TCPServerCore<Self>.Connection

    /// A fresh session, for every client accepted (those refused too).
    func makeSession() -> Session

    /// A client was accepted under the limit: greet it (gpsd's VERSION), set its ``TCPServerCore/Connection/deadline``.
    func connected(_ connection: Connection, on server: Server)

    /// What a client over the limit is told before it is closed (gpsd's ERROR, HTTP's 503); `nil` closes it at once
    /// without a word (raw NMEA has no way to say why).
    func refusal(on server: Server) -> [UInt8]?

    /// Bytes an open client sent (a closing client's are dropped before this): keep them in
    /// ``TCPServerCore/Connection/input`` until a request is whole, answer, or close.
    func received(_ bytes: UnsafeRawBufferPointer, from connection: Connection, on server: Server)

    /// Once a round, after `poll(2)` returns (woken by the ``WakeUp`` or not): take what other threads posted and
    /// hand it to the clients. `false` ends ``TCPServerCore/run()``.
    func woken(_ server: Server) -> Bool

    /// An open client's queue was sent whole: what was held back for it (the latest events) may be sent now.
    func drained(_ connection: Connection, on server: Server)

    /// The ``TCPServerCore/Connection/deadline`` of an open client passed (it is cleared): answer, close, or set
    /// another.
    func deadlinePassed(_ connection: Connection, on server: Server)

    /// ``TCPServerCore/nextTick`` passed (it is cleared): periodic work such as heartbeats; set it again for more.
    func tick(_ server: Server)

    /// The end of every round, once closed clients are gone and ``TCPServerCore/statistics`` is up to date: publish
    /// what other threads read.
    func roundEnded(_ server: Server)
}

extension TCPServerHandler {
    package func drained(_ connection: Connection, on server: Server) {}

    /// Closes the client: it let its deadline pass.
    package func deadlinePassed(_ connection: Connection, on server: Server) { server.close(connection) }

    package func tick(_ server: Server) {}

    package func roundEnded(_ server: Server) {}
}

/// What a ``TCPServerCore`` has done with its clients (the protocol counts the rest).
package struct TCPServerStatistics: Sendable, Hashable {
    /// Clients connected now (those being closed included, until they are).
    package var connections = 0
    /// Clients accepted in all.
    package var accepted = 0
    /// Clients refused because ``TCPServerCore/Configuration/maxConnections`` were connected.
    package var refused = 0
    /// Clients closed because their queue passed ``TCPServerCore/Configuration/queueLimit``: they stopped reading.
    package var disconnectedSlow = 0
    /// Clients closed because their queue waited longer than ``TCPServerCore/Configuration/writeTimeout``.
    package var writeTimeouts = 0
    /// Bytes written to clients.
    package var bytesSent = 0
    /// Bytes queued for the connected clients, not yet written.
    package var queuedBytes = 0

    package init() {}
}

/// A count of a server's clients (those watching, those streaming) made again only when it may have changed: when
/// a client came or left (the core's counts moved) or after ``invalidate()`` (a client sent something), rather than
/// at the end of every round.
package struct Recount {
    private var count = 0
    private var key: (connections: Int, accepted: Int)?

    package init() {}

    /// The clients may have changed what they are.
    package mutating func invalidate() { key = nil }

    /// The number of `server`'s clients `include` accepts, counted again only when it may have changed.
    /// - Complexity: O(*n*) in the clients when counted again, O(1) otherwise.
    package mutating func value<Handler: TCPServerHandler>(
        _ server: TCPServerCore<Handler>, _ include: (TCPServerCore<Handler>.Connection) -> Bool
    ) -> Int {
        let now = (server.statistics.connections, server.statistics.accepted)
        if let key, key == now { return count }
        count = server.connections.count(where: include)
        key = now
        return count
    }
}
