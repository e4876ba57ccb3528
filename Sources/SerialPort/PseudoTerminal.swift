import Glibc
import System

/// A pseudo-terminal pair: the master end a program writes "receiver output" into, and the path of the slave end
/// that looks like a serial port. For tests and simulators.
public struct PseudoTerminal: Sendable {
    /// The master end: what is written here is read from ``slavePath``, and the other way round.
    public let master: FileDescriptor
    /// `/dev/pts/N`.
    public let slavePath: String

    /// Opens a new pair (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`). The slave is set raw so bytes pass
    /// unchanged. The master is non-blocking.
    public static func open() throws(Errno) -> PseudoTerminal {
        let (master, path) = try FileDescriptor.openPseudoTerminal()
        do throws(Errno) {
            // Raw mode on the pair (settings are shared through the master), so NMEA passes unchanged.
            var attributes = try TerminalAttributes(of: master)
            attributes.makeRaw()
            try attributes.apply(to: master)
            try master.setNonBlocking(true)
            return PseudoTerminal(master: master, slavePath: path)
        } catch {
            try? master.close()
            throw error
        }
    }

    /// Writes all of `bytes` to the master (they appear on the slave).
    public func write(_ bytes: [UInt8]) throws(Errno) {
        try master.writeAll(bytes)
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws(Errno) {
        try write(Array(text.utf8))
    }

    /// The rate the line is set to (by whoever opened the slave, as a program sets a serial port), when it is a
    /// standard one: an emulated receiver talks only at its own rate, as a UART does.
    public func lineRate() -> BaudRate? {
        guard let attributes = try? TerminalAttributes(of: master) else { return nil }
        var raw = attributes.raw
        return BaudRate(speed: cfgetispeed(&raw))
    }

    /// Closes the master: readers of the slave see a hang-up.
    public func close() {
        try? master.close()
    }
}
