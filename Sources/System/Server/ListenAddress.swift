import Glibc

/// Where a server listens: an address (IPv4, IPv6, or a name to look up) and a TCP port.
///
///     ListenAddress(parsing: "2947")                 // 127.0.0.1:2947
///     ListenAddress(parsing: "0.0.0.0:2947")         // every IPv4 interface
///     ListenAddress(parsing: "[::1]:2947")           // IPv6 loopback
///     ListenAddress(parsing: "localhost:0")          // any free port (see ListeningSocket.bound)
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A numeric address or a host name; `*` means every interface (IPv4 and IPv6).
    public var host: String
    public var port: UInt16

    /// Loopback only (127.0.0.1) unless `host` says otherwise.
    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `HOST:PORT`, `[IPV6]:PORT` or `:PORT` (the host defaults to `defaultHost`); `nil` when the
    /// text is not one of those or the port is not 0…65535.
    public init?(parsing text: String, defaultHost: String = "127.0.0.1") {
        guard let parsed = HostAndPort(parsing: text), let port = parsed.port else { return nil }
        self.init(host: parsed.host ?? defaultHost, port: port)
    }

    /// `127.0.0.1:2947`, `[::1]:2947`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// An address a server could not listen on, and why: what a server's `start()` throws.
public struct ListenError: Error, Sendable, Hashable, CustomStringConvertible {
    public var address: ListenAddress
    /// What failed: `resolve`, `socket`, `bind`, `listen`.
    public var operation: String
    /// The `errno` (or the `getaddrinfo` error text's code for `resolve`).
    public var errorNumber: Int32
    public var message: String

    public var description: String { "cannot listen on \(address): \(operation): \(message)" }
}

/// A bound, listening, non-blocking TCP socket.
package struct ListeningSocket {
    package let descriptor: FileDescriptor
    /// The address actually bound (the real port when 0 was asked for).
    package let bound: ListenAddress

    /// `getaddrinfo` → `socket` → `SO_REUSEADDR` → `bind` → `listen`, trying each address the name resolves to.
    package static func open(_ address: ListenAddress, backlog: Int32 = 128) throws(ListenError) -> ListeningSocket {
        let host = address.host == "*" ? nil : address.host
        var candidates: [ResolvedAddress]
        do {
            candidates = try SocketAddress.resolve(host: host, port: address.port, passive: true)
        } catch {
            throw ListenError(
                address: address, operation: "resolve", errorNumber: error.code, message: error.description)
        }
        // With `*`, prefer IPv6 with IPV6_V6ONLY off: one socket for both families.
        if host == nil { candidates.sort { $0.family == AF_INET6 && $1.family != AF_INET6 } }
        var lastError = failure(address, "socket", .addressFamilyNotSupported)
        for candidate in candidates {
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.socket(
                    family: candidate.family, type: candidate.type, protocol: candidate.protocol, nonBlocking: true)
            } catch {
                lastError = failure(address, "socket", error)
                continue
            }
            try? descriptor.setOption(.reuseAddress, 1)
            if candidate.family == AF_INET6 && host == nil { try? descriptor.setOption(.ipv6Only, 0) }
            do {
                try descriptor.bind(to: candidate.address)
            } catch {
                lastError = failure(address, "bind", error)
                try? descriptor.close()
                continue
            }
            do {
                try descriptor.listen(backlog: backlog)
            } catch {
                lastError = failure(address, "listen", error)
                try? descriptor.close()
                continue
            }
            let numeric = (try? descriptor.localAddress())?.numeric
            let bound = numeric.map { ListenAddress(host: $0.host, port: $0.port) } ?? address
            return ListeningSocket(descriptor: descriptor, bound: bound)
        }
        throw lastError
    }

    private static func failure(_ address: ListenAddress, _ operation: String, _ error: Errno) -> ListenError {
        ListenError(
            address: address, operation: operation, errorNumber: error.rawValue, message: error.description)
    }
}

extension FileDescriptor {
    /// What one non-blocking `accept(2)` on a listening socket gave.
    package enum AcceptOutcome {
        /// A client, with `TCP_NODELAY` set and its send buffer bounded as asked.
        case accepted(FileDescriptor)
        /// Out of descriptors or memory: stop accepting for a moment rather than spin on a ready listener.
        case pause
        /// Nobody waiting (or an error that leaves nothing to do now).
        case none
    }

    /// Accepts the next client of this listening socket (a connection aborted before it was taken is skipped): the
    /// accept step of ``TCPServerCore``.
    package func acceptClient(sendBufferSize: Int?) -> AcceptOutcome {
        while true {
            let descriptor: FileDescriptor
            do {
                descriptor = try accept(nonBlocking: true)
            } catch .connectionAborted {
                continue
            } catch .tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .noMemory {
                return .pause
            } catch {
                return .none
            }
            try? descriptor.setOption(.noDelay, 1)
            if let sendBufferSize { try? descriptor.setOption(.sendBufferSize, Int32(clamping: sendBufferSize)) }
            return .accepted(descriptor)
        }
    }
}
