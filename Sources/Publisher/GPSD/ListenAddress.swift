import Glibc

/// Where a server listens: an address (IPv4, IPv6, or a name to look up) and a TCP port.
///
///     ListenAddress(parsing: "2947")                 // 127.0.0.1:2947
///     ListenAddress(parsing: "0.0.0.0:2947")         // every IPv4 interface
///     ListenAddress(parsing: "[::1]:2947")           // IPv6 loopback
///     ListenAddress(parsing: "localhost:0")          // any free port (see GPSDServer.boundAddress)
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A numeric address or a host name; `*` means every interface (IPv4 and IPv6).
    public var host: String
    public var port: UInt16

    /// gpsd's port.
    public static let gpsdPort: UInt16 = 2947
    /// 127.0.0.1:2947: loopback only, the default.
    public static let loopback = ListenAddress(host: "127.0.0.1", port: gpsdPort)

    public init(host: String = "127.0.0.1", port: UInt16 = ListenAddress.gpsdPort) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `HOST:PORT`, `[IPV6]:PORT` or `:PORT` (the host defaults to `defaultHost`); `nil` when the
    /// text is not one of those or the port is not 0…65535.
    public init?(parsing text: String, defaultHost: String = "127.0.0.1") {
        var host = defaultHost
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            let name = text[..<colon]
            // More than one colon without brackets: an IPv6 address with no port.
            guard !name.contains(":") else { return nil }
            if !name.isEmpty { host = String(name) }
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else {
            return nil
        }
        self.init(host: host, port: port)
    }

    /// `127.0.0.1:2947`, `[::1]:2947`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A socket address that failed to be set up for listening.
public struct GPSDServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var address: ListenAddress
    /// What failed: `resolve`, `socket`, `bind`, `listen`.
    public var operation: String
    /// The `errno` (or the `getaddrinfo` error text's code for `resolve`).
    public var errorNumber: Int32
    public var message: String

    public var description: String { "cannot listen on \(address): \(operation): \(message)" }
}

/// A bound, listening, non-blocking TCP socket.
struct ListeningSocket {
    let descriptor: Int32
    /// The address actually bound (the real port when 0 was asked for).
    let bound: ListenAddress

    /// `getaddrinfo` → `socket` → `SO_REUSEADDR` → `bind` → `listen`, trying each address the name resolves to.
    static func open(_ address: ListenAddress, backlog: Int32 = 128) throws(GPSDServerError) -> ListeningSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let host = address.host == "*" ? nil : address.host
        let status = getaddrinfo(host, String(address.port), &hints, &results)
        guard status == 0, let first = results else {
            throw GPSDServerError(
                address: address, operation: "resolve", errorNumber: status,
                message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        // With `*`, prefer IPv6 with IPV6_V6ONLY off: one socket for both families.
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            candidates.append(entry)
            cursor = entry.pointee.ai_next
        }
        if host == nil { candidates.sort { $0.pointee.ai_family == AF_INET6 && $1.pointee.ai_family != AF_INET6 } }
        var lastError = GPSDServerError(
            address: address, operation: "socket", errorNumber: EAFNOSUPPORT,
            message: String(cString: strerror(EAFNOSUPPORT)))
        for entry in candidates {
            let info = entry.pointee
            let descriptor = socket(
                info.ai_family,
                info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue)
                    | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
            guard descriptor >= 0 else {
                lastError = failure(address, "socket")
                continue
            }
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            if info.ai_family == AF_INET6 && host == nil {
                var off: Int32 = 0
                _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            }
            guard bind(descriptor, info.ai_addr, info.ai_addrlen) == 0 else {
                lastError = failure(address, "bind")
                close(descriptor)
                continue
            }
            guard listen(descriptor, backlog) == 0 else {
                lastError = failure(address, "listen")
                close(descriptor)
                continue
            }
            let bound = boundAddress(descriptor) ?? address
            return ListeningSocket(descriptor: descriptor, bound: bound)
        }
        throw lastError
    }

    private static func failure(_ address: ListenAddress, _ operation: String) -> GPSDServerError {
        let error = errno
        return GPSDServerError(
            address: address, operation: operation, errorNumber: error,
            message: String(cString: strerror(error)))
    }

    /// `getsockname` + `getnameinfo`: the numeric address and port actually bound.
    private static func boundAddress(_ descriptor: Int32) -> ListenAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo(
                    $0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        func text(_ characters: [CChar]) -> String {
            String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard status == 0, let port = UInt16(text(service)) else { return nil }
        return ListenAddress(host: text(host), port: port)
    }
}
