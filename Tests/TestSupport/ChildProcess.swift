import CShims
import Glibc
import System

/// A child process for tests and benchmarks, started with `posix_spawn(3)` with an **empty signal mask and default
/// signal actions**.
///
/// The test runner's threads block most signals (SIGTERM, SIGINT…), and a spawned child inherits the mask: a
/// broker, socat or tmux would then never take the SIGTERM it is sent, and `nmea record` would not see the SIGINT
/// it waits for. Foundation's `Process` keeps the mask; this does not.
///
///     let outcome = try ChildProcess.run([BuiltExecutables.nmea, "parse", "-"], input: .bytes(Array(log.utf8)))
///     #expect(outcome.status == 0)
///
///     let serve = try ChildProcess([BuiltExecutables.nmea, "serve", path], newProcessGroup: true)
///     defer { serve.stop() }
///     #expect(waitUntil(timeout: .seconds(10)) { serve.error.contains("listening on") })
///
/// Standard output and standard error go to files of its own (read them any time with ``output`` and ``error``)
/// unless told otherwise; they are removed when the value goes away, and a child still running then is killed
/// (its whole process group when it has one).
public final class ChildProcess: @unchecked Sendable {
    /// Where standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A file.
        case file(String)
        /// These bytes (written to a file first, so the child never waits on the test).
        case bytes([UInt8])
        /// A pipe the test writes to through ``inputPipe`` and closes when done.
        case pipe
    }

    /// Where standard output or standard error goes.
    public enum Output: Sendable {
        /// A file of the process's own, read with ``output``/``error``.
        case captured
        /// A file (appended to; created when missing).
        case file(String)
        /// `/dev/null`.
        case null
        /// A pipe the test reads from through ``outputPipe`` (standard output only).
        case pipe
        /// The same place as standard output (standard error only).
        case standardOutput
    }

    /// A child that could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// How a finished child ended and what it wrote.
    public struct Outcome: Sendable {
        /// The exit status; 128 + the signal's number when a signal ended it.
        public var status: Int32
        /// Standard output, as bytes.
        public var outputBytes: [UInt8]
        /// Standard error.
        public var error: String
        /// Standard output as text (decoded leniently: it may hold binary frames).
        public var output: String { String(decoding: outputBytes, as: UTF8.self) }
        /// Standard output's lines.
        public var outputLines: [String] { output.split(separator: "\n").map(String.init) }
    }

    public let pid: pid_t
    /// Whether the child leads a process group of its own (``stop(_:timeout:)`` and `deinit` kill the group).
    public let hasProcessGroup: Bool
    /// The files standard output and standard error go to (`nil` for `/dev/null` and pipes).
    public let outputPath: String?
    public let errorPath: String?
    /// The write end of standard input for ``Input/pipe``.
    public private(set) var inputPipe: FileDescriptor?
    /// The read end of standard output for ``Output/pipe``.
    public let outputPipe: FileDescriptor?
    private let scratch: TemporaryDirectory
    private var status: Int32?

    /// Starts `arguments` (the first is a path, or a name looked up with ``Tools/which(_:)``).
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - unsetting: variables removed from it.
    ///   - directory: the working directory (this process's when `nil`).
    ///   - newProcessGroup: the child leads a group of its own, so whatever it starts is stopped with it.
    public init(
        _ arguments: [String], input: Input = .null, output: Output = .captured, error: Output = .captured,
        environment: [String: String] = [:], unsetting: [String] = [], directory: String? = nil,
        newProcessGroup: Bool = false
    ) throws(SpawnError) {
        precondition(!arguments.isEmpty, "a child needs a program")
        let program = arguments[0].contains("/") ? arguments[0] : Tools.which(arguments[0]) ?? arguments[0]
        scratch = TemporaryDirectory("child")
        hasProcessGroup = newProcessGroup

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var closeInParent: [FileDescriptor] = []
        defer { for descriptor in closeInParent { try? descriptor.close() } }

        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .bytes(let bytes):
            let path = scratch.file("stdin")
            scratch.write(bytes, to: "stdin")
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .pipe:
            let (read, write) = try Self.makePipe()
            posix_spawn_file_actions_adddup2(&actions, read.rawValue, 0)
            posix_spawn_file_actions_addclose(&actions, write.rawValue)
            closeInParent.append(read)
            inputPipe = write
        }

        let scratch = self.scratch
        let out = try Self.redirect(output, to: 1, file: scratch.file("stdout"), &actions, &closeInParent)
        let err = try Self.redirect(error, to: 2, file: scratch.file("stderr"), &actions, &closeInParent)
        outputPath = out.path
        outputPipe = out.pipe
        if case .standardOutput = error { errorPath = nil } else { errorPath = err.path }
        if let directory { nmea_spawn_file_actions_addchdir(&actions, directory) }

        // The clean start: nothing blocked, every catchable signal at its default action.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var variables = Environment.current
        for name in unsetting { variables[name] = nil }
        variables.merge(environment) { $1 }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        // A program a test has just copied is "busy" while any process forked meanwhile (by a test running beside
        // it) still holds the copy's descriptor, until that process execs: a moment, so try again for up to 2 s.
        var result = posix_spawn(&child, program, &actions, &attributes, argv, envp)
        if result == ETXTBSY {
            waitUntil(timeout: .seconds(2), pollingEvery: .milliseconds(20)) {
                result = posix_spawn(&child, program, &actions, &attributes, argv, envp)
                return result != ETXTBSY
            }
        }
        guard result == 0 else {
            try? inputPipe?.close()
            try? outputPipe?.close()
            throw SpawnError(description: "cannot start \(arguments[0]): \(Errno(rawValue: result))")
        }
        pid = child
    }

    deinit {
        if isRunning { kill(hasProcessGroup ? -pid : pid, SIGKILL) }
        if hasProcessGroup { kill(-pid, SIGKILL) }  // whatever it left behind (gpsfake's gpsd)
        _ = reap(timeout: .seconds(5))
        try? inputPipe?.close()
        try? outputPipe?.close()
        scratch.remove()
    }

    /// Runs `arguments` to the end (at most `timeout`, then SIGKILL) and returns how it ended and what it wrote;
    /// with `mergingError`, standard error goes where standard output goes (and ``Outcome/error`` is empty).
    public static func run(
        _ arguments: [String], input: Input = .null, environment: [String: String] = [:], unsetting: [String] = [],
        directory: String? = nil, mergingError: Bool = false, timeout: Duration = .seconds(120)
    ) throws(SpawnError) -> Outcome {
        let child = try ChildProcess(
            arguments, input: input, error: mergingError ? .standardOutput : .captured, environment: environment,
            unsetting: unsetting, directory: directory)
        let status = child.wait(timeout: timeout)
        return Outcome(status: status, outputBytes: child.outputBytes, error: child.error)
    }

    // MARK: Its state

    /// `true` until the child has ended (and been reaped).
    public var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = Self.exitStatus(raw) }
        return status == nil
    }

    /// The exit status once it ended (128 + the signal's number for a signal), `nil` while it runs.
    public var exitStatus: Int32? {
        _ = isRunning
        return status
    }

    /// Standard output so far (``Output/captured`` or ``Output/file(_:)``).
    public var outputBytes: [UInt8] { outputPath.flatMap(readFile) ?? [] }
    /// Standard output so far, as text.
    public var output: String { String(decoding: outputBytes, as: UTF8.self) }
    /// Standard output's lines so far.
    public var outputLines: [String] { output.split(separator: "\n").map(String.init) }
    /// Standard error so far.
    public var error: String { String(decoding: errorPath.flatMap(readFile) ?? [], as: UTF8.self) }

    // MARK: Ending it

    /// Sends `signal` to the child (not its group), if it still runs.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Closes the write end of ``Input/pipe`` (the child reads end of file).
    public func closeInput() {
        try? inputPipe?.close()
        inputPipe = nil
    }

    /// Waits for the child to end by itself, at most `timeout`; then SIGKILL (to the group when it has one).
    /// - Returns: the exit status (137 after the SIGKILL).
    @discardableResult
    public func wait(timeout: Duration = .seconds(30)) -> Int32 {
        if let status = reap(timeout: timeout) { return status }
        kill(hasProcessGroup ? -pid : pid, SIGKILL)
        return reap(timeout: .seconds(10)) ?? -1
    }

    /// Waits at most `timeout` for the child to end; `true` when it has.
    public func waitForExit(timeout: Duration) -> Bool { reap(timeout: timeout) != nil }

    /// Sends `signal` and waits at most `timeout` for the child to end; after that SIGKILL to it (and its group).
    /// - Returns: the exit status; -1 when `signal` did not end it in time.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(15)) -> Int32 {
        guard isRunning else { return status ?? -1 }
        kill(pid, signal)
        if let status = reap(timeout: timeout) {
            if hasProcessGroup { kill(-pid, SIGKILL) }
            return status
        }
        kill(hasProcessGroup ? -pid : pid, SIGKILL)
        _ = reap(timeout: .seconds(5))
        return -1
    }

    /// Reaps the child if it ends within `timeout`.
    private func reap(timeout: Duration) -> Int32? {
        waitUntil(timeout: timeout, pollingEvery: .milliseconds(5)) { !isRunning } ? status : nil
    }

    /// The exit status from `waitpid`'s: the code, or 128 + the signal.
    static func exitStatus(_ raw: Int32) -> Int32 {
        (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }

    /// Adds the file action that sends `descriptor` (1 or 2) to `target`; `file` is where ``Output/captured`` goes.
    private static func redirect(
        _ target: Output, to descriptor: Int32, file: String, _ actions: inout posix_spawn_file_actions_t,
        _ closeInParent: inout [FileDescriptor]
    ) throws(SpawnError) -> (path: String?, pipe: FileDescriptor?) {
        let flags = O_WRONLY | O_CREAT | O_APPEND
        switch target {
        case .captured:
            posix_spawn_file_actions_addopen(&actions, descriptor, file, flags | O_TRUNC, 0o644)
            return (file, nil)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o644)
            return (path, nil)
        case .null:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            return (nil, nil)
        case .pipe:
            precondition(descriptor == 1, "only standard output can be a pipe")
            let (read, write) = try makePipe()
            posix_spawn_file_actions_adddup2(&actions, write.rawValue, 1)
            posix_spawn_file_actions_addclose(&actions, read.rawValue)
            closeInParent.append(write)
            return (nil, read)
        case .standardOutput:
            precondition(descriptor == 2, "standard output cannot go to itself")
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            return (nil, nil)
        }
    }

    private static func makePipe() throws(SpawnError) -> (read: FileDescriptor, write: FileDescriptor) {
        do {
            let (readEnd, writeEnd) = try FileDescriptor.pipe()
            return (readEnd, writeEnd)
        } catch {
            throw SpawnError(description: "pipe: \(error)")
        }
    }
}

/// This process's environment variables.
public enum Environment {
    /// Every variable, from `environ`.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        return variables
    }

    /// One variable; `nil` when unset or empty.
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

/// The whole of a file, or `nil` when it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { try? descriptor.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while let count = chunk.withUnsafeMutableBytes({ try? descriptor.read(into: $0) }), count > 0 {
        bytes += chunk[..<count]
    }
    return bytes
}

/// What `NMEA_PIECE_REPORT` made `nmea` say on standard error (`error`): how many pieces its file was read in, and
/// how many of them were done again in order; `nil` when it says nothing of the kind (the file was not read in
/// pieces).
public func pieceReport(_ error: String) -> (pieces: Int, again: Int)? {
    guard let line = error.split(separator: "\n").first(where: { $0.contains(" pieces, ") }) else { return nil }
    let numbers = line.split(separator: " ").compactMap { Int($0) }
    return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
}

/// Copies the program at `source` to `destination` (read, write and execute for its owner) through a close-on-exec
/// descriptor. `FileManager.copyItem` writes through one that is not: a child another test starts meanwhile inherits
/// it, and the copy cannot be run ("text file busy") for as long as that child lives.
public func copyProgram(_ source: String, to destination: String) throws {
    guard let bytes = readFile(source) else { throw Errno.noSuchFileOrDirectory }
    let descriptor = try FileDescriptor.open(
        destination, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: .ownerReadWriteExecute)
    defer { try? descriptor.close() }
    try descriptor.writeAll(bytes)
}

/// A file's text, or "" when it cannot be read.
public func readTextFile(_ path: String) -> String {
    String(decoding: readFile(path) ?? [], as: UTF8.self)
}
