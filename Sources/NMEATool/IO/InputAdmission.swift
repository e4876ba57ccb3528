import Glibc
import System
import Tracks

/// The one admission step of every command that reads inputs: each input it names is checked (it exists, can be
/// read, and is a regular file or a stream) before the command opens any output, so a bad input among good ones
/// stops the command while every output is still as it was.
///
/// ``SentenceInput`` admits its inputs as it is made, and every reading command makes it before its outputs
/// (`parse`, `convert`, `trips`, `plot`, `publish`); `convert`'s `{name}` batches admit every input before the first
/// conversion starts.
struct InputAdmission {
    /// An input that passed: how it is read, and therefore how the outputs made from it are published.
    enum Kind: Equatable {
        /// A regular file (or standard input redirected from one): read to its end, then done.
        case file
        /// A pipe, terminal, device, FIFO or socket, as a path or as standard input: live, read until it ends.
        case stream
        /// A `tcp://`, `udp://` or `gpsd://` source.
        case network
    }

    /// The inputs in the order given, each with its kind.
    let inputs: [(path: String, kind: Kind)]

    /// `true` when any input is live (a stream or a network source) rather than a recorded file.
    var hasLiveInput: Bool { inputs.contains { $0.kind != .file } }

    /// The one publication rule: when a file output takes the place of what its path held. Made from files, every
    /// output is completed beside its path, and all are put in place only once the command has read every input
    /// and written every output (``Publication/onRequest``, which ``TrackOutputs`` requests: a failure anywhere
    /// leaves every output as it was); made from a live input, each is in place from its first point and a complete
    /// document after every flush, to be read while it grows (``Publication/atFirstPoint``).
    var publication: Publication { hasLiveInput ? .atFirstPoint : .onRequest }

    /// Checks every path of `paths` (`-` is standard input; `tcp://`… a network source, whose syntax is checked).
    /// - Throws: ``RuntimeError`` naming every input refused, one a line, and saying that nothing was written.
    init(_ paths: [String]) throws(RuntimeError) {
        var admitted: [(String, Kind)] = []
        var problems: [String] = []
        for path in paths {
            do {
                admitted.append((path, try Self.admit(path)))
            } catch {
                problems.append(error.message)
            }
        }
        guard problems.isEmpty else {
            let count = problems.count
            let summary =
                paths.count == 1
                ? "" : "\n\(count) of \(paths.count) inputs cannot be read: nothing was read and no output was written"
            throw RuntimeError(problems.joined(separator: "\nError: ") + summary)
        }
        inputs = admitted
    }

    /// The kind of one input, or why it cannot be read.
    private static func admit(_ path: String) throws(RuntimeError) -> Kind {
        if try NetworkInput.address(path) != nil { return .network }
        if path == "-" {
            guard let status = try? FileDescriptor.standardInput.status() else {
                throw RuntimeError("standard input ('-') is not open")
            }
            switch status.kind {
            case .regular: return .file
            case .directory: throw RuntimeError("standard input ('-') is a directory; redirect a log file into it")
            default: return .stream
            }
        }
        let status: FileStatus
        do {
            status = try FileStatus(path: path)
        } catch {
            throw RuntimeError("cannot open '\(path)': \(error)")
        }
        switch status.kind {
        case .regular:
            // Opened and closed at once: permission, and any other reason open(2) gives, is found now.
            do {
                let probe = try FileDescriptor.open(path, .readOnly)
                try? probe.close()
            } catch {
                throw RuntimeError("cannot open '\(path)': \(error)")
            }
            return .file
        case .directory:
            throw RuntimeError(
                "'\(path)' is a directory; give the log files in it ('\(path.hasSuffix("/") ? path : path + "/")*')")
        case .characterDevice, .fifo, .socket:
            // Not opened here: opening a FIFO waits for its writer, and opening a serial port may reset a receiver.
            if access(path, R_OK) != 0 { throw RuntimeError("cannot open '\(path)': \(Errno.current)") }
            return .stream
        case .blockDevice, .symbolicLink, .other:
            throw RuntimeError("'\(path)' is not a file, a pipe or a device that can be read as a log")
        }
    }
}
