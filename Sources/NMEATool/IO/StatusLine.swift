import Glibc
import System
import Threading

/// What a long-running command writes on standard error: lines (connection changes, errors), and on a terminal one
/// status line below them, rewritten in place.
///
/// The status line is cut to the terminal's width (`TIOCGWINSZ`, read again after SIGWINCH), one column short of
/// it, so it never wraps and never scrolls; lines printed meanwhile go above it, and it is drawn again under them.
/// Without a terminal there is no status line, only the lines. Every thread's messages go through here, under one
/// lock, so they never tear each other or the status line.
final class StatusLine: Sendable {
    /// `true` when standard error is a terminal: only then is there a status line.
    let isEnabled: Bool
    private let prefix: String
    private let state = Locked(State())

    private struct State {
        var shown: String?
        var columns: Int?
        var printed: Set<String> = []
    }

    /// Lines are printed with `prefix` (`nmea record: `).
    init(prefix: String, enabled: Bool = FileDescriptor.standardError.isTerminal) {
        self.prefix = prefix
        isEnabled = enabled
    }

    /// Prints `message` as a line of its own (above the status line, which is drawn again below it).
    func print(_ message: String) {
        state.withLock { state in
            var text = (state.shown != nil ? "\r\u{1B}[K" : "") + prefix + message + "\n"
            if let shown = state.shown { text += shown }
            write(text)
        }
    }

    /// Prints `message` unless it was printed once already (a warning several threads may have).
    func printOnce(_ message: String) {
        guard state.withLock({ $0.printed.insert(message).inserted }) else { return }
        print(message)
    }

    /// Shows `text` as the status line, cut to the terminal's width; nothing without a terminal.
    func show(_ text: String) {
        guard isEnabled else { return }
        state.withLock { state in
            if state.columns == nil || StopSignal.take(SIGWINCH) {
                state.columns = (try? FileDescriptor.standardError.windowSize())?.columns
            }
            let line = StatusLine.cut(text, columns: state.columns ?? 80)
            guard line != state.shown else { return }
            state.shown = line
            write("\r" + line + "\u{1B}[K")
        }
    }

    /// Erases the status line (before the last lines of a run).
    func clear() {
        state.withLock { state in
            guard state.shown != nil else { return }
            state.shown = nil
            write("\r\u{1B}[K")
        }
    }

    /// `text` cut to `columns - 1` characters (the last column is left free: writing it would leave the cursor
    /// waiting to wrap, and the erase after it would take the last character). One column per character.
    static func cut(_ text: String, columns: Int) -> String {
        let room = max(columns - 1, 1)
        return text.count <= room ? text : String(text.prefix(room))
    }

    private func write(_ text: String) { Console.error(text) }
}
