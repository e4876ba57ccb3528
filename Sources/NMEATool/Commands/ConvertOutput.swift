import System
import Tracks

/// The outputs of `nmea convert`: each `-o` with its format, and the writers made for them.
struct ConvertOutput {
    enum Format: String, CaseIterable, Sendable {
        case gpx, gpx10, geojson, kml, csv

        /// `true` when a file named for `self` may be written as `other` (a `.gpx` name as GPX 1.0).
        func admits(_ other: Format) -> Bool { self == other || (self == .gpx && other == .gpx10) }
    }

    let path: String
    let format: Format

    // MARK: The declaration (`nmea convert`'s)

    static let outputs = Option(
        repeating: OptionSpec(
            long: "output", short: "o", valueName: "file",
            help: "Where to write: a .gpx, .geojson, .json, .kml or .csv file, or '-' for standard output.",
            isRequired: true, completion: .file))
    static let format = Option<Format?>(
        long: "format", valueName: "format", help: "The format for '-' and for names without a known extension.",
        choosing: Format.self)
    static let columns = Option<[CSVWriter.Column]>(
        long: "columns", valueName: "list",
        help: "CSV: the columns, of time,lat,lon,ele,speed,course,hdop,vdop,pdop,sats,fix,segment.",
        default: CSVWriter.defaultColumns, defaultText: "time,lat,lon,ele,speed,course,hdop,sats", convert: parseColumns
    )
    static let points = Flag(
        long: "points", help: "GeoJSON: also write each fix as a Point feature with its properties.")

    /// The outputs named by `-o`, each with the format its extension names, or `--format` for `-` and other names.
    /// - Throws: ``UsageError`` when a format cannot be told, contradicts `--format`, or an output repeats.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> [ConvertOutput] {
        let given = try arguments.value(format)
        var outputs: [ConvertOutput] = []
        for path in try arguments.value(Self.outputs) {
            if let same = outputs.first(where: { FileIdentity.place($0.path) == FileIdentity.place(path) }) {
                throw arguments.usageError(
                    same.path == path
                        ? "The output '\(path)' is given more than once"
                        : "The outputs '\(same.path)' and '\(path)' are the same file")
            }
            outputs.append(try output(path, given: given, arguments))
        }
        // An option that shapes an output no output is: said, not silently ignored.
        if arguments.isGiven(columns) && !outputs.contains(where: { $0.format == .csv }) {
            throw arguments.usageError(
                "'--columns' chooses a CSV output's columns, and no output is CSV: name one .csv (or '--format csv')")
        }
        if arguments.flag(points) && !outputs.contains(where: { $0.format == .geojson }) {
            throw arguments.usageError(
                "'--points' adds Point features to a GeoJSON output, and no output is GeoJSON: name one .geojson")
        }
        return outputs
    }

    /// The output `path`, in the format its name says, narrowed by `--format` (`given`).
    private static func output(_ path: String, given: Format?, _ arguments: ParsedArguments) throws(UsageError)
        -> ConvertOutput
    {
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
        return ConvertOutput(path: path, format: format)
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
    /// `labelKey` gives a CSV the columns of ``TrackLabel``s (`mmsi,name`) before its own.
    func makeWriter(
        track: TrackOptions, includePoints: Bool, columns: [CSVWriter.Column] = CSVWriter.defaultColumns,
        creator: String = "swift-nmea", labelKey: String? = nil
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
                ? try CSVWriter(streamingTo: .standardOutput, columns: columns, options: track, labelKey: labelKey)
                : try CSVWriter(path: path, columns: columns, options: track, labelKey: labelKey)
        }
    }

    /// A document's name: its file name without the extension.
    static func documentName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The `--columns` of a CSV output, in the order given.
    private static func parseColumns(_ text: String) throws(ValueError) -> [CSVWriter.Column] {
        var columns: [CSVWriter.Column] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let column = CSVWriter.Column(rawValue: String(name)) else {
                let known = CSVWriter.Column.allCases.map(\.rawValue).joined(separator: ",")
                throw .invalid(text, because: "'\(name)' is not one of \(known)")
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
