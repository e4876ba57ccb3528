import Glibc

/// Terminal calls: settings, flushing, exclusive use, window size, pseudo-terminals.
extension FileDescriptor {
    /// When a change of settings takes effect: `TCSANOW`, `TCSADRAIN`, `TCSAFLUSH`.
    public enum TerminalChange: Sendable {
        /// `TCSANOW`: at once.
        case now
        /// `TCSADRAIN`: after pending output is written.
        case afterDrain
        /// `TCSAFLUSH`: after pending output is written, discarding unread input.
        case afterFlush

        var rawValue: Int32 {
            switch self {
            case .now: TCSANOW
            case .afterDrain: TCSADRAIN
            case .afterFlush: TCSAFLUSH
            }
        }
    }

    /// `true` when the descriptor is a terminal. `isatty(3)`.
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// The terminal's settings. `tcgetattr(3)`.
    /// - Throws: `Errno.notATerminal` when the descriptor is not a terminal.
    public func terminalAttributes() throws(Errno) -> termios {
        try _terminalAttributes().get()
    }

    func _terminalAttributes() -> Result<termios, Errno> {
        var attributes = termios()
        return nothingOrErrno { systemTcgetattr(rawValue, &attributes) }.map { attributes }
    }

    /// Changes the terminal's settings. `tcsetattr(3)` (which succeeds when *any* of the changes took effect).
    public func setTerminalAttributes(_ attributes: termios, _ when: TerminalChange = .now) throws(Errno) {
        try _setTerminalAttributes(attributes, when).get()
    }

    func _setTerminalAttributes(_ attributes: termios, _ when: TerminalChange) -> Result<Void, Errno> {
        var attributes = attributes
        return nothingOrErrno { systemTcsetattr(rawValue, when.rawValue, &attributes) }
    }

    /// Discards input received and not yet read. `tcflush(3)` with `TCIFLUSH`.
    public func discardTerminalInput() throws(Errno) {
        try _discardTerminalInput().get()
    }

    func _discardTerminalInput() -> Result<Void, Errno> {
        nothingOrErrno { systemTcflush(rawValue, TCIFLUSH) }
    }

    /// Waits until everything written has been sent. `tcdrain(3)`.
    public func drainTerminalOutput() throws(Errno) {
        try _drainTerminalOutput().get()
    }

    func _drainTerminalOutput() -> Result<Void, Errno> {
        nothingOrErrno { systemTcdrain(rawValue) }
    }

    /// Takes the terminal exclusively, or gives it back: later `open(2)`s by others fail with EBUSY (root is
    /// exempt). `ioctl(TIOCEXCL)` / `ioctl(TIOCNXCL)`.
    public func setExclusiveUse(_ exclusive: Bool) throws(Errno) {
        try _setExclusiveUse(exclusive).get()
    }

    func _setExclusiveUse(_ exclusive: Bool) -> Result<Void, Errno> {
        nothingOrErrno { exclusive ? systemTiocexcl(rawValue) : systemTiocnxcl(rawValue) }
    }

    /// Whether the terminal is held exclusively. `ioctl(TIOCGEXCL)`.
    public func isExclusiveUse() throws(Errno) -> Bool {
        try valueOrErrno { systemTiocgexcl(rawValue) }.map { $0 == 1 }.get()
    }

    /// The terminal's size in character cells. `ioctl(TIOCGWINSZ)`.
    public func windowSize() throws(Errno) -> (columns: Int, rows: Int) {
        var size = winsize()
        try nothingOrErrno { systemTiocgwinsz(rawValue, &size) }.get()
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// A new pseudo-terminal: its master end (read-write, no controlling terminal, close-on-exec) and the path of
    /// its slave end. `posix_openpt(3)`, `grantpt(3)`, `unlockpt(3)`, `ptsname_r(3)`.
    public static func openPseudoTerminal() throws(Errno) -> (master: FileDescriptor, slavePath: String) {
        let master = try valueOrErrno { systemPosixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC) }
            .map(FileDescriptor.init(rawValue:)).get()
        do throws(Errno) {
            try nothingOrErrno { systemGrantpt(master.rawValue) }.get()
            try nothingOrErrno { systemUnlockpt(master.rawValue) }.get()
            var name = [CChar](repeating: 0, count: 128)
            let status = systemPtsnameR(master.rawValue, &name, name.count)
            guard status == 0 else { throw Errno(rawValue: status) }
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (master, path)
        } catch {
            try? master.close()
            throw error
        }
    }
}
