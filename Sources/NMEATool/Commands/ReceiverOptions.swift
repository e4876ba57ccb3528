import Pipeline
import SerialPort
import UBX

/// What the commands that read a receiver share (`record`, `serve`, `time`, `watch`): `--baud RATE|auto`, declared
/// once with each command's own help, and telling a network source from a device.
struct ReceiverOptions: Sendable {
    /// `--baud`: a standard rate, or `nil` to find it (autobaud).
    let baud: Option<BaudRate?>

    init(baudHelp: String) {
        let spec = OptionSpec(long: "baud", valueName: "rate", help: baudHelp, defaultValue: "auto")
        baud = Option(spec, default: nil) { text throws(ValueError) in
            guard text != "auto" else { return nil }
            guard let number = Int(text), let rate = BaudRate(rawValue: number) else {
                throw .invalid(text, because: "expected a standard rate (4800…921600) or 'auto'")
            }
            return rate
        }
    }

    /// `--baud RATE|auto`: a standard rate, or `nil` to find it (autobaud).
    func baudRate(_ arguments: ParsedArguments) throws(UsageError) -> BaudRate? {
        try arguments.value(baud)
    }

    /// The network source a receiver argument names (`tcp://`, `udp://`, `gpsd://`); `nil` for a device, a file or
    /// `-`. A network source takes no `--baud`.
    /// - Throws: ``UsageError`` for a malformed source URL, or `--baud` with a network source.
    func networkSource(_ argument: String?, _ arguments: ParsedArguments) throws(UsageError)
        -> NetworkSourceAddress?
    {
        guard let argument else { return nil }
        let address: NetworkSourceAddress?
        do {
            address = try NetworkSourceAddress.parse(argument)
        } catch {
            throw arguments.usageError(error.description.prefix(1).uppercased() + error.description.dropFirst())
        }
        // Any `--baud` but `auto`, a rate or not.
        if address != nil, arguments.isGiven(baud), (try? arguments.value(baud)) != .some(nil) {
            throw arguments.usageError("--baud is for a receiver on a serial port, not \(argument)")
        }
        return address
    }
}

/// A receiver being read into a pipeline: a serial device (``DeviceReceiver``: autobaud, unplug and replug) or a
/// network source (``NetworkReceiver``: reconnects with backoff). The commands treat both alike.
final class RunningReceiver {
    private let device: DeviceReceiver?
    private let network: NetworkReceiver?

    /// A serial device chosen by `selector`, configured as `settings` ask at each connection; `writer` (RTCM
    /// corrections) writes to its port while it is read.
    init(
        selector: DeviceSelector, baudRate: BaudRate?, pipeline: ReceiverPipeline,
        settings: ReceiverSettings = ReceiverSettings(), command: String = "nmea", writer: PortWriter? = nil
    ) {
        device = DeviceReceiver(
            selector: selector, baudRate: baudRate, pipeline: pipeline,
            prepare: ReceiverConfigurator.prepare(settings, command: command), writer: writer)
        network = nil
    }

    /// A `tcp://`, `udp://` or `gpsd://` source.
    init(_ address: NetworkSourceAddress, pipeline: ReceiverPipeline) {
        device = nil
        network = NetworkReceiver(address, pipeline: pipeline)
    }

    func start() {
        device?.start()
        network?.start()
    }

    func stop() {
        device?.stop()
        network?.stop()
    }

    /// `true` once the connection has ended (stopped, or failed).
    var hasEnded: Bool { device?.hasEnded ?? network?.hasEnded ?? true }

    /// Why the receiver could not be read, when that ended it.
    var failure: String? { device?.failure?.description ?? network?.failure }
}
