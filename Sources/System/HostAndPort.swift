/// A host and a port as people write them in addresses and URLs: `HOST:PORT`, `[IPV6]:PORT`, `:PORT`, `PORT`,
/// `HOST`, `[IPV6]`; either part may be absent.
///
///     HostAndPort(parsing: "gps.local:2947")   // host "gps.local", port 2947
///     HostAndPort(parsing: "[::1]:10110")      // host "::1", port 10110
///     HostAndPort(parsing: "10110")            // no host, port 10110 (all digits: a port)
///     HostAndPort(parsing: "gps.local")        // host "gps.local", no port
///
/// One parser for `--listen`, `--nmea-tcp`, `--nmea-udp` and the `tcp://`, `udp://` and `gpsd://` sources.
public struct HostAndPort: Sendable, Hashable {
    /// A numeric address or a name, without brackets; `nil` when the text gave none.
    public var host: String?
    /// `nil` when the text gave none.
    public var port: UInt16?

    public init(host: String?, port: UInt16?) {
        self.host = host
        self.port = port
    }

    /// `nil` when the text is empty, a bracket is not closed, a port is not 0…65535, or an IPv6 address with a port
    /// lacks its brackets.
    /// - Complexity: O(*n*) in the text.
    public init?(parsing text: String) {
        guard !text.isEmpty else { return nil }
        var host: Substring?
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            portText = Substring(text)
        } else if let colon = text.lastIndex(of: ":") {
            let name = text[..<colon]
            // More than one colon without brackets: an IPv6 address, with no port.
            if name.contains(":") {
                host = Substring(text)
            } else {
                host = name.isEmpty ? nil : name
                portText = text[text.index(after: colon)...]
            }
        } else {
            host = Substring(text)
        }
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText)
            else { return nil }
            self.port = port
        }
        if let host {
            guard !host.isEmpty else { return nil }
            self.host = String(host)
        }
    }
}
