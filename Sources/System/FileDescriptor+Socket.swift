import Glibc

/// Socket calls: making, binding, listening, accepting, connecting, sending, receiving, options.
extension FileDescriptor {
    /// Flags for `send(2)`, `sendmsg(2)` and `recv(2)`.
    @frozen
    public struct MessageFlags: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `MSG_DONTWAIT`: this call does not wait, whatever the descriptor's mode.
        public static let dontWait = MessageFlags(rawValue: Int32(MSG_DONTWAIT))
        /// `MSG_NOSIGNAL`: a peer that has gone is an EPIPE, not a SIGPIPE.
        public static let noSignal = MessageFlags(rawValue: Int32(MSG_NOSIGNAL))
    }

    /// A socket option: its level and name, for `setsockopt(2)`/`getsockopt(2)` with an `int` value.
    @frozen
    public struct SocketOption: Hashable, Sendable {
        public var level: Int32
        public var name: Int32
        public init(level: Int32, name: Int32) {
            self.level = level
            self.name = name
        }
        /// `SOL_SOCKET`, `SO_REUSEADDR`: bind a port whose old connections linger in TIME_WAIT.
        public static let reuseAddress = SocketOption(level: SOL_SOCKET, name: SO_REUSEADDR)
        /// `SOL_SOCKET`, `SO_SNDBUF`: the kernel's send buffer (Linux doubles what is asked for).
        public static let sendBufferSize = SocketOption(level: SOL_SOCKET, name: SO_SNDBUF)
        /// `SOL_SOCKET`, `SO_RCVBUF`: the kernel's receive buffer.
        public static let receiveBufferSize = SocketOption(level: SOL_SOCKET, name: SO_RCVBUF)
        /// `SOL_SOCKET`, `SO_ERROR` (read only): the pending error, e.g. of a non-blocking `connect`.
        public static let error = SocketOption(level: SOL_SOCKET, name: SO_ERROR)
        /// `IPPROTO_TCP`, `TCP_NODELAY`: send small writes at once (no Nagle delay).
        public static let noDelay = SocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY)
        /// `IPPROTO_IPV6`, `IPV6_V6ONLY`: an IPv6 socket that does not also take IPv4.
        public static let ipv6Only = SocketOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY)
        /// `SOL_SOCKET`, `SO_RXQ_OVFL`: each datagram received comes with the count of those the kernel dropped so far
        /// on this socket (its receive buffer full); read with ``FileDescriptor/receive(into:flags:dropped:)``.
        public static let receiveQueueOverflow = SocketOption(level: SOL_SOCKET, name: SO_RXQ_OVFL)
        /// `SOL_SOCKET`, `SO_BROADCAST`: a datagram socket may send to a broadcast address.
        public static let broadcast = SocketOption(level: SOL_SOCKET, name: SO_BROADCAST)
    }

    /// Which direction ``shutdown(_:)`` ends: `SHUT_RD`, `SHUT_WR`, `SHUT_RDWR`.
    public enum ShutdownDirection: Sendable {
        case read, write, both
        var rawValue: Int32 {
            switch self {
            case .read: Int32(SHUT_RD)
            case .write: Int32(SHUT_WR)
            case .both: Int32(SHUT_RDWR)
            }
        }
    }

    /// A new socket, close-on-exec, non-blocking when asked. `socket(2)`.
    /// - Parameters:
    ///   - family: `AF_INET` or `AF_INET6`.
    ///   - type: `SOCK_STREAM` (TCP) or `SOCK_DGRAM` (UDP).
    public static func socket(
        family: Int32, type: Int32 = Int32(SOCK_STREAM.rawValue), protocol: Int32 = 0, nonBlocking: Bool = false
    ) throws(Errno) -> FileDescriptor {
        try _socket(family: family, type: type, protocol: `protocol`, nonBlocking: nonBlocking).get()
    }

    static func _socket(family: Int32, type: Int32, protocol: Int32, nonBlocking: Bool)
        -> Result<FileDescriptor, Errno>
    {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return valueOrErrno { systemSocket(family, type | flags, `protocol`) }.map(FileDescriptor.init(rawValue:))
    }

    /// Gives the socket its local address. `bind(2)`.
    public func bind(to address: SocketAddress) throws(Errno) {
        try address.withSocketAddress { (pointer, length) throws(Errno) in
            try nothingOrErrno { systemBind(rawValue, pointer, length) }.get()
        }
    }

    /// Starts taking connections, `backlog` of them waiting at most. `listen(2)`.
    public func listen(backlog: Int32 = 128) throws(Errno) {
        try nothingOrErrno { systemListen(rawValue, backlog) }.get()
    }

    /// Takes the next waiting connection, close-on-exec and non-blocking when asked. `accept4(2)`.
    /// - Throws: `Errno.wouldBlock` on a non-blocking socket with none waiting.
    public func accept(nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        try _accept(nonBlocking: nonBlocking).get()
    }

    func _accept(nonBlocking: Bool) -> Result<FileDescriptor, Errno> {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return valueOrErrno { systemAccept4(rawValue, flags) }.map(FileDescriptor.init(rawValue:))
    }

    /// Connects to `address`. `connect(2)`; not retried on EINTR (a second `connect` would fail with EALREADY
    /// while the first goes on).
    /// - Throws: `Errno.nowInProgress` on a non-blocking socket: wait for ``PollEvents/writable``, then read
    ///   ``socketError()``.
    public func connect(to address: SocketAddress) throws(Errno) {
        try address.withSocketAddress { (pointer, length) throws(Errno) in
            try nothingOrErrno(retryOnInterrupt: false) { systemConnect(rawValue, pointer, length) }.get()
        }
    }

    /// Connects, waiting at most `timeoutMilliseconds` for a non-blocking socket to be connected (`connect(2)`,
    /// `poll(2)`, then `SO_ERROR`).
    /// - Throws: the connection's error; `Errno.timedOut` when it took longer.
    public func connect(to address: SocketAddress, timeoutMilliseconds: Int32) throws(Errno) {
        do throws(Errno) {
            try connect(to: address)
        } catch .nowInProgress {
            let events = try poll(.writable, timeoutMilliseconds: timeoutMilliseconds)
            guard !events.isEmpty else { throw Errno.timedOut }
            if let error = try socketError() { throw error }
        }
    }

    /// The socket's pending error, cleared by reading it (`getsockopt(SO_ERROR)`); `nil` when there is none.
    public func socketError() throws(Errno) -> Errno? {
        let code = try option(.error)
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// Sets an `int` socket option. `setsockopt(2)`.
    public func setOption(_ option: SocketOption, _ value: Int32) throws(Errno) {
        var value = value
        try nothingOrErrno {
            systemSetsockopt(rawValue, option.level, option.name, &value, socklen_t(MemoryLayout<Int32>.size))
        }.get()
    }

    /// Joins the multicast group `group` (IPv4 or IPv6) on the default interface: `setsockopt(2)` with
    /// `IP_ADD_MEMBERSHIP` (a `struct ip_mreq`) or `IPV6_JOIN_GROUP` (a `struct ipv6_mreq`).
    public func joinMulticastGroup(_ group: SocketAddress) throws(Errno) {
        if group.family == AF_INET6 {
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = group.withIPv6 { $0.sin6_addr }
            try setOption(level: Int32(IPPROTO_IPV6), name: IPV6_ADD_MEMBERSHIP, &request)
        } else {
            var request = ip_mreq()
            request.imr_multiaddr = group.withIPv4 { $0.sin_addr }
            request.imr_interface.s_addr = 0  // INADDR_ANY: the kernel's choice
            try setOption(level: Int32(IPPROTO_IP), name: IP_ADD_MEMBERSHIP, &request)
        }
    }

    /// `setsockopt(2)` with a value of any layout.
    private func setOption<Value>(level: Int32, name: Int32, _ value: inout Value) throws(Errno) {
        try withUnsafeBytes(of: &value) { bytes in
            nothingOrErrno { systemSetsockopt(rawValue, level, name, bytes.baseAddress!, socklen_t(bytes.count)) }
        }.get()
    }

    /// Reads an `int` socket option. `getsockopt(2)`.
    public func option(_ option: SocketOption) throws(Errno) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try nothingOrErrno { systemGetsockopt(rawValue, option.level, option.name, &value, &length) }.get()
        return value
    }

    /// The address the socket is bound to (the real port after binding port 0). `getsockname(2)`.
    public func localAddress() throws(Errno) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                nothingOrErrno { systemGetsockname(rawValue, address, &length) }
            }
        }.get()
        return SocketAddress(storage: storage, length: length)
    }

    /// Sends some of `bytes`. `send(2)`.
    /// - Returns: the number of bytes sent.
    public func send(_ bytes: UnsafeRawBufferPointer, flags: MessageFlags = .noSignal) throws(Errno) -> Int {
        try _send(bytes, flags: flags).get()
    }

    func _send(_ bytes: UnsafeRawBufferPointer, flags: MessageFlags) -> Result<Int, Errno> {
        valueOrErrno { systemSend(rawValue, bytes.baseAddress, bytes.count, flags.rawValue) }
    }

    /// Sends all of `bytes` on a blocking socket, however many calls it takes (`send(2)`).
    public func sendAll(_ bytes: UnsafeRawBufferPointer, flags: MessageFlags = .noSignal) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let sent = try send(UnsafeRawBufferPointer(rebasing: bytes[done...]), flags: flags)
            if sent == 0 { throw Errno.ioError }
            done += sent
        }
    }

    /// ``sendAll(_:flags:)`` for an array.
    public func sendAll(_ bytes: [UInt8], flags: MessageFlags = .noSignal) throws(Errno) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try sendAll(buffer, flags: flags) }
        }
        try result.get()
    }

    /// Sends the buffers `vectors` point at, in order, in one call. `sendmsg(2)`.
    /// - Returns: the number of bytes sent (perhaps ending within a buffer).
    public func send(gathering vectors: UnsafeMutableBufferPointer<iovec>, flags: MessageFlags = .noSignal)
        throws(Errno) -> Int
    {
        try _send(gathering: vectors, flags: flags).get()
    }

    func _send(gathering vectors: UnsafeMutableBufferPointer<iovec>, flags: MessageFlags) -> Result<Int, Errno> {
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        return valueOrErrno { systemSendmsg(rawValue, &message, flags.rawValue) }
    }

    /// Receives at most `buffer.count` bytes. `recv(2)`.
    /// - Returns: the number of bytes received; 0 when the peer has closed its side.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: MessageFlags = []) throws(Errno) -> Int {
        try _receive(into: buffer, flags: flags).get()
    }

    func _receive(into buffer: UnsafeMutableRawBufferPointer, flags: MessageFlags) -> Result<Int, Errno> {
        valueOrErrno { systemRecv(rawValue, buffer.baseAddress, buffer.count, flags.rawValue) }
    }

    /// Receives one datagram of at most `buffer.count` bytes, and the kernel's count of datagrams it dropped on this
    /// socket so far into `dropped` (left as it was unless ``SocketOption/receiveQueueOverflow`` is on).
    /// `recvmsg(2)` with an `SO_RXQ_OVFL` control message.
    /// - Returns: the number of bytes received.
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: MessageFlags = [], dropped: inout UInt32)
        throws(Errno) -> Int
    {
        try _receive(into: buffer, flags: flags, dropped: &dropped).get()
    }

    func _receive(into buffer: UnsafeMutableRawBufferPointer, flags: MessageFlags, dropped: inout UInt32)
        -> Result<Int, Errno>
    {
        valueOrErrno { systemRecvCountingDrops(rawValue, buffer.baseAddress, buffer.count, flags.rawValue, &dropped) }
    }

    /// Ends one direction (or both) of a connection; the descriptor stays open. `shutdown(2)`.
    public func shutdown(_ direction: ShutdownDirection) throws(Errno) {
        try nothingOrErrno { systemShutdown(rawValue, direction.rawValue) }.get()
    }
}
