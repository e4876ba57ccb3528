import System
import Tracks

/// The outputs of `nmea convert`: each `-o` with its format, and the writers made for them.
struct ConvertOutput {
    enum Format: String, CaseIterable {
        case gpx, gpx10, geojson, kml, csv

        /// `true` when a file named for `self` may be written as `other` (a `.gpx` name as GPX 1.0).
        func admits(_ other: Format) -> Bool { self == other || (self == .gpx && other == .gpx10) }
    }

    let path: String
    let format: Format

    /// The outputs named by `-o`, each with the format its extension names, or `--format` for `-` and other names.
    /// - Throws: ``UsageError`` when a format cannot be told, contradicts `--format`, or an output repeats.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [ConvertOutput] {
        let given = arguments.value("format").flatMap(Format.init(rawValue:))
        var outputs: [ConvertOutput] = []
        for path in arguments.allValues("output") {
            if let same = outputs.first(where: { FileIdentity.place($0.path) == FileIdentity.place(path) }) {
                throw arguments.usageError(
                    same.path == path
                        ? "The output '\(path)' is given more than once"
                        : "The outputs '\(same.path)' and '\(path)' are the same file")
            }
            let named = formatNamed(by: path)
            if path == "-" && given == nil {
                throw arguments.usageError(
                    "Writing to standard output ('-o -') needs '--format' (gpx, gpx10, geojson, kml or csv)")
            }
            if let named, let given, !named.admits(given) {
                throw arguments.usageError(
                    "The output '\(path)' is named as \(named.rawValue) but '--format \(given.rawValue)' was given")
            }
            // `--format` agrees with the name here, and may narrow it (gpx10 for a .gpx name).
            guard let format = given ?? named else {
                throw arguments.usageError(
                    "Cannot tell the format of '\(path)': name it .gpx, .geojson, .json, .kml or .csv, or give '--format'"
                )
            }
            outputs.append(ConvertOutput(path: path, format: format))
        }
        // An option that shapes an output no output is: said, not silently ignored.
        if arguments.value("columns") != nil && !outputs.contains(where: { $0.format == .csv }) {
            throw arguments.usageError(
                "'--columns' chooses a CSV output's columns, and no output is CSV: name one .csv (or '--format csv')")
        }
        if arguments.flag("points") && !outputs.contains(where: { $0.format == .geojson }) {
            throw arguments.usageError(
                "'--points' adds Point features to a GeoJSON output, and no output is GeoJSON: name one .geojson")
        }
        return outputs
    }

    /// The format a file name's extension stands for (case-insensitive), or `nil`.
    static func formatNamed(by path: String) -> Format? {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        if name.hasSuffix(".gpx") { return .gpx }
        if name.hasSuffix(".geojson") || name.hasSuffix(".json") { return .geojson }
        if name.hasSuffix(".kml") { return .kml }
        if name.hasSuffix(".csv") { return .csv }
        return nil
    }

    /// Creates the writer: standard output for `-`, else the file (created or emptied).
    func makeWriter(
        track: TrackOptions, includePoints: Bool, columns: [CSVWriter.Column] = CSVWriter.defaultColumns,
        creator: String = "swift-nmea"
    ) throws(TrackError) -> any TrackWriter {
        let geojson = GeoJSONWriter.Options(track: track, includePoints: includePoints)
        let toStandardOutput = path == "-"
        switch format {
        case .gpx, .gpx10:
            let version: GPXVersion = format == .gpx ? .v11 : .v10
            return toStandardOutput
                ? try GPXWriter(streamingTo: .standardOutput, options: track, version: version, creator: creator)
                : try GPXWriter(path: path, options: track, version: version, creator: creator)
        case .geojson:
            return toStandardOutput
                ? try GeoJSONWriter(streamingTo: .standardOutput, options: geojson)
                : try GeoJSONWriter(path: path, options: geojson)
        case .kml:
            return toStandardOutput
                ? try KMLWriter(streamingTo: .standardOutput, options: track)
                : try KMLWriter(path: path, name: Self.documentName(path), options: track)
        case .csv:
            return toStandardOutput
                ? try CSVWriter(streamingTo: .standardOutput, columns: columns, options: track)
                : try CSVWriter(path: path, columns: columns, options: track)
        }
    }

    /// A document's name: its file name without the extension.
    static func documentName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The `--columns` of a CSV output, in the order given.
    static func columns(_ arguments: ParsedArguments) throws(UsageError) -> [CSVWriter.Column] {
        guard let text = arguments.value("columns") else { return CSVWriter.defaultColumns }
        var columns: [CSVWriter.Column] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let column = CSVWriter.Column(rawValue: String(name)) else {
                let known = CSVWriter.Column.allCases.map(\.rawValue).joined(separator: ",")
                throw arguments.invalid(text, for: "columns", because: "'\(name)' is not one of \(known)")
            }
            columns.append(column)
        }
        return columns
    }
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
