import Fleet
import Glibc
import System
import TestSupport
import Testing

/// A PostgreSQL server with PostGIS for one test: a role `fleet` that logs in over TCP with a password kept in a
/// `.pgpass` file (mode 0600, as libpq requires), and a database `fleet` it owns.
final class FleetDatabase {
    static let isAvailable = PostgresServer.isInstalled
    static let reason: Comment = "needs PostgreSQL 15 and PostGIS 3 (postgresql, postgresql-15-postgis-3)"

    let server: PostgresServer
    let password = "pg-Pa55-\(UInt32.random(in: 0...UInt32.max))"
    let files = TemporaryDirectory("fleetdb")
    /// A libpq password file for the role.
    let passwordFile: String

    init() throws {
        server = try PostgresServer()
        try server.start()
        try server.createRole("fleet", password: password)
        try server.createDatabase("fleet", owner: "fleet")
        passwordFile = files.file("pgpass")
        files.write("127.0.0.1:\(server.port):fleet:fleet:\(password)\n", to: "pgpass")
        chmod(passwordFile, 0o600)
    }

    /// The URL the collector and `nmea fleet` are given: TCP, user `fleet`, no password.
    var url: String { server.url(user: "fleet", database: "fleet") }

    /// The environment a child needs to log in: the password file.
    var environment: [String: String] { ["PGPASSFILE": passwordFile] }

    /// A connection from this process as `fleet`, which then owns what it creates, as a collector would.
    func connect() throws -> PostgresConnection {
        try PostgresConnection("host=127.0.0.1 port=\(server.port) user=fleet dbname=fleet password=\(password)")
    }

    /// `psql` rows in the fleet database.
    func query(_ sql: String) throws -> [String] { try server.query(sql, database: "fleet") }
}

extension FileDescriptor {
    /// Writes `text` whole; a test that fails to write sees it in what follows.
    func writeAllIgnoringErrors(_ text: String) {
        try? writeAll(Array(text.utf8))
    }
}
