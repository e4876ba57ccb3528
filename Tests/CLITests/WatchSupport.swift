import Foundation
import Glibc
import System
import TestSupport

/// A tmux server of the test's own (`tmux -L`), one window of a fixed size running a shell command; the screen is
/// read with `capture-pane`.
final class TmuxWindow {
    let socket = "nmea-watch-\(UUID().uuidString.prefix(8))"
    private(set) var isRunning = false

    static var available: Bool { Tools.available("tmux") }

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
        if !waitUntil(timeout: .seconds(1), pollingEvery: .milliseconds(50), { kill(server, 0) != 0 }) {
            kill(server, SIGKILL)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the tmux client (a ``ChildProcess``: a clean signal mask, so the server it starts takes the SIGTERM of
    /// its own `kill-server`, and no wait on the daemon `new-session -d` leaves behind).
    @discardableResult
    func tmux(_ arguments: [String]) throws -> ToolSupport.Outcome {
        guard let executable = Tools.which("tmux") else { throw Failure("tmux is not installed") }
        return try ToolSupport.run(
            executable, ["-u", "-L", socket] + arguments, environment: ["LC_ALL": "C.UTF-8"], mergingError: true)
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
        waitFor(timeout: .seconds(timeout), pollingEvery: .milliseconds(100)) {
            let screen = capture()
            return condition(screen) ? screen : nil
        }
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
    private let listener: FileDescriptor
    private let lines: [String]
    private let lock = NSLock()
    private var request = ""
    private var client: FileDescriptor?
    private var stopped = false
    private var thread: Thread?

    init(lines: [String]) throws {
        self.lines = lines
        listener = try FileDescriptor.socket(family: AF_INET)
        do {
            try listener.bind(to: .loopback(port: 0))
            try listener.listen(backlog: 4)
            port = Int(try listener.localAddress().numeric?.port ?? 0)
        } catch {
            try? listener.close()
            throw TmuxWindow.Failure("cannot listen: \(error)")
        }
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    /// What the client sent.
    var received: String { lock.withLock { request } }

    private func serve() {
        guard let connection = try? listener.accept() else { return }
        // Kept for stop(), which shuts it down: that ends the reads below. (Already stopping: end now.)
        guard
            lock.withLock({ () -> Bool in
                client = connection
                return !stopped
            })
        else { return }
        var buffer = [UInt8](repeating: 0, count: 1024)
        var text = ""
        while !text.contains("\n") {
            guard let count = buffer.withUnsafeMutableBytes({ try? connection.receive(into: $0) }), count > 0
            else { return }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        lock.withLock { request = text }
        for line in lines { try? connection.sendAll(Array((line + "\n").utf8)) }
        // The connection stays open (whatever else the client sends is read and dropped) until the client closes it
        // or stop() shuts it down.
        while let count = buffer.withUnsafeMutableBytes({ try? connection.receive(into: $0) }), count > 0 {}
    }

    func stop() {
        lock.withLock {
            stopped = true
            try? client?.shutdown(.both)
        }
        try? listener.shutdown(.both)
        try? listener.close()
    }
}
