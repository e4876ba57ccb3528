import Foundation
import TestSupport

/// Runs the built `nmea` as a user would, and collects its exit status, standard output and standard error.
enum Tool {
    /// The built `nmea`, found beside the test runner.
    static var path: String { BuiltExecutables.nmea }

    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `nmea arguments…` with `input` on standard input (or /dev/null).
    static func run(_ arguments: [String], input: String? = nil) throws -> Outcome {
        let outcome = try ChildProcess.run([path] + arguments, input: input.map { .bytes(Array($0.utf8)) } ?? .null)
        // Output may hold binary bytes (simulated UBX frames): decoded leniently.
        return Outcome(status: outcome.status, output: outcome.output, error: outcome.error)
    }

    /// A fresh directory under the temporary directory (``TemporaryDirectory``, as a URL).
    static func temporaryDirectory(_ name: String = #function) -> URL { TemporaryDirectory(name).url }
}

extension TemporaryDirectory {
    /// The directory as a file URL, for Foundation's file APIs.
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }
}
