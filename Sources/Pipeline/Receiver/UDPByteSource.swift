import Glibc
import System
import Threading

/// NMEA received as UDP datagrams (`udp://[ADDR]:PORT`): unicast and broadcast on the port, and a multicast group's
/// when ADDR is one (the group is joined, and the port shared with other listeners).
///
/// Each datagram holds one or more whole sentences; one that does not end in a line ending is given one, so its
/// last sentence is framed at once and never glued to the next datagram's first. A datagram larger than the read
/// buffer is cut by the kernel; its cut sentence is then rejected (bad checksum), and counted so, by the framer.
///
/// Reports ``ReceiverStatus/connected(device:baudRate:detail:)`` (`listening`) once bound. A port in use (by a
/// listener that is not sharing it), or an address that does not resolve, ends the source with
/// ``ReceiverStatus/Reason/failed`` and the message in `failure`. Datagrams that arrive faster than they are read
/// wait in the kernel's receive buffer, which drops what overflows it; the kernel counts those (`SO_RXQ_OVFL`), and
/// a rise in the count is reported as a status (`udp://:10110: listening; 12 datagrams dropped…`), at most once a
/// second, the total in ``droppedDatagrams``.
public final class UDPByteSource: ByteSource {
    public let address: NetworkSourceAddress
    private let name: String
    private let failure: Locked<String?>
    private var descriptor: FileDescriptor?
    private var ended: ReceiverStatus.Reason?
    /// Datagrams the kernel dropped on the socket so far, as the last one received said.
    public private(set) var droppedDatagrams: UInt32 = 0
    private var reportedDrops: UInt32 = 0
    private var lastDropReport = MonotonicTime(nanoseconds: 0)

    /// A listener for `address` (its host and port). `failure` receives the message that ends it, if one does.
    public init(_ address: NetworkSourceAddress, failure: Locked<String?> = Locked(nil)) {
        self.address = address
        self.failure = failure
        name = address.description
    }

    deinit { try? descriptor?.close() }

    /// - Complexity: one `poll` and one `recv` per call.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if let ended { return .end(ended) }
        guard let descriptor else {
            do throws(UDPListenError) {
                descriptor = try Self.listen(address)
                return .status(.connected(device: name, detail: "listening"))
            } catch {
                failure.withLock { $0 = error.message }
                ended = .failed
                return .status(
                    .disconnected(device: name, reason: .failed, errorNumber: error.errno, detail: error.message))
            }
        }
        if droppedDatagrams != reportedDrops && MonotonicTime.now() - lastDropReport >= .seconds(1) {
            reportedDrops = droppedDatagrams
            lastDropReport = .now()
            let detail = "listening; \(droppedDatagrams) datagrams dropped by the kernel (they came faster than read)"
            return .status(.connected(device: name, detail: detail))
        }
        guard buffer.count > 2 else { return .timedOut }
        let count: Int
        do throws(Errno) {
            let events = try descriptor.poll(.readable, timeoutMilliseconds: timeout.pollMilliseconds)
            if events.isEmpty { return .timedOut }
            // Two bytes kept free for a line ending.
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<(buffer.count - 2)])
            count = try descriptor.receive(into: room, dropped: &droppedDatagrams)
        } catch .wouldBlock {
            return .timedOut
        } catch {
            // ECONNREFUSED and the like are not errors of a listener: carry on.
            return .timedOut
        }
        guard count > 0 else { return .timedOut }
        if buffer[count - 1] != 0x0A {
            buffer[count] = 0x0D
            buffer[count + 1] = 0x0A
            return .bytes(count + 2)
        }
        return .bytes(count)
    }

    /// Why a UDP port could not be listened on.
    struct UDPListenError: Error {
        var message: String
        var errno: Int32
    }

    /// `getaddrinfo` → `socket` → `bind` (and, for a group, `SO_REUSEADDR` and `IP_ADD_MEMBERSHIP`), non-blocking.
    static func listen(_ address: NetworkSourceAddress) throws(UDPListenError) -> FileDescriptor {
        let name = address.description
        var candidates: [ResolvedAddress]
        do {
            candidates = try SocketAddress.resolve(
                host: address.host, port: address.port, passive: true, type: Int32(SOCK_DGRAM.rawValue))
        } catch {
            throw UDPListenError(message: "cannot resolve '\(address.host ?? "")' (\(name)): \(error)", errno: 0)
        }
        // Without an address: IPv4's every interface first (broadcasts are IPv4's).
        if address.host == nil { candidates.sort { $0.family == AF_INET && $1.family != AF_INET } }
        var last = UDPListenError(message: "cannot listen on \(name): no address", errno: 0)
        for candidate in candidates {
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.socket(
                    family: candidate.family, type: Int32(SOCK_DGRAM.rawValue), protocol: candidate.protocol,
                    nonBlocking: true)
            } catch {
                last = UDPListenError(message: "cannot listen on \(name): \(error)", errno: error.rawValue)
                continue
            }
            do throws(Errno) {
                let group = candidate.address
                if group.isMulticast {
                    // Several programs may listen to one group: share the port, bind the wildcard, join.
                    try descriptor.setOption(.reuseAddress, 1)
                    let wildcard = group.family == AF_INET6 ? "::" : "0.0.0.0"
                    let anyAddress = try? SocketAddress.resolve(
                        host: wildcard, port: address.port, passive: true, type: Int32(SOCK_DGRAM.rawValue))
                    guard let any = anyAddress?.first else { throw Errno.addressFamilyNotSupported }
                    try descriptor.bind(to: any.address)
                    try descriptor.joinMulticastGroup(group)
                } else {
                    try descriptor.bind(to: group)
                }
                try? descriptor.setOption(.receiveQueueOverflow, 1)
                return descriptor
            } catch {
                last = UDPListenError(message: "cannot listen on \(name): \(error)", errno: error.rawValue)
                try? descriptor.close()
            }
        }
        throw last
    }
}
