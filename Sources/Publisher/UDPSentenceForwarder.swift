import Glibc
import Pipeline
import System
import Threading

/// Each sentence as received, sent on as one UDP datagram ending in CR LF (`--nmea-udp HOST:PORT`), as gpsd's
/// `gps2udp` does: for chart plotters and loggers that listen on a port (10110 is NMEA's).
///
///     let forwarder = try UDPSentenceForwarder.started(pipeline: pipeline, host: "192.168.1.255", port: 10110)
///     …
///     forwarder.stop()
///     forwarder.statistics     // datagrams sent, and those the kernel refused (counted, never retried)
///
/// A ring consumer of the pipeline's sentence records (the pipeline must publish them). The socket is connected to
/// the destination and may send to a broadcast address (`SO_BROADCAST`). A send never waits: a datagram the kernel
/// cannot take at once (its buffer full, no route, a refusal reported back by ICMP) is dropped and counted in
/// ``Statistics/failed``; a forwarder that falls a whole ring behind counts the records it lost in
/// ``Statistics/lostRecords``.
public final class UDPSentenceForwarder: Sendable {
    /// What the forwarder has done.
    public struct Statistics: Sendable, Hashable {
        /// Datagrams sent.
        public var sent = 0
        /// Datagrams the kernel did not take.
        public var failed = 0
        /// Pipeline records overwritten before the forwarder read them.
        public var lostRecords = 0
    }

    /// `HOST:PORT` as given, for messages.
    public let destination: String
    private let loop: RingConsumerLoop
    private let sender: Sender

    /// A destination that could not be resolved or connected to.
    public struct SetupError: Error, Sendable, Hashable, CustomStringConvertible {
        public var destination: String
        public var message: String
        public var description: String { "cannot send to \(destination): \(message)" }
    }

    private init(destination: String, descriptor: FileDescriptor, pipeline: ReceiverPipeline) {
        self.destination = destination
        sender = Sender(descriptor: descriptor)
        loop = RingConsumerLoop(sender, name: "nmea-udp", pipeline: pipeline)
    }

    /// Resolves `host`, makes the socket (before the pipeline starts, to miss nothing) and starts forwarding.
    /// - Throws: ``SetupError`` when `host` does not resolve or no socket can be connected to it.
    public static func started(pipeline: ReceiverPipeline, host: String, port: UInt16) throws(SetupError)
        -> UDPSentenceForwarder
    {
        let destination = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let candidates: [ResolvedAddress]
        do {
            candidates = try SocketAddress.resolve(host: host, port: port, type: Int32(SOCK_DGRAM.rawValue))
        } catch {
            throw SetupError(destination: destination, message: error.description)
        }
        var message = "no address"
        for candidate in candidates {
            do throws(Errno) {
                let descriptor = try FileDescriptor.socket(
                    family: candidate.family, type: Int32(SOCK_DGRAM.rawValue), protocol: candidate.protocol,
                    nonBlocking: true)
                do throws(Errno) {
                    try? descriptor.setOption(.broadcast, 1)
                    try descriptor.connect(to: candidate.address)
                } catch {
                    try? descriptor.close()
                    throw error
                }
                let forwarder = UDPSentenceForwarder(
                    destination: destination, descriptor: descriptor, pipeline: pipeline)
                forwarder.loop.start(threadName: "nmea-udp")
                return forwarder
            } catch {
                message = error.description
            }
        }
        throw SetupError(destination: destination, message: message)
    }

    /// Stops forwarding (what the ring still holds is not sent) and closes the socket.
    public func stop() {
        loop.stop()
    }

    /// Sends what the ring still holds, once the pipeline has ended (its ring closed), then closes the socket.
    public func finish() {
        loop.join()
    }

    public var statistics: Statistics {
        var statistics = sender.counts.withLock { $0 }
        statistics.lostRecords = Int(loop.lost)
        return statistics
    }

    /// The consumer: one `send(2)` per sentence record.
    private final class Sender: RecordConsumer, @unchecked Sendable {
        let descriptor: FileDescriptor
        let counts = Locked(Statistics())
        /// A sentence and its CR LF.
        private var datagram = [UInt8](repeating: 0, count: PipelineRecord.sentenceCapacity + 2)

        init(descriptor: FileDescriptor) {
            self.descriptor = descriptor
        }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            var sent = 0
            var failed = 0
            for record in records {
                guard let sentence = record.sentence else { continue }
                let ok = sentence.withBytes { bytes in
                    datagram.withUnsafeMutableBytes { buffer in
                        buffer.copyMemory(from: bytes)
                        buffer[bytes.count] = 0x0D
                        buffer[bytes.count + 1] = 0x0A
                        let whole = UnsafeRawBufferPointer(rebasing: buffer[..<(bytes.count + 2)])
                        return (try? descriptor.send(whole, flags: [.noSignal, .dontWait])) == whole.count
                    }
                }
                if ok { sent += 1 } else { failed += 1 }
            }
            if sent > 0 || failed > 0 {
                counts.withLock {
                    $0.sent += sent
                    $0.failed += failed
                }
            }
        }

        func finish() { try? descriptor.close() }
    }
}
