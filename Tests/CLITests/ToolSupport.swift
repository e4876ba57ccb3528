import Foundation
import TestSupport

/// Running `nmea` and the outside tools the plot, completion, man page and plug-and-log tests check against:
/// ``ChildProcess`` with Foundation's `Data` and `URL` at the edges.
enum ToolSupport {
    struct Outcome {
        var status: Int32
        var output: Data
        var error: String

        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// The built `nmea`, beside the test runner.
    static var nmea: String { BuiltExecutables.nmea }

    /// The repository's root directory.
    static let repository = URL(fileURLWithPath: Locations.packageRoot, isDirectory: true)

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`; standard input from `input`;
    /// the environment is this process's without the variables in `unset`, with `environment` added; with
    /// `mergingError`, standard error is written into standard output (and ``Outcome/error`` is all of it).
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil,
        environment: [String: String]? = nil, unset: [String] = [], directory: URL? = nil, mergingError: Bool = false
    ) throws -> Outcome {
        let outcome = try ChildProcess.run(
            [executable] + arguments, input: input.map { .bytes(Array($0)) } ?? .null,
            environment: environment ?? [:], unsetting: unset, directory: directory?.path, mergingError: mergingError)
        let output = Data(outcome.outputBytes)
        return Outcome(
            status: outcome.status, output: output,
            error: mergingError ? String(decoding: output, as: UTF8.self) : outcome.error)
    }

    /// Runs `nmea` with `arguments`.
    @discardableResult
    static func nmea(_ arguments: [String], input: Data? = nil) throws -> Outcome {
        try run(nmea, arguments, input: input)
    }

    /// A new empty directory for one test (``TemporaryDirectory``, as a URL).
    static func temporaryDirectory(_ name: String = #function) -> URL { TemporaryDirectory(name).url }
}
