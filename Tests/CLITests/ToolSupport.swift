import Foundation

/// Running `nmea` and the outside tools the plot, completion, man page and plug-and-log tests check against.
enum ToolSupport {
    struct Outcome {
        var status: Int32
        var output: Data
        var error: String

        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// The built `nmea`, beside the test runner.
    static let nmea: String = {
        let runner =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.isExecutableFile(atPath: directory.path + "/nmea") {
            directory.deleteLastPathComponent()
        }
        return directory.path + "/nmea"
    }()

    /// The repository's root directory.
    static let repository: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The full path of `name` on `PATH`, or `nil`.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`; standard input from `input`;
    /// the environment is this process's without the variables in `unset`, with `environment` added.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil,
        environment: [String: String]? = nil, unset: [String] = [], directory: URL? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: executable.hasPrefix("/")
                ? executable
                : (which(executable) ?? executable))
        process.arguments = arguments
        if environment != nil || !unset.isEmpty {
            var inherited = ProcessInfo.processInfo.environment
            for name in unset { inherited[name] = nil }
            process.environment = inherited.merging(environment ?? [:]) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let scratch = FileManager.default.temporaryDirectory
        let outputURL = scratch.appendingPathComponent("tool-out-\(UUID().uuidString)")
        let errorURL = scratch.appendingPathComponent("tool-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        var inputURL: URL?
        if let input {
            let url = scratch.appendingPathComponent("tool-in-\(UUID().uuidString)")
            try input.write(to: url)
            inputURL = url
            process.standardInput = try FileHandle(forReadingFrom: url)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        defer { if let inputURL { try? FileManager.default.removeItem(at: inputURL) } }
        try process.run()
        process.waitUntilExit()
        try outputHandle.close()
        try errorHandle.close()
        return Outcome(
            status: process.terminationStatus, output: try Data(contentsOf: outputURL),
            error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// Runs `nmea` with `arguments`.
    @discardableResult
    static func nmea(_ arguments: [String], input: Data? = nil) throws -> Outcome {
        try run(nmea, arguments, input: input)
    }

    /// A new empty directory for one test.
    static func temporaryDirectory(_ name: String = #function) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("nmea-\(name.filter(\.isLetter))-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
