import Foundation

/// Runs the built `nmea` as a user would, and collects its exit status, standard output and standard error.
enum Tool {
    /// The built `nmea`, found beside the test runner.
    static let path: String = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.isExecutableFile(atPath: directory.path + "/nmea") {
            directory.deleteLastPathComponent()
        }
        return directory.path + "/nmea"
    }()

    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `nmea arguments…` with `input` on standard input (or /dev/null).
    static func run(_ arguments: [String], input: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory
        let outputURL = directory.appendingPathComponent("nmea-out-\(UUID().uuidString)")
        let errorURL = directory.appendingPathComponent("nmea-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        if let input {
            let inputURL = directory.appendingPathComponent("nmea-in-\(UUID().uuidString)")
            try Data(input.utf8).write(to: inputURL)
            defer { try? FileManager.default.removeItem(at: inputURL) }
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
            try process.run()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        process.waitUntilExit()
        // Output may hold binary bytes (simulated UBX frames): decode leniently.
        return Outcome(status: process.terminationStatus,
                       output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
                       error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// A fresh directory under the temporary directory.
    static func temporaryDirectory(_ name: String = #function) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("nmea-\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
