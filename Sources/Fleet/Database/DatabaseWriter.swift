import System
import Threading

/// The collector's side of the database: the connection (made again with backoff when it breaks), the rows staged
/// since the last commit, and the commit that must succeed before their messages are acknowledged.
final class DatabaseWriter {
    /// What one ``commit()`` did.
    struct Committed {
        var positions = 0
        var trips = 0
        /// Rows the database already had (redeliveries, or a publisher that sent them again).
        var duplicates = 0
        /// Messages the database refused one by one (each with its reason), skipped.
        var refused: [String] = []
        /// Geofence events the positions made.
        var events: [FenceEvent] = []
        /// The indexes of the staged positions the database refused (with `refused`'s reasons, in order).
        var refusedPositions: [Int] = []
    }

    let target: String
    private var store: PositionStore?
    private var backoff: ReconnectBackoff
    private let sharedStatus = Locked(ConnectionStatus())
    private(set) var positions: [StoredPosition] = []
    private(set) var trips: [StoredTrip] = []

    /// Connects and creates or migrates the schema now.
    /// - Throws: ``DatabaseError`` when either fails: a collector that cannot reach its database at start says
    ///   so and stops, rather than waiting in silence.
    init(target: String, reconnectDelayMinimum: Double, reconnectDelayMaximum: Double) throws(DatabaseError) {
        self.target = target
        backoff = ReconnectBackoff(minimum: reconnectDelayMinimum, maximum: reconnectDelayMaximum)
        try connect()
    }

    /// The connection's state, from any thread.
    var status: ConnectionStatus { sharedStatus.current }

    var isConnected: Bool { store != nil }

    var hasStaged: Bool { !positions.isEmpty || !trips.isEmpty }

    func stage(_ position: StoredPosition) { positions.append(position) }
    func stage(_ trip: StoredTrip) { trips.append(trip) }

    /// Forgets what is staged (its messages were not acknowledged and will come again).
    func discardStaged() {
        positions.removeAll(keepingCapacity: true)
        trips.removeAll(keepingCapacity: true)
    }

    /// Stores what is staged in one transaction. A database that refuses the batch for its content (not for its
    /// connection) gets the messages one by one, and those it refuses are skipped, so one bad row cannot hold up
    /// the rest for ever.
    /// - Returns: what was stored, or `nil` when the connection broke: nothing may be acknowledged then.
    func commit() -> Committed? {
        guard hasStaged else { return Committed() }
        guard let store else { return nil }
        defer { discardStaged() }
        let total = positions.count + trips.count
        do {
            let outcome = try store.write(positions: positions, trips: trips)
            return Committed(
                positions: outcome.positions, trips: outcome.trips,
                duplicates: total - outcome.positions - outcome.trips, events: outcome.events)
        } catch  where error.isConnectionProblem {
            lost(error)
            return nil
        } catch {
            var committed = Committed()
            for (index, position) in positions.enumerated() {
                let refusedBefore = committed.refused.count
                guard add(try store.write(positions: [position], trips: []), &committed) else { return nil }
                if committed.refused.count > refusedBefore { committed.refusedPositions.append(index) }
            }
            for trip in trips {
                guard add(try store.write(positions: [], trips: [trip]), &committed) else { return nil }
            }
            return committed
        }
    }

    /// Adds one row's outcome; `false` when the connection broke.
    private func add(
        _ write: @autoclosure () throws(DatabaseError) -> PositionStore.Outcome,
        _ committed: inout Committed
    ) -> Bool {
        do {
            let outcome = try write()
            committed.positions += outcome.positions
            committed.trips += outcome.trips
            committed.events += outcome.events
            if outcome.positions + outcome.trips == 0 { committed.duplicates += 1 }
        } catch  where error.isConnectionProblem {
            lost(error)
            return false
        } catch {
            committed.refused.append(error.message)
        }
        return true
    }

    /// Connects again when the connection is gone and the backoff allows; `true` when it came back now.
    func reconnectIfDue() -> Bool {
        guard store == nil, backoff.isDue else { return false }
        do {
            try connect()
            return true
        } catch {
            lost(error)
            return false
        }
    }

    private func connect() throws(DatabaseError) {
        let database = try PostgresConnection(target)
        try FleetSchema.migrate(database)
        store = try PositionStore(database)
        backoff.succeeded()
        sharedStatus.withLock {
            $0.state = .connected
            $0.connections += 1
        }
    }

    private func lost(_ error: DatabaseError) {
        store = nil
        discardStaged()
        backoff.failed()
        sharedStatus.withLock {
            $0.state = .disconnected
            $0.lastError = error.message
            $0.failures += 1
        }
    }
}
