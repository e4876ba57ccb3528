import Foundation

/// Runs the built `nmea` as a user would, and collects its exit status, standard output and standard error.
enum Tool {
    /// The built `nmea`, found beside the test runner.
    static var path: String { ToolSupport.nmea }

    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `nmea arguments…` with `input` on standard input (or /dev/null).
    static func run(_ arguments: [String], input: String? = nil) throws -> Outcome {
        let outcome = try ToolSupport.run(path, arguments, input: input.map { Data($0.utf8) })
        // Output may hold binary bytes (simulated UBX frames): decoded leniently.
        return Outcome(status: outcome.status, output: outcome.text, error: outcome.error)
    }

    /// A fresh directory under the temporary directory.
    static func temporaryDirectory(_ name: String = #function) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("nmea-\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
