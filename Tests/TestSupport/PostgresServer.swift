import Glibc
import System
import Threading

/// A PostgreSQL server of the test's (or benchmark's) own: a fresh cluster (`initdb`) in a temporary directory,
/// listening on a free loopback port and on a Unix socket in that directory, run by an unprivileged user (the
/// `postgres` account when the tests run as root), stopped when the value goes away or the process exits.
///
///     let server = try PostgresServer()
///     try server.start()
///     try server.createRole("fleet", password: "s3cret")
///     try server.createDatabase("fleet", owner: "fleet")          // with PostGIS
///     … server.url(user: "fleet", database: "fleet") …            // postgresql://fleet@127.0.0.1:PORT/fleet
///     server.restart()                                            // an immediate stop (as a crash), then a start
///
/// Local connections (the socket, as the superuser `postgres`) need no password; TCP connections need the role's
/// password (SCRAM), so a client's `~/.pgpass` or `$PGPASSFILE` is what lets it in. `fsync` is off: committed
/// transactions survive a server crash, not a power cut, which is all a test needs.
public final class PostgresServer {
    /// A server that cannot be set up or started, with what the tool said.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Debian's PostgreSQL 15 programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"
    /// `true` when PostgreSQL 15, PostGIS 3 and `psql` are installed.
    public static let isInstalled: Bool = {
        ["initdb", "pg_ctl", "postgres"].allSatisfy { access("\(binaries)/\($0)", X_OK) == 0 }
            && access("/usr/share/postgresql/15/extension/postgis.control", R_OK) == 0 && Tools.which("psql") != nil
    }()

    public let port: Int
    public let directory: TemporaryDirectory
    /// Where the Unix socket is (`host=` for libpq).
    public var socketDirectory: String { directory.path }
    public var dataDirectory: String { directory.file("data") }
    /// The server's log.
    public var logFile: String { directory.file("postgres.log") }
    private var pid: pid_t?

    /// Makes the cluster (`initdb`) and writes its settings; ``start()`` starts it.
    public init(port: Int = Ports.freeTCP()) throws {
        guard Self.isInstalled else {
            throw Failure(description: "PostgreSQL 15 with PostGIS is not installed (postgresql-15-postgis-3)")
        }
        self.port = port
        directory = TemporaryDirectory("postgres")
        if Tools.isRoot {
            guard let account = getpwnam("postgres") else { throw Failure(description: "no 'postgres' user") }
            guard chown(directory.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw Failure(description: "chown \(directory.path): \(Errno.current)")
            }
        }
        let made = try run([
            "\(Self.binaries)/initdb", "-D", dataDirectory, "-U", "postgres", "--auth-local=trust",
            "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync",
        ])
        guard made.status == 0 else { throw Failure(description: "initdb failed: \(made.output)\(made.error)") }
        let settings = [
            "port = \(port)", "listen_addresses = '127.0.0.1'", "unix_socket_directories = '\(socketDirectory)'",
            "fsync = off", "full_page_writes = off", "max_connections = 50", "log_min_messages = warning",
        ]
        let configuration = dataDirectory + "/postgresql.conf"
        let existing = readTextFile(configuration)
        let file = try FileDescriptor.open(configuration, .writeOnly, options: [.truncate, .closeOnExec])
        defer { try? file.close() }
        try file.writeAll(Array((existing + "\n" + settings.joined(separator: "\n") + "\n").utf8))
    }

    deinit {
        stop(immediately: true)
        directory.remove()
    }

    /// Starts the server (`pg_ctl start`) and waits until it accepts connections (30 s at most).
    public func start() throws {
        let started = try run([
            "\(Self.binaries)/pg_ctl", "-D", dataDirectory, "-l", logFile, "-w", "-t", "30", "start",
        ])
        guard started.status == 0 else {
            throw Failure(
                description: "pg_ctl start failed: \(started.output)\(started.error)\n"
                    + readTextFile(logFile))
        }
        let pidLine = readTextFile(dataDirectory + "/postmaster.pid").split(separator: "\n").first
        pid = pidLine.flatMap { pid_t($0) }
        if let pid { _ = Self.running.withLock { $0.insert(pid) } }
        Self.registerExitHandler()
    }

    /// Stops the server: `pg_ctl stop -m fast`, or `-m immediate` (as a crash: no checkpoint, recovery at the
    /// next start); waits until it is gone.
    public func stop(immediately: Bool = false) {
        guard let pid else { return }
        _ = try? run([
            "\(Self.binaries)/pg_ctl", "-D", dataDirectory, "-m", immediately ? "immediate" : "fast", "-w", "-t", "30",
            "stop",
        ])
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        _ = waitUntil(timeout: .seconds(10)) { kill(pid, 0) != 0 }
        Self.running.withLock { _ = $0.remove(pid) }
        self.pid = nil
    }

    /// An immediate stop, then a start: what a crashed and restarted server looks like to its clients.
    public func restart() throws {
        stop(immediately: true)
        try start()
    }

    /// `true` while the server runs.
    public var isRunning: Bool { pid.map { kill($0, 0) == 0 } ?? false }

    // MARK: Using it

    /// `postgresql://USER@127.0.0.1:PORT/DATABASE` (TCP: the role's password is needed).
    public func url(user: String, database: String) -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs `sql` with `psql` as the superuser over the socket, unaligned and without headers (`-A -t`), stopping
    /// at the first error.
    /// - Returns: the outcome; ``ChildProcess/Outcome/status`` is 0 when every statement succeeded.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            [
                Tools.which("psql") ?? "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory,
                "-p", String(port), "-U", "postgres", "-d", database, "-c", sql,
            ], unsetting: ["PGPASSFILE", "PGPASSWORD", "PGHOST", "PGUSER", "PGDATABASE"], timeout: .seconds(120))
    }

    /// The rows `sql` returns, each as its `|`-separated line.
    public func query(_ sql: String, database: String) throws -> [String] {
        let outcome = try psql(sql, database: database)
        guard outcome.status == 0 else { throw Failure(description: "psql: \(outcome.error)") }
        return outcome.outputLines
    }

    /// Creates a role that may log in with `password` (given here as a psql variable, never in the SQL text).
    public func createRole(_ name: String, password: String) throws {
        let outcome = try ChildProcess.run(
            [
                Tools.which("psql") ?? "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p",
                String(port), "-U", "postgres", "-d", "postgres", "-v", "name=\(name)", "-v", "password=\(password)",
            ], input: .bytes(Array("CREATE ROLE :\"name\" LOGIN PASSWORD :'password';\n".utf8)),
            unsetting: ["PGPASSFILE", "PGPASSWORD"], timeout: .seconds(60))
        guard outcome.status == 0 else { throw Failure(description: "CREATE ROLE: \(outcome.error)") }
    }

    /// Creates a database owned by `owner`, with PostGIS installed in it unless `postGIS` is false.
    public func createDatabase(_ name: String, owner: String, postGIS: Bool = true) throws {
        var outcome = try psql("CREATE DATABASE \"\(name)\" OWNER \"\(owner)\"")
        guard outcome.status == 0 else { throw Failure(description: "CREATE DATABASE: \(outcome.error)") }
        if postGIS {
            outcome = try psql("CREATE EXTENSION postgis", database: name)
            guard outcome.status == 0 else { throw Failure(description: "CREATE EXTENSION postgis: \(outcome.error)") }
        }
    }

    /// Runs a server program as the server's user (`postgres` via `setpriv` when root), in its directory.
    private func run(_ arguments: [String]) throws -> ChildProcess.Outcome {
        var command = arguments
        if Tools.isRoot {
            command =
                [
                    Tools.which("setpriv") ?? "/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres",
                    "--init-groups", "--",
                ] + arguments
        }
        return try ChildProcess.run(
            command, environment: ["LC_ALL": "C"], directory: directory.path,
            timeout: .seconds(60))
    }

    // MARK: At exit

    private static let running = Locked<Set<pid_t>>([])
    private static let exitHandler = Locked(false)

    /// Servers still running when the process exits get SIGQUIT (an immediate shutdown).
    private static func registerExitHandler() {
        exitHandler.withLock { registered in
            guard !registered else { return }
            registered = true
            atexit {
                for pid in PostgresServer.running.withLock({ $0 }) { kill(pid, SIGQUIT) }
            }
        }
    }
}
