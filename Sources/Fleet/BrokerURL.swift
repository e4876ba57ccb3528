/// Where a broker is and how to log in: `mqtt://[user:pass@]host[:port]`, or `mqtts://…` for TLS.
///
/// The port defaults to 1883 (`mqtt`) or 8883 (`mqtts`). User name and password may be percent-encoded (`%40` for
/// `@`, `%3A` for `:`). An IPv6 address goes in brackets: `mqtt://[::1]:1883`.
public struct BrokerURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// `mqtts://`: connect with TLS.
    public var usesTLS: Bool

    public init(
        host: String, port: Int = 1883, username: String? = nil, password: String? = nil,
        usesTLS: Bool = false
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.usesTLS = usesTLS
    }

    /// Parses `text`.
    /// - Throws: ``BrokerURLError`` saying what is wrong.
    public init(parsing text: String) throws(BrokerURLError) {
        var rest = Substring(text)
        if rest.hasPrefix("mqtt://") {
            usesTLS = false
            rest = rest.dropFirst(7)
        } else if rest.hasPrefix("mqtts://") {
            usesTLS = true
            rest = rest.dropFirst(8)
        } else {
            throw BrokerURLError(text: text, reason: "expected mqtt://[user:pass@]host[:port] or mqtts://…")
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...] == "/" else {
                throw BrokerURLError(text: text, reason: "a broker URL has no path (the topic is given on its own)")
            }
            rest = rest[..<slash]
        }
        username = nil
        password = nil
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                username = try Self.percentDecoded(credentials[..<colon], text)
                password = try Self.percentDecoded(credentials[credentials.index(after: colon)...], text)
            } else {
                username = try Self.percentDecoded(credentials, text)
            }
            if username?.isEmpty == true { throw BrokerURLError(text: text, reason: "empty user name") }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw BrokerURLError(text: text, reason: "unclosed '[' in the host")
            }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw BrokerURLError(text: text, reason: "unexpected text after ']'")
                }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        guard !host.isEmpty else { throw BrokerURLError(text: text, reason: "no host") }
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw BrokerURLError(text: text, reason: "the port must be a number from 1 to 65535")
            }
            port = number
        } else {
            port = usesTLS ? 8883 : 1883
        }
    }

    private static func percentDecoded(_ text: Substring, _ whole: String) throws(BrokerURLError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw BrokerURLError(text: whole, reason: "bad percent-encoding in the user name or password")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URL without the password: `mqtt://fleet@broker.example:1883`.
    public var description: String {
        let scheme = usesTLS ? "mqtts" : "mqtt"
        let user = username.map { "\($0)@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(user)\(shownHost):\(port)"
    }
}

/// A broker URL that could not be read.
public struct BrokerURLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { reason }
}
