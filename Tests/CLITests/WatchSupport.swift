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

    func stop() {
        guard isRunning else { return }
        isRunning = false
        _ = try? tmux(["kill-server"])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the tmux client. Not through Foundation's `Process`: its wait never returns when the child leaves a
    /// daemon behind (`new-session -d` starts the tmux server, which inherits the descriptor `Process` watches).
    @discardableResult
    func tmux(_ arguments: [String]) throws -> ToolSupport.Outcome {
        guard let executable = ToolSupport.which("tmux") else { throw Failure("tmux is not installed") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let argv = [executable, "-u", "-L", socket] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw Failure("cannot start tmux: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let text = (try? Data(contentsOf: output)) ?? Data()
        return ToolSupport.Outcome(status: exitStatus, output: text, error: String(decoding: text, as: UTF8.self))
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

/// A child process whose output is collected in files while it runs, for commands that do not end by themselves.
final class RunningTool {
    let process = Process()
    let outputURL: URL
    let errorURL: URL

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let scratch = FileManager.default.temporaryDirectory
        outputURL = scratch.appendingPathComponent("running-out-\(UUID().uuidString)")
        errorURL = scratch.appendingPathComponent("running-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
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

    /// Sends `signal` and waits for the exit status (-1 when it does not end within 10 s).
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        guard waitUntil(timeout: 10, { !process.isRunning }) else {
            process.terminate()
            return -1
        }
        return process.terminationStatus
    }
}
