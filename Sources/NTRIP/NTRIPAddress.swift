import Pipeline
import System

/// An NTRIP caster and mount point, as `--ntrip` and `nmea ntrip sources` name them:
///
///     ntrip://caster.example.com/MOUNT          port 2101, no login
///     ntrip://user@caster.example.com:2102/MOUNT
///     ntrip://caster.example.com                no mount: the caster's sourcetable
///
/// The password is never part of the address: it is read from a file or the environment (a command line is
/// readable by every user of the machine in `/proc/PID/cmdline`), and ``description`` leaves it out.
public struct NTRIPAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var user: String?
    /// `nil` (or empty): ask for the sourcetable.
    public var mount: String?

    /// NTRIP's registered port.
    public static let defaultPort: UInt16 = 2101

    public init(host: String, port: UInt16 = defaultPort, user: String? = nil, mount: String? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.mount = mount
    }

    /// Parses `ntrip://[user@]host[:port][/MOUNT]`.
    /// - Throws: ``NTRIPError`` saying what is wrong, and that a password goes in a file, not the URL.
    public init(parsing text: String) throws(NTRIPError) {
        let usage = "expected ntrip://[USER@]CASTER[:PORT]/MOUNT"
        guard text.hasPrefix("ntrip://") else { throw NTRIPError("'\(text)': \(usage)") }
        var rest = Substring(text.dropFirst(8))
        var mount: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            mount = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") {
            let login = rest[..<at]
            if login.contains(":") {
                throw NTRIPError(
                    "'\(Self.redacted(text))': put the password in --ntrip-password-file FILE or "
                        + "$NMEA_NTRIP_PASSWORD, not in the URL (a command line is visible to every user)")
            }
            guard !login.isEmpty else { throw NTRIPError("'\(text)': \(usage)") }
            user = String(login)
            rest = rest[rest.index(after: at)...]
        }
        guard let hostAndPort = HostAndPort(parsing: String(rest)), let host = hostAndPort.host else {
            throw NTRIPError("'\(Self.redacted(text))': \(usage)")
        }
        guard hostAndPort.port != 0 else { throw NTRIPError("'\(text)': port 0 cannot be connected to") }
        guard mount.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "?" }) else {
            throw NTRIPError("'\(text)': a mount point is one name of printable ASCII characters")
        }
        self.host = host
        self.port = hostAndPort.port ?? Self.defaultPort
        self.mount = mount.isEmpty ? nil : String(mount)
    }

    /// `ntrip://user@caster:2101/MOUNT`, never a password.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "ntrip://\(user.map { $0 + "@" } ?? "")\(host):\(port)/\(mount ?? "")"
    }

    /// The caster as a TCP address.
    public var tcp: NetworkSourceAddress { NetworkSourceAddress(scheme: .tcp, host: host, port: port) }

    /// `text` with whatever follows `user:` up to `@` replaced by `***`, for messages.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let colon = text[..<at].lastIndex(of: ":"),
            text.distance(from: text.startIndex, to: colon) > 8
        else { return text }
        return String(text[...colon]) + "***" + String(text[at...])
    }
}

/// What went wrong talking NTRIP, in one line that says what to do.
public struct NTRIPError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
