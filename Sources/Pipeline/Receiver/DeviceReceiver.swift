import SerialPort
import Threading

/// A GPS receiver on a serial port feeding a pipeline: the ``ReceiverConnection`` (autobaud, unplug and replug) runs
/// on a thread of its own and pushes what it reads through the pipeline's feeder, its connection changes as status
/// records.
///
///     let pipeline = ReceiverPipeline()
///     let receiver = DeviceReceiver(selector: .auto, baudRate: nil, pipeline: pipeline)
///     receiver.start()
///     …                                       // consumers read the pipeline's ring
///     receiver.stop()                         // the pipeline publishes its end and closes the ring
///     if let error = receiver.failure { … }   // what ended it, when something did
///
/// `nmea record`, `nmea serve` and `nmea watch` read receivers through it.
public final class DeviceReceiver: Sendable {
    public let pipeline: ReceiverPipeline
    public let connection: ReceiverConnection
    private let thread = Locked<NativeThread?>(nil)
    private let failed = Locked<SerialPortError?>(nil)

    /// A receiver chosen by `selector`, at `baudRate` (`nil`: autobaud), for `pipeline`; `prepare` talks to it at
    /// each connection (``ReceiverConnection/Options/prepare``), `writer` sends it bytes while it is read
    /// (``ReceiverConnection/Options/writer``).
    public init(
        selector: DeviceSelector, baudRate: BaudRate?, pipeline: ReceiverPipeline,
        prepare: (@Sendable (_ connection: any SerialConnection, _ path: String, _ rate: BaudRate) -> Void)? = nil,
        writer: PortWriter? = nil
    ) {
        var options = ReceiverConnection.Options()
        options.baudRate = baudRate
        options.prepare = prepare
        options.writer = writer
        self.pipeline = pipeline
        connection = ReceiverConnection(selector, options: options)
    }

    /// The error that ended the connection, if one did (a named device missing, no permission, busy…).
    public var failure: SerialPortError? { failed.withLock { $0 } }

    /// Starts reading on a thread of its own (not Dispatch: its pool has one thread per core, and this blocks).
    public func start() {
        let connection = connection
        let pipeline = pipeline
        let receiver = self
        thread.withLock {
            $0 = NativeThread {
                pipeline.feed { feeder in
                    do throws(SerialPortError) {
                        try connection.run { event in
                            switch event {
                            case .data(let bytes): feeder.ingest(bytes)
                            case .idle: feeder.idle()
                            case .status(let status): feeder.report(ReceiverStatus(status))
                            }
                        }
                        feeder.finish(.stopped)
                    } catch {
                        receiver.failed.withLock { $0 = error }
                        feeder.report(
                            .disconnected(
                                device: error.path, reason: .failed,
                                errorNumber: error.errno?.rawValue ?? 0,
                                detail: error.description))
                        feeder.finish(.stopped)
                    }
                }
            }
        }
    }

    /// Asks the connection to stop and waits for its thread; the pipeline's ring is closed after.
    public func stop() {
        connection.stop()
        thread.take()?.join()
    }

    /// `true` once the connection thread has ended (stopped, or failed).
    public var hasEnded: Bool { pipeline.status.state == .ended }
}

extension ReceiverStatus {
    /// The pipeline's record of a connection change.
    public init(_ status: ConnectionStatus) {
        switch status {
        case .searching(let selector):
            self = .searching(device: String(describing: selector))
        case .autobauding(let path, let rate):
            self = .connecting(device: path, baudRate: UInt32(rate.rawValue))
        case .connected(let device):
            self = .connected(
                device: device.path, baudRate: UInt32(device.baudRate.rawValue),
                detail: device.isReconnection ? "reconnected" : "")
        case .disconnected(let path, let reason):
            switch reason {
            case .endOfFile: self = .disconnected(device: path, reason: .endOfFile)
            case .hangUp: self = .disconnected(device: path, reason: .hangUp)
            case .error(let errno): self = .disconnected(device: path, reason: .readError, errorNumber: errno.rawValue)
            case .removed: self = .disconnected(device: path, reason: .removed)
            }
        case .unavailable(let path, let error):
            self = .disconnected(
                device: path, reason: .unavailable, errorNumber: error.errno?.rawValue ?? 0,
                detail: error.description)
        case .stopped:
            self = .ended(reason: .stopped)
        }
    }
}
