import NMEA
import Pipeline
import SerialPort
import System
import UBX

/// What a live command's `<source>` names (`serve`, `time`): a receiver, a file replayed, standard input, a FIFO or a
/// network source; and reading it into a pipeline.
enum ReceiverSource {
    case device(DeviceSelector)
    case file(String)
    case standardInput
    /// A FIFO: live bytes, like standard input.
    case stream(String)
    /// `tcp://`, `udp://`, `gpsd://`.
    case network(NetworkSourceAddress)

    /// What `argument` names: `-`, a network source, an existing file or FIFO, or a receiver (a device, `auto`, a
    /// serial number).
    /// - Throws: ``UsageError`` for a malformed source URL or `--baud` with one; ``RuntimeError`` for a path that
    ///   does not exist.
    static func classify(_ argument: String, receiver: ReceiverOptions, _ arguments: ParsedArguments) throws -> Self {
        if argument == "-" { return .standardInput }
        if let address = try receiver.networkSource(argument, arguments) { return .network(address) }
        if let status = try? FileStatus(path: argument) {
            switch status.kind {
            case .regular: return .file(argument)
            case .fifo: return .stream(argument)
            default: return .device(DeviceSelector(argument: argument))
            }
        }
        if argument.contains("/") && !argument.hasPrefix("/dev/") {
            throw RuntimeError("\(argument): \(Errno.noSuchFileOrDirectory)")
        }
        return .device(DeviceSelector(argument: argument))
    }

    /// `true` for a receiver (a device or a network source), whose fixes are now.
    var isReceiver: Bool {
        switch self {
        case .device, .network: true
        case .file, .standardInput, .stream: false
        }
    }

    /// `true` for a receiver on a serial port (one that can be written to).
    var isDevice: Bool {
        if case .device = self { return true }
        return false
    }

    /// Position at once; a receiver's fixes without a date get the system clock's.
    var pipelineConfiguration: ReceiverPipeline.Configuration {
        var configuration = ReceiverPipeline.Configuration.positionAtOnce
        if isReceiver {
            let today = UTCDate(containing: WallClock.nanosecondsSinceEpoch())
            configuration.assembler.fallbackDate = today
            configuration.assembler.referenceDate = today
        }
        return configuration
    }

    /// Starts reading into `pipeline`: a receiver (returned, to stop it and ask why it ended), a file replayed at
    /// its pace, standard input or a FIFO (live, or replayed with `speed`); `writer` writes to a device's port. A replay waits for `reader` (the page's
    /// consumer), so that what the page shows of a log is all of it.
    func start(
        speed: Double??, baudRate: BaudRate?, on pipeline: ReceiverPipeline,
        waitingFor reader: RingConsumer<PipelineRecord>? = nil,
        configuring settings: ReceiverSettings = ReceiverSettings(),
        command: String = "nmea", writer: PortWriter? = nil
    ) throws(RuntimeError) -> RunningReceiver? {
        do throws(FileByteSource.OpenError) {
            switch self {
            case .device(let selector):
                let receiver = RunningReceiver(
                    selector: selector, baudRate: baudRate, pipeline: pipeline, settings: settings, command: command,
                    writer: writer)
                receiver.start()
                return receiver
            case .network(let address):
                let receiver = RunningReceiver(address, pipeline: pipeline)
                receiver.start()
                return receiver
            case .file(let path):
                pipeline.start(try ReplayByteSource(path: path, speed: speed ?? 1, waitingFor: reader))
            case .standardInput:
                let input = FileByteSource(fileDescriptor: .standardInput, name: "stdin")
                if let speed {
                    pipeline.start(ReplayByteSource(input, speed: speed, waitingFor: reader))
                } else {
                    pipeline.start(input)
                }
            case .stream(let path):
                if let speed {
                    pipeline.start(try ReplayByteSource(path: path, speed: speed, waitingFor: reader))
                } else {
                    pipeline.start(try FileByteSource(path: path))
                }
            }
        } catch {
            throw RuntimeError(error.description)
        }
        return nil
    }
}
