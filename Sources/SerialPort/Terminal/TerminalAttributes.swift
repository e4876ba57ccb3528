import Glibc
import System

/// A terminal's settings: a value wrapper over `struct termios`.
public struct TerminalAttributes: Sendable {
    /// The C structure.
    public var raw: termios

    public init(raw: termios) { self.raw = raw }

    /// Reads the settings of the terminal open on `fd`. `tcgetattr(3)`.
    /// - Throws: `Errno.notATerminal` when `fd` is not a terminal.
    public init(of fd: FileDescriptor) throws(Errno) {
        raw = try fd.terminalAttributes()
    }

    /// When a change takes effect: `TCSANOW`, `TCSADRAIN`, `TCSAFLUSH`.
    public typealias When = FileDescriptor.TerminalChange

    /// Applies the settings to the terminal open on `fd`. `tcsetattr(3)`.
    ///
    /// `tcsetattr` succeeds when *any* change took effect, so the settings are read back and compared; a rate or
    /// mode the driver refused throws `Errno.invalidArgument`.
    public func apply(to fd: FileDescriptor, when: When = .now) throws(Errno) {
        try fd.setTerminalAttributes(raw, when)
        let readBack = try TerminalAttributes(of: fd)
        if readBack.baudRate != baudRate
            || readBack.controlFlags & TerminalAttributes.characterSizeMask
                != controlFlags & TerminalAttributes.characterSizeMask
        {
            throw .invalidArgument
        }
    }

    /// Raw mode as `cfmakeraw(3)` sets it: no line editing, no echo, no signals, no CR/NL translation, 8 data bits,
    /// no parity; then `CLOCAL` (ignore modem lines, so a missing DCD does not hang up), `CREAD` (receive), one stop
    /// bit, no hardware flow control, and reads that return whatever has arrived (`VMIN` 0, `VTIME` 0: waiting is
    /// done with `poll`).
    public mutating func makeRaw() {
        cfmakeraw(&raw)
        raw.c_cflag |= tcflag_t(CLOCAL | CREAD)
        raw.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS) | tcflag_t(PARENB))
        setControlCharacter(Int(VMIN), 0)
        setControlCharacter(Int(VTIME), 0)
    }

    /// The line rate (the output speed; input is set to the same).
    public var baudRate: BaudRate? {
        get { withUnsafePointer(to: raw) { BaudRate(speed: cfgetospeed($0)) } }
        set {
            guard let newValue else { return }
            cfsetispeed(&raw, newValue.speed)
            cfsetospeed(&raw, newValue.speed)
        }
    }

    /// `c_iflag`.
    public var inputFlags: tcflag_t { raw.c_iflag }
    /// `c_oflag`.
    public var outputFlags: tcflag_t { raw.c_oflag }
    /// `c_cflag`.
    public var controlFlags: tcflag_t { raw.c_cflag }
    /// `c_lflag`.
    public var localFlags: tcflag_t { raw.c_lflag }

    static let characterSizeMask = tcflag_t(CSIZE)

    /// Data bits per character (5…8), from `CSIZE`.
    public var dataBits: Int {
        switch raw.c_cflag & tcflag_t(CSIZE) {
        case tcflag_t(CS5): 5
        case tcflag_t(CS6): 6
        case tcflag_t(CS7): 7
        default: 8
        }
    }

    /// Two stop bits (`CSTOPB`) or one.
    public var stopBits: Int { raw.c_cflag & tcflag_t(CSTOPB) != 0 ? 2 : 1 }
    /// Parity generation and checking (`PARENB`).
    public var parityEnabled: Bool { raw.c_cflag & tcflag_t(PARENB) != 0 }
    /// Modem control lines ignored (`CLOCAL`).
    public var ignoresModemLines: Bool { raw.c_cflag & tcflag_t(CLOCAL) != 0 }
    /// Receiver enabled (`CREAD`).
    public var receiverEnabled: Bool { raw.c_cflag & tcflag_t(CREAD) != 0 }
    /// Hardware flow control (`CRTSCTS`).
    public var hardwareFlowControl: Bool { raw.c_cflag & tcflag_t(CRTSCTS) != 0 }
    /// Canonical (line-editing) mode (`ICANON`).
    public var canonical: Bool { raw.c_lflag & tcflag_t(ICANON) != 0 }
    /// Echo (`ECHO`).
    public var echo: Bool { raw.c_lflag & tcflag_t(ECHO) != 0 }
    /// Signal characters (`ISIG`).
    public var signals: Bool { raw.c_lflag & tcflag_t(ISIG) != 0 }
    /// Output post-processing (`OPOST`).
    public var outputProcessing: Bool { raw.c_oflag & tcflag_t(OPOST) != 0 }
    /// Any input translation or flow control (`ICRNL`, `INLCR`, `IGNCR`, `IXON`, `ISTRIP`).
    public var inputTranslation: Bool {
        raw.c_iflag & tcflag_t(ICRNL | INLCR | IGNCR | IXON | ISTRIP) != 0
    }

    /// `true` for raw 8N1 as ``makeRaw()`` sets it.
    public var isRaw8N1: Bool {
        dataBits == 8 && stopBits == 1 && !parityEnabled && ignoresModemLines && receiverEnabled
            && !hardwareFlowControl && !canonical && !echo && !signals && !outputProcessing && !inputTranslation
    }

    /// `c_cc[index]`.
    public func controlCharacter(_ index: Int) -> cc_t {
        withUnsafeBytes(of: raw.c_cc) { $0[index] }
    }

    mutating func setControlCharacter(_ index: Int, _ value: cc_t) {
        withUnsafeMutableBytes(of: &raw.c_cc) { $0[index] = value }
    }
}
