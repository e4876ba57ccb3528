import Foundation
import Glibc

/// A tmux server of the test's own (`tmux -L`), one window of a fixed size running a shell command; the screen is
/// read with `capture-pane`.
final class TmuxWindow {
    let socket = "nmea-watch-\(UUID().uuidString.prefix(8))"
    private(set) var isRunning = false

    static var available: Bool { ToolSupport.which("tmux") != nil }

    /// Starts `command` (run by the shell) in a detached `columns` × `rows` window, the status line off.
    init(columns: Int, rows: Int, command: String) throws {
        let started = try tmux([
            "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "w",
            command,
        ])
        guard started.status == 0 else { throw Failure("tmux new-session failed: \(started.error)") }
        isRunning = true
        try tmux(["set-option", "-t", "w", "status", "off"])
    }

    deinit { stop() }

    /// Ends the tmux server (and with it the window's processes); SIGKILL if it has not gone within a second.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        let server = Int32(display("#{pid}")) ?? 0
        _ = try? tmux(["kill-server"])
        guard server > 0 else { return }
        for _ in 0..<20 where kill(server, 0) == 0 { usleep(50_000) }
        if kill(server, 0) == 0 { kill(server, SIGKILL) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the tmux client (see ``spawnProcess(_:environment:output:error:newGroup:)`` for why not `Process`).
    @discardableResult
    func tmux(_ arguments: [String]) throws -> ToolSupport.Outcome {
        guard let executable = ToolSupport.which("tmux") else { throw Failure("tmux is not installed") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let pid = try spawnProcess(
            [executable, "-u", "-L", socket] + arguments, environment: ["LC_ALL": "C.UTF-8"], output: output.path,
            error: output.path)
        let status = waitForExit(pid)
        let text = (try? Data(contentsOf: output)) ?? Data()
        return ToolSupport.Outcome(status: status, output: text, error: String(decoding: text, as: UTF8.self))
    }

    /// The screen, row by row, every cell (`capture-pane -N` keeps the spaces written at the ends of lines).
    func capture() -> [String] {
        guard let outcome = try? tmux(["capture-pane", "-p", "-N", "-t", "w"]), outcome.status == 0 else { return [] }
        var lines = outcome.text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A format of the pane (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`).
    func display(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "w", format]))?.text ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func sendKeys(_ keys: String...) {
        _ = try? tmux(["send-keys", "-t", "w"] + keys)
    }

    func resize(columns: Int, rows: Int) {
        _ = try? tmux(["resize-window", "-t", "w", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Captures until `condition` holds (then returns that screen) or `timeout` passes (then `nil`).
    func waitForScreen(timeout: Double = 15, _ condition: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let screen = capture()
            if condition(screen) { return screen }
            usleep(100_000)
        }
        return nil
    }

    /// The pid of the pane's shell's first child (the command it runs in the foreground).
    func foregroundChild() -> Int32? {
        let shell = display("#{pane_pid}")
        guard let text = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }
}

/// Single quotes for `sh`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// A gpsd stand-in on 127.0.0.1: accepts one client, checks it asked for JSON reports, sends `lines`, then keeps the
/// connection open until ``stop()``.
final class FakeGpsd: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lines: [String]
    private let lock = NSLock()
    private var request = ""
    private var client: Int32 = -1
    private var stopped = false
    private var thread: Thread?

    init(lines: [String]) throws {
        self.lines = lines
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            port = 0
            throw TmuxWindow.Failure("cannot listen: \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    /// What the client sent.
    var received: String { lock.withLock { request } }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        lock.withLock { client = connection }
        var buffer = [UInt8](repeating: 0, count: 1024)
        var text = ""
        while !text.contains("\n") {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        lock.withLock { request = text }
        for line in lines {
            let bytes = Array((line + "\n").utf8)
            _ = send(connection, bytes, bytes.count, Int32(MSG_NOSIGNAL))
        }
        while !lock.withLock({ stopped }) { usleep(50_000) }
    }

    func stop() {
        lock.withLock {
            stopped = true
            if client >= 0 { shutdown(client, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// Starts `argv` with standard input from /dev/null and standard output and error to files, with a clean signal
/// mask and default signal actions, in a process group of its own when `newGroup`.
///
/// Not through Foundation's `Process`: test threads block most signals and a spawned child inherits that mask, so
/// a tmux server would never take the SIGTERM its `kill-server` sends itself, nor gpsfake a SIGTERM from the test;
/// and `Process`'s wait never returns when the child leaves a daemon behind (`tmux new-session -d`).
func spawnProcess(
    _ argv: [String], environment: [String: String] = [:], output: String, error: String,
    newGroup: Bool = false
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    if error == output {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newGroup {
        flags |= Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
    var cArguments = argv.map { strdup($0) } + [nil]
    var cEnvironment = variables.map { strdup($0) } + [nil]
    defer {
        for pointer in cArguments { free(pointer) }
        for pointer in cEnvironment { free(pointer) }
    }
    var pid = pid_t()
    let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArguments, &cEnvironment)
    guard spawned == 0 else {
        throw TmuxWindow.Failure("cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
    }
    return pid
}

/// Waits for `pid` and returns its exit status (128 + the signal when a signal ended it).
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return exitStatus(status)
}

func exitStatus(_ status: Int32) -> Int32 {
    (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}

/// A child process whose output is collected in files while it runs, for commands that do not end by themselves.
/// It runs in a process group of its own; whatever of the group is left when the value goes away is killed.
final class RunningTool {
    let pid: pid_t
    let outputURL: URL
    let errorURL: URL
    private var status: Int32?

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let scratch = FileManager.default.temporaryDirectory
        outputURL = scratch.appendingPathComponent("running-out-\(UUID().uuidString)")
        errorURL = scratch.appendingPathComponent("running-err-\(UUID().uuidString)")
        pid = try spawnProcess(
            [executable] + arguments, environment: environment, output: outputURL.path, error: errorURL.path,
            newGroup: true)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
        }
        kill(-pid, SIGKILL)  // children it left behind (gpsfake's gpsd)
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = exitStatus(raw) }
        return status == nil
    }

    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    var error: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }
    var outputLines: [String] { output.split(separator: "\n").map(String.init) }

    /// Waits until `condition` holds or `timeout` passes; returns whether it held.
    func waitUntil(timeout: Double = 15, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// Sends `signal` and waits for the exit status; -1 (after SIGKILL to the group) when it does not end in 10 s.
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        guard isRunning else { return status ?? -1 }
        kill(pid, signal)
        if waitUntil(timeout: 10, { !isRunning }) { return status ?? -1 }
        kill(-pid, SIGKILL)
        _ = waitUntil(timeout: 5) { !isRunning }
        return -1
    }
}
