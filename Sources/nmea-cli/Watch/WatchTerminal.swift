import Glibc
import Watch

/// The terminal `nmea watch` draws on: standard output for the screen, `/dev/tty` for keys (so the data may come on
/// standard input), the keyboard in raw mode while the view is up.
///
/// Raw here means: no line editing and no echo (`ICANON`, `ECHO`, `IEXTEN` off), no flow control or CR→NL mapping
/// on input (`IXON`, `ICRNL` off). `ISIG` stays on, so Ctrl-C and Ctrl-Z still send SIGINT and SIGTSTP, which the
/// command takes (``WatchSignals``) to restore the terminal before it quits or stops.
final class WatchTerminal {
    /// The keyboard: `/dev/tty`, non-blocking; -1 when there is none (no controlling terminal).
    let keyboard: Int32
    private var original: termios?
    private(set) var isActive = false

    init() {
        keyboard = open("/dev/tty", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    }

    deinit {
        if isActive { leave() }
        if keyboard >= 0 { close(keyboard) }
    }

    /// `true` when standard output is a terminal that can take the full-screen view (not `TERM=dumb`, which has no
    /// cursor addressing); otherwise plain lines.
    static var outputIsTerminal: Bool {
        isatty(STDOUT_FILENO) == 1 && getenv("TERM").map { String(cString: $0) } != "dumb"
    }

    /// The terminal's size (`TIOCGWINSZ` on standard output, else on the keyboard's terminal).
    func size() -> (columns: Int, rows: Int)? {
        for descriptor in [STDOUT_FILENO, keyboard] where descriptor >= 0 {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
                return (Int(size.ws_col), Int(size.ws_row))
            }
        }
        return nil
    }

    /// Raw keyboard, alternate screen, hidden cursor. Again after a suspension: the shell may have reset the modes.
    func enter() {
        let descriptor = keyboard >= 0 ? keyboard : STDOUT_FILENO
        var attributes = termios()
        if tcgetattr(descriptor, &attributes) == 0 {
            if original == nil { original = attributes }
            var raw = original ?? attributes
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            _ = tcsetattr(descriptor, TCSANOW, &raw)
        }
        isActive = true
        write(ScreenUpdate.enter)
    }

    /// Normal screen, cursor and keyboard as they were.
    func leave() {
        write(ScreenUpdate.leave)
        if var original {
            let descriptor = keyboard >= 0 ? keyboard : STDOUT_FILENO
            _ = tcsetattr(descriptor, TCSADRAIN, &original)
        }
        isActive = false
    }

    /// Writes to standard output at once; `false` when the terminal is gone.
    @discardableResult
    func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&descriptor, 1, 100)
                        continue
                    }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// The bytes typed since the last call.
    func readKeys() -> [UInt8] {
        guard keyboard >= 0 else { return [] }
        var keys: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(keyboard, $0.baseAddress, $0.count) }
            if count > 0 {
                keys += buffer[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return keys
        }
    }
}

/// The signals `nmea watch` takes synchronously: blocked in every thread (``block(screen:)`` before any thread
/// starts), then collected by the main loop between frames.
enum WatchSignals {
    /// SIGINT, SIGTERM, SIGHUP and SIGQUIT end the view; with a screen also SIGWINCH (resize), SIGTSTP (Ctrl-Z:
    /// restore the terminal, then stop) and SIGCONT (back: raw mode and the screen again).
    static func set(screen: Bool) -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] + (screen ? [SIGWINCH, SIGTSTP, SIGCONT] : []) {
            sigaddset(&signals, signal)
        }
        return signals
    }

    static func block(screen: Bool) {
        var signals = set(screen: screen)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// The signals that arrived, without waiting.
    static func pending(screen: Bool) -> [Int32] {
        var signals = set(screen: screen)
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        var received: [Int32] = []
        while true {
            let signal = sigtimedwait(&signals, nil, &zero)
            guard signal > 0 else { return received }
            received.append(signal)
        }
    }

    static func isStop(_ signal: Int32) -> Bool {
        signal == SIGINT || signal == SIGTERM || signal == SIGHUP || signal == SIGQUIT
    }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }
}
