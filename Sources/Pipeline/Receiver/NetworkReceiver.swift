import Threading

/// A receiver on the network feeding a pipeline: the source for a `tcp://`, `udp://` or `gpsd://` address, run on
/// the pipeline's reader thread (``ReceiverPipeline/start(_:)``).
///
///     let receiver = NetworkReceiver(address, pipeline: pipeline)
///     receiver.start()
///     …                                        // consumers read the pipeline's ring
///     receiver.stop()                          // the pipeline publishes its end and closes the ring
///     if let message = receiver.failure { … }  // what ended it: a name that does not resolve, a port in use
///
/// What ``SerialPort/DeviceReceiver`` is for a serial port; `nmea record`, `serve` and `watch` take either.
public final class NetworkReceiver: Sendable {
    public let address: NetworkSourceAddress
    public let pipeline: ReceiverPipeline
    private let reconnects: Bool
    private let failed = Locked<String?>(nil)

    /// `reconnects`: try a refused or dropped TCP connection again, with backoff (see ``TCPByteSource``).
    public init(_ address: NetworkSourceAddress, pipeline: ReceiverPipeline, reconnects: Bool = true) {
        self.address = address
        self.pipeline = pipeline
        self.reconnects = reconnects
    }

    /// Starts the pipeline's reader thread on the source. Call once.
    public func start() {
        pipeline.start(address.makeByteSource(reconnects: reconnects, failure: failed))
    }

    /// Stops the pipeline (its reader thread, within its read timeout) and waits for it.
    public func stop() { pipeline.stop() }

    /// The message that ended the source, if something did.
    public var failure: String? { failed.withLock { $0 } }

    /// `true` once the source has ended (given up, or stopped).
    public var hasEnded: Bool { pipeline.status.state == .ended }
}
