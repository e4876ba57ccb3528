import Glibc

/// An IPv4 or IPv6 socket address (`struct sockaddr_storage` and its length), as `bind`, `connect` and
/// `getsockname` take and give it.
public struct SocketAddress: Sendable {
    /// The C address; the first ``length`` bytes are meaningful.
    public var storage: sockaddr_storage
    /// `socklen_t`: the size of the address in ``storage``.
    public var length: socklen_t

    public init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// A numeric IPv4 address (`127.0.0.1`) and port; `nil` when `host` is not one. `inet_pton(3)`.
    public init?(ipv4 host: String, port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
        self.init(storage: storage, length: socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    /// 127.0.0.1:`port`.
    public static func loopback(port: UInt16) -> SocketAddress { SocketAddress(ipv4: "127.0.0.1", port: port)! }

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { Int32(storage.ss_family) }

    /// The port, in host byte order.
    public var port: UInt16 {
        family == AF_INET6 ? UInt16(bigEndian: withIPv6 { $0.sin6_port }) : UInt16(bigEndian: withIPv4 { $0.sin_port })
    }

    /// A multicast group address: 224.0.0.0/4, or ff00::/8.
    public var isMulticast: Bool {
        if family == AF_INET6 { return withIPv6 { $0.sin6_addr.__in6_u.__u6_addr8.0 } == 0xFF }
        return family == AF_INET && (UInt32(bigEndian: withIPv4 { $0.sin_addr.s_addr }) >> 28) == 0xE
    }

    /// The address read as a `sockaddr_in`.
    func withIPv4<R>(_ body: (sockaddr_in) -> R) -> R {
        withUnsafeBytes(of: storage) { body($0.loadUnaligned(as: sockaddr_in.self)) }
    }

    /// The address read as a `sockaddr_in6`.
    func withIPv6<R>(_ body: (sockaddr_in6) -> R) -> R {
        withUnsafeBytes(of: storage) { body($0.loadUnaligned(as: sockaddr_in6.self)) }
    }

    /// The numeric host and the port (`getnameinfo(3)` with `NI_NUMERICHOST | NI_NUMERICSERV`); `nil` when the
    /// address cannot be written so.
    public var numeric: (host: String, port: UInt16)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withUnsafePointer(to: storage) {
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
        return (text(host), port)
    }

    /// Calls `body` with the address as `sockaddr` and its length.
    public func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> R) throws(Errno)
        -> R
    {
        var storage = storage
        let length = length
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Result { () throws(Errno) in try body(address, length) }
            }
        }
        return try result.get()
    }
}

/// One address a name resolved to, with what `socket(2)` needs to make a socket for it.
public struct ResolvedAddress: Sendable {
    /// `AF_INET` or `AF_INET6`.
    public var family: Int32
    /// `SOCK_STREAM` or `SOCK_DGRAM`.
    public var type: Int32
    /// The protocol (`IPPROTO_TCP`…).
    public var `protocol`: Int32
    public var address: SocketAddress
}

/// A name that could not be resolved: `getaddrinfo(3)`'s error, with `gai_strerror(3)`'s text (or the `Errno`
/// for `EAI_SYSTEM`).
public struct ResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `EAI_…` code.
    public var code: Int32
    /// For `EAI_SYSTEM`: the system error.
    public var errno: Errno?

    /// "Name or service not known".
    public var description: String {
        if code == EAI_SYSTEM, let errno { return errno.description }
        return String(cString: gai_strerror(code))
    }
}

extension SocketAddress {
    /// The addresses `host` and `port` stand for. `getaddrinfo(3)` with `AI_NUMERICSERV`.
    /// - Parameters:
    ///   - host: a numeric address or a name; `nil` for every interface (with `passive`) or loopback.
    ///   - passive: addresses to listen on (`AI_PASSIVE`) rather than to connect to.
    ///   - type: `SOCK_STREAM` (TCP) or `SOCK_DGRAM` (UDP).
    public static func resolve(
        host: String?, port: UInt16, passive: Bool = false, type: Int32 = Int32(SOCK_STREAM.rawValue)
    ) throws(ResolutionError) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = type
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw ResolutionError(code: status, errno: status == EAI_SYSTEM ? Errno.current : nil)
        }
        defer { freeaddrinfo(results) }
        var addresses: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            let info = entry.pointee
            cursor = info.ai_next
            guard let address = info.ai_addr else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
            }
            addresses.append(
                ResolvedAddress(
                    family: info.ai_family, type: info.ai_socktype, protocol: info.ai_protocol,
                    address: SocketAddress(storage: storage, length: info.ai_addrlen)))
        }
        return addresses
    }
}
