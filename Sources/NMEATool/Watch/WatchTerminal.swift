import Glibc
import System
import Watch

/// The terminal `nmea watch` draws on: standard output for the screen, `/dev/tty` for keys (so the data may come on
/// standard input), the keyboard in raw mode while the view is up.
///
/// Raw here means: no line editing and no echo (`ICANON`, `ECHO`, `IEXTEN` off), no flow control or CR→NL mapping
/// on input (`IXON`, `ICRNL` off). `ISIG` stays on, so Ctrl-C and Ctrl-Z still send SIGINT and SIGTSTP, which the
/// command takes (``StopSignal``) to restore the terminal before it quits or stops.
final class WatchTerminal {
    /// The keyboard: `/dev/tty`, non-blocking; `nil` when there is none (no controlling terminal).
    let keyboard: FileDescriptor?
    private var original: termios?
    private(set) var isActive = false

    init() {
        keyboard = try? FileDescriptor.open(
            "/dev/tty", .readOnly, options: [.nonBlocking, .closeOnExec, .noControllingTerminal])
    }

    deinit {
        if isActive { leave() }
        try? keyboard?.close()
    }

    /// `true` when standard output is a terminal that can take the full-screen view (not `TERM=dumb`, which has no
    /// cursor addressing); otherwise plain lines.
    static var outputIsTerminal: Bool {
        FileDescriptor.standardOutput.isTerminal && getenv("TERM").map { String(cString: $0) } != "dumb"
    }

    /// The terminal's size (`TIOCGWINSZ` on standard output, else on the keyboard's terminal).
    func size() -> (columns: Int, rows: Int)? {
        for descriptor in [FileDescriptor.standardOutput, keyboard].compactMap({ $0 }) {
            if let size = try? descriptor.windowSize(), size.columns > 0, size.rows > 0 { return size }
        }
        return nil
    }

    /// Raw keyboard, alternate screen, hidden cursor. Again after a suspension: the shell may have reset the modes.
    func enter() {
        let descriptor = keyboard ?? .standardOutput
        if let attributes = try? descriptor.terminalAttributes() {
            if original == nil { original = attributes }
            var raw = original ?? attributes
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            try? descriptor.setTerminalAttributes(raw, .now)
        }
        isActive = true
        write(ScreenUpdate.enter)
    }

    /// Normal screen, cursor and keyboard as they were.
    func leave() {
        write(ScreenUpdate.leave)
        if let original {
            try? (keyboard ?? .standardOutput).setTerminalAttributes(original, .afterDrain)
        }
        isActive = false
    }

    /// Writes to standard output at once; `false` when the terminal is gone.
    @discardableResult
    func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { (try? FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer($0))) != nil }
    }

    /// The bytes typed since the last call.
    func readKeys() -> [UInt8] {
        guard let keyboard else { return [] }
        var keys: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while let count = buffer.withUnsafeMutableBytes({ try? keyboard.read(into: $0) }), count > 0 {
            keys += buffer[0..<count]
        }
        return keys
    }
}
