import System
import Threading

/// A receiver on the network, as every command names it in place of a device or a file:
///
///     tcp://HOST:PORT        connect and read NMEA (a multiplexer, a phone app, an RTK box); reconnects
///     udp://[ADDR]:PORT      listen for datagrams, one or more sentences each (ADDR a multicast group: join it)
///     udp://                 every IPv4 interface, port 10110 (NMEA's registered port)
///     gpsd://HOST[:PORT]     a running gpsd (or `nmea serve`), asked for its raw sentences; port 2947
///
/// Hosts are names or numeric addresses, IPv6 ones in brackets (`tcp://[::1]:2000`); a trailing `/` is ignored.
public struct NetworkSourceAddress: Sendable, Hashable, CustomStringConvertible {
    /// How the bytes are read.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        case tcp, udp, gpsd
    }

    public var scheme: Scheme
    /// `nil` for `udp://` without an address: every IPv4 interface.
    public var host: String?
    public var port: UInt16

    /// NMEA 0183 over IP's registered port: `udp://`'s default.
    public static let nmeaPort: UInt16 = 10110
    /// gpsd's port: `gpsd://`'s default.
    public static let gpsdPort: UInt16 = 2947

    public init(scheme: Scheme, host: String?, port: UInt16) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Why a `tcp://`, `udp://` or `gpsd://` text is not a source.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var text: String
        public var reason: String

        public init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }

        public var description: String { "'\(text)' is not a network source: \(reason)" }
    }

    /// `true` when `text` starts with one of the schemes (`tcp://`, `udp://`, `gpsd://`), whether or not the rest
    /// is valid: such an argument is never a file or a device.
    public static func hasScheme(_ text: String) -> Bool {
        Scheme.allCases.contains { text.hasPrefix($0.rawValue + "://") }
    }

    /// Parses a source URL.
    /// - Returns: `nil` when `text` does not start with a scheme (a path, a device, `-`).
    /// - Throws: ``ParseError`` when it does but the rest is not `HOST:PORT` as the scheme needs it.
    public static func parse(_ text: String) throws(ParseError) -> NetworkSourceAddress? {
        guard let scheme = Scheme.allCases.first(where: { text.hasPrefix($0.rawValue + "://") }) else { return nil }
        var rest = text.dropFirst(scheme.rawValue.count + 3)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        func failure(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let usage: String
        switch scheme {
        case .tcp: usage = "expected tcp://HOST:PORT"
        case .udp: usage = "expected udp://[ADDR]:PORT, udp://:PORT or udp://"
        case .gpsd: usage = "expected gpsd://HOST or gpsd://HOST:PORT"
        }
        let parsed: HostAndPort
        if rest.isEmpty {
            guard scheme == .udp else { throw failure(usage) }
            parsed = HostAndPort(host: nil, port: nil)
        } else {
            guard let value = HostAndPort(parsing: String(rest)) else { throw failure(usage) }
            parsed = value
        }
        switch scheme {
        case .tcp:
            guard let host = parsed.host, let port = parsed.port else { throw failure(usage) }
            guard port != 0 else { throw failure("port 0 cannot be connected to") }
            return NetworkSourceAddress(scheme: .tcp, host: host, port: port)
        case .udp:
            return NetworkSourceAddress(scheme: .udp, host: parsed.host, port: parsed.port ?? nmeaPort)
        case .gpsd:
            guard let host = parsed.host else { throw failure(usage) }
            guard parsed.port != 0 else { throw failure("port 0 cannot be connected to") }
            return NetworkSourceAddress(scheme: .gpsd, host: host, port: parsed.port ?? gpsdPort)
        }
    }

    /// `tcp://127.0.0.1:2000`, `udp://:10110`, `gpsd://[::1]:2947`: the name status lines and messages use.
    public var description: String {
        let host = self.host ?? ""
        return "\(scheme.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The byte source that reads this address: a ``TCPByteSource`` (for `gpsd://`, one that sends `?WATCH` and
    /// skips gpsd's JSON lines) or a ``UDPByteSource``. `reconnects`: a TCP connection refused or dropped is tried
    /// again with backoff (a receiver); otherwise it ends the source (a stream read once, as `parse` does).
    /// `failure` is set to the message when the source gives up (unresolvable name, port in use…).
    public func makeByteSource(reconnects: Bool, failure: Locked<String?> = Locked(nil)) -> any ByteSource {
        switch scheme {
        case .tcp:
            var options = TCPByteSource.Options()
            options.reconnects = reconnects
            return TCPByteSource(self, options: options, failure: failure)
        case .gpsd:
            var options = TCPByteSource.Options()
            options.reconnects = reconnects
            options.greeting = Array(#"?WATCH={"enable":true,"nmea":true}"#.utf8) + [0x0A]
            options.skipsJSONLines = true
            return TCPByteSource(self, options: options, failure: failure)
        case .udp:
            return UDPByteSource(self, failure: failure)
        }
    }
}
