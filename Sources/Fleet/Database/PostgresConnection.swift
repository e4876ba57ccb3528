import CPostgres
import Glibc

/// One connection to PostgreSQL through libpq, blocking: statements whose values always travel as parameters
/// (`PQexecParams`), never inside the SQL text, and `COPY … FROM STDIN` for bulk rows.
///
///     let database = try PostgresConnection("postgresql://fleet@db.example/fleet")
///     let rows = try database.execute("SELECT time FROM nmea.positions WHERE vehicle = $1", ["acme/van7"])
///
/// The URL (or `key=value` connection string) is libpq's, so everything libpq reads applies: `PGHOST`, `PGUSER`
/// and the other `PG…` variables for what the URL leaves out, and the password from `~/.pgpass` or `$PGPASSFILE`.
/// A password inside the URL is refused (see ``passwordProblem(_:)``): others can read a command line.
/// NOTICE messages (`… already exists, skipping`) are dropped instead of going to standard error.
public final class PostgresConnection {
    /// The URL or connection string as given.
    public let target: String
    private let connection: OpaquePointer

    /// Connects (at most `connectTimeoutSeconds` unless the URL sets `connect_timeout`).
    /// - Throws: ``DatabaseError`` with libpq's message.
    public init(_ target: String, connectTimeoutSeconds: Int = 10) throws(DatabaseError) {
        if let problem = Self.libraryProblem { throw DatabaseError(message: problem, isConnectionProblem: false) }
        self.target = target
        // Later entries win, and the URL (expanded from dbname) comes last, so what it says overrides these.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname"]
        let values = [String(connectTimeoutSeconds), "nmea", target]
        let made = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let made else { throw DatabaseError(message: "out of memory", isConnectionProblem: true) }
        connection = made
        guard PQstatus(connection) == CONNECTION_OK else {
            // Every stored property is set: deinit runs and finishes the connection (once).
            let message = Self.trimmed(PQerrorMessage(connection))
            throw DatabaseError(message: message, isConnectionProblem: true)
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(connection) }

    /// Why libpq cannot be used, or `nil`: the program does not link it, but loads it when first needed, so that
    /// the commands that never use it start without it and the libraries it needs (OpenSSL, Kerberos, LDAP…).
    public static let libraryProblem: String? = {
        var problem: UnsafePointer<CChar>?
        return nmea_libpq_load(&problem) == 0 ? nil : problem.map { String(cString: $0) }
    }()

    /// Why `target` must not be used, or `nil`: a password in it, or text libpq cannot read. `nil` too when libpq
    /// cannot be loaded (``libraryProblem``), which then cannot read it either.
    public static func passwordProblem(_ target: String) -> String? {
        guard libraryProblem == nil else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(target, &error) else {
            defer { if let error { PQfreemem(error) } }
            return error.map { trimmed($0) } ?? "cannot read the database URL"
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val, value.pointee != 0 {
                return "the database URL holds a password, which other users can read on the command line: "
                    + "put it in ~/.pgpass or the file $PGPASSFILE names"
            }
            option += 1
        }
        return nil
    }

    /// `true` while the connection is usable.
    public var isConnected: Bool { PQstatus(connection) == CONNECTION_OK }

    /// The server's version number (`150018` for 15.18).
    public var serverVersion: Int { Int(PQserverVersion(connection)) }

    /// Runs one statement with `parameters` as `$1`, `$2`, … (`nil` is SQL NULL), in text form.
    /// - Throws: ``DatabaseError`` with the server's message and SQLSTATE.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(DatabaseError) -> PostgresResult {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(connection, sql)
        } else {
            result = withOptionalCStrings(parameters) { values in
                PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        }
        return try check(result)
    }

    /// Runs `COPY … FROM STDIN` (`sql`) with `data` in the format it names; returns the rows copied.
    /// - Throws: ``DatabaseError``; the transaction it ran in is then aborted.
    @discardableResult
    public func copy(_ sql: String, data: [UInt8]) throws(DatabaseError) -> Int {
        let start = PQexec(connection, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            _ = try check(start)
            throw DatabaseError(message: "'\(sql)' did not start a COPY", isConnectionProblem: false)
        }
        PQclear(start)
        var failed = false
        let chunk = 1 << 20
        data.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count && !failed {
                let count = min(chunk, bytes.count - offset)
                let pointer = UnsafeRawPointer(bytes.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                failed = PQputCopyData(connection, pointer, Int32(count)) != 1
                offset += count
            }
        }
        if PQputCopyEnd(connection, nil) != 1 { failed = true }
        var rows = 0
        var firstError: DatabaseError?
        while let result = PQgetResult(connection) {
            do throws(DatabaseError) {
                rows = try check(result).affectedRows
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        if failed { throw lostError() }
        return rows
    }

    /// Runs `body` in a transaction: `COMMIT` when it returns, `ROLLBACK` when it throws.
    public func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    private func check(_ result: OpaquePointer?) throws(DatabaseError) -> PostgresResult {
        guard let result else { throw lostError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
            return PostgresResult(result)
        default:
            let message = Self.trimmed(PQresultErrorMessage(result))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            throw DatabaseError(
                message: message.isEmpty ? Self.trimmed(PQerrorMessage(connection)) : message,
                sqlState: state, isConnectionProblem: !isConnected || DatabaseError.isConnection(state))
        }
    }

    private func lostError() -> DatabaseError {
        let message = Self.trimmed(PQerrorMessage(connection))
        return DatabaseError(
            message: message.isEmpty ? "the connection to the database was lost" : message,
            isConnectionProblem: true)
    }

    /// libpq's message without the `ERROR:  ` prefix and trailing line breaks, on one line.
    static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        var message = String(cString: text)
        for prefix in ["ERROR:  ", "FATAL:  "] where message.hasPrefix(prefix) {
            message.removeFirst(prefix.count)
        }
        let lines = message.split(separator: "\n").map { $0.drop { $0 == " " || $0 == "\t" } }
        return lines.joined(separator: "; ")
    }
}

/// What a statement returned: rows of text values (`nil` for NULL) and the count of rows it changed.
public final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    public var rowCount: Int { Int(PQntuples(result)) }
    public var columnCount: Int { Int(PQnfields(result)) }

    /// Rows an INSERT, UPDATE, DELETE or COPY touched (`PQcmdTuples`); 0 for other statements.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The value at `row`, `column` as text, `nil` when NULL.
    public subscript(row: Int, column: Int) -> String? {
        guard PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// The value at `row`, `column` as a number, `nil` when NULL or not a number.
    public func double(_ row: Int, _ column: Int) -> Double? { self[row, column].flatMap(Double.init) }
}

/// A database operation failed: the server's or libpq's message, and whether the connection is the problem.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// The SQLSTATE code (`23505`, `40P01`), when the server sent one.
    public var sqlState: String?
    /// The server is unreachable or the connection broke: try again later with a new connection.
    public var isConnectionProblem: Bool

    public init(message: String, sqlState: String? = nil, isConnectionProblem: Bool) {
        self.message = message
        self.sqlState = sqlState
        self.isConnectionProblem = isConnectionProblem
    }

    public var description: String { message }

    /// A deadlock or serialization failure: the same transaction may simply be run again.
    public var isRetryable: Bool { sqlState == "40P01" || sqlState == "40001" }

    /// Class 08 (connection exception) and the shutdown codes 57P01–57P03.
    static func isConnection(_ state: String?) -> Bool {
        guard let state else { return false }
        return state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
    }
}

/// Calls `body` with `strings` as a C array of C strings, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// As ``withCStrings(_:_:)``, with `nil` entries passed as null pointers (SQL NULL).
private func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { $0.map { UnsafePointer(strdup($0)) } ?? nil }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
