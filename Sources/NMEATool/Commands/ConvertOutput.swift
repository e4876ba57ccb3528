import System
import Tracks

/// The outputs of `nmea convert`: each `-o` with its format, and the writers made for them.
struct ConvertOutput {
    enum Format: String {
        case gpx, geojson
    }

    let path: String
    let format: Format

    /// The outputs named by `-o`, each with the format its extension names, or `--format` for `-` and other names.
    /// - Throws: ``UsageError`` when a format cannot be told, contradicts `--format`, or an output repeats.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [ConvertOutput] {
        let given = arguments.value("format").flatMap(Format.init(rawValue:))
        var outputs: [ConvertOutput] = []
        for path in arguments.allValues("output") {
            if outputs.contains(where: { $0.path == path }) {
                throw arguments.usageError("The output '\(path)' is given more than once")
            }
            let named = formatNamed(by: path)
            if path == "-" && given == nil {
                throw arguments.usageError(
                    "Writing to standard output ('-o -') needs '--format gpx' or '--format geojson'")
            }
            if let named, let given, named != given {
                throw arguments.usageError(
                    "The output '\(path)' is named as \(named.rawValue) but '--format \(given.rawValue)' was given")
            }
            guard let format = named ?? given else {
                throw arguments.usageError(
                    "Cannot tell the format of '\(path)': name it .gpx, .geojson or .json, or give '--format'")
            }
            outputs.append(ConvertOutput(path: path, format: format))
        }
        return outputs
    }

    /// The format a file name's extension stands for (case-insensitive), or `nil`.
    static func formatNamed(by path: String) -> Format? {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        if name.hasSuffix(".gpx") { return .gpx }
        if name.hasSuffix(".geojson") || name.hasSuffix(".json") { return .geojson }
        return nil
    }

    /// Creates the writer: standard output for `-`, else the file (created or emptied).
    func makeWriter(track: TrackOptions, includePoints: Bool) throws(TrackError) -> any TrackWriter {
        let geojson = GeoJSONWriter.Options(track: track, includePoints: includePoints)
        switch (format, path == "-") {
        case (.gpx, true): return try GPXWriter(streamingTo: .standardOutput, options: track)
        case (.gpx, false): return try GPXWriter(path: path, options: track)
        case (.geojson, true): return try GeoJSONWriter(streamingTo: .standardOutput, options: geojson)
        case (.geojson, false): return try GeoJSONWriter(path: path, options: geojson)
        }
    }
}

/// `true` when `path` (or standard input for `-`) is a live source — a pipe, terminal or device — rather than a
/// recorded file: live fixes are flushed one by one.
func isLiveSource(_ path: String) -> Bool {
    guard let status = fileStatus(path) else { return false }
    return status.kind != .regular
}

/// The total size of the regular files among `paths` (standard input counted when it is a regular file).
func regularFileBytes(_ paths: [String]) -> Int {
    paths.reduce(0) { total, path in
        guard let status = fileStatus(path), status.kind == .regular else { return total }
        return total + status.size
    }
}

/// What `stat(2)` says about `path` (`fstat(2)` of standard input for `-`); `nil` when it cannot be read.
private func fileStatus(_ path: String) -> FileStatus? {
    path == "-" ? try? FileDescriptor.standardInput.status() : try? FileStatus(path: path)
}
