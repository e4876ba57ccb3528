import NMEA
import Tracks

/// `--max-hdop`, `--min-satellites`, `--fix`, `--since`, `--until`, `--bbox`, `--drop-outliers`, `--stationary` and
/// `--simplify`: the track cleaning options, declared once for every command that writes, summarises or publishes
/// tracks (`convert`, `trips`, `plot`, `publish`), applied in the fix stream by one ``TrackCleaner``. A live
/// recording (`record`) takes the ones that hold nothing back for long (``liveOptions``): a time window and a
/// simplification window would keep fixes from a track that must be whole after every one.
enum CleaningOptions {
    static let maximumHDOP = OptionSpec(
        long: "max-hdop", valueName: "x", help: "Drop fixes whose HDOP is above this (or unknown).")
    static let minimumSatellites = OptionSpec(
        long: "min-satellites", valueName: "n", help: "Drop fixes with fewer satellites used (or unknown).")
    static let fix = OptionSpec(
        long: "fix", valueName: "mode", help: "Drop fixes poorer than this: 3d keeps 3D only, 2d keeps 2D and 3D.",
        choices: ["3d", "2d", "any"])
    static let since = OptionSpec(
        long: "since", valueName: "time",
        help: "Drop fixes before this time (YYYY-MM-DDThh:mm:ssZ or +hh:mm, or YYYY-MM-DD for its UTC midnight).")
    static let until = OptionSpec(
        long: "until", valueName: "time",
        help: "Drop fixes after this time (YYYY-MM-DDThh:mm:ssZ or +hh:mm, or YYYY-MM-DD for the end of that UTC day).")
    static let box = OptionSpec(
        long: "bbox", valueName: "S,W,N,E",
        help: "Drop fixes outside this box of degrees (W > E crosses the antimeridian).")
    static let dropOutliers = OptionSpec(
        long: "drop-outliers",
        help: "Remove impossible jumps: points the track reaches faster than it can move and leaves again.")
    static let stationary = OptionSpec(
        long: "stationary", valueName: "meters",
        help: "Collapse a parked receiver's jitter: write a point only beyond this distance from the last.")
    static let simplify = OptionSpec(
        long: "simplify", valueName: "meters",
        help: "Fewer points: every dropped point stays within this distance of the kept line.")

    /// Every cleaning option, for commands that read logs.
    static let options = [maximumHDOP, minimumSatellites, fix, since, until, box, dropOutliers, stationary, simplify]

    /// The options of a live recording: each fix is written at once, or (`--drop-outliers`) after the few that
    /// show whether it was a jump.
    static let liveOptions = [maximumHDOP, minimumSatellites, fix, box, dropOutliers, stationary]

    /// The cleaner the options give, or `nil` when none is given.
    static func parse(_ arguments: ParsedArguments, splitGapSeconds: Double = 60) throws(UsageError) -> TrackCleaner? {
        var filter = FixQualityFilter()
        if arguments.value("max-hdop") != nil {
            filter.maximumHDOP = try arguments.number("max-hdop", default: 0, in: 0...100)
        }
        if arguments.value("min-satellites") != nil {
            filter.minimumSatellites = try arguments.integer("min-satellites", default: 0, in: 0...255)
        }
        switch arguments.value("fix") {
        case "3d": filter.minimumMode = .threeD
        case "2d": filter.minimumMode = .twoD
        default: break
        }
        filter.since = try time("since", arguments, endOfDay: false)
        filter.until = try time("until", arguments, endOfDay: true)
        if let since = filter.since, let until = filter.until, since > until {
            throw arguments.usageError("'--since' is after '--until': nothing would be kept")
        }
        if let text = arguments.value("bbox") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2],
                let east = parts[3], (-90...90).contains(south), (-90...90).contains(north), south <= north,
                (-180...180).contains(west), (-180...180).contains(east)
            else {
                throw arguments.invalid(
                    text, for: "bbox", because: "expected S,W,N,E in degrees, south ≤ north (e.g. 52.3,4.7,52.5,5.1)")
            }
            filter.box = .init(south: south, west: west, north: north, east: east)
        }
        let simplify: Double? =
            arguments.value("simplify") == nil ? nil : try arguments.number("simplify", default: 0, in: 0.01...100_000)
        let stationary: Double? =
            arguments.value("stationary") == nil
            ? nil : try arguments.number("stationary", default: 0, in: 0.01...100_000)
        let cleaner = TrackCleaner(
            filter: filter, dropOutliers: arguments.flag("drop-outliers"), stationaryMeters: stationary,
            simplifyMeters: simplify, splitGapSeconds: splitGapSeconds)
        return cleaner.isEmpty ? nil : cleaner
    }

    /// `--since`/`--until` in nanoseconds since 1970: an ISO 8601 time (any `xsd:dateTime` form, an offset converted
    /// to UTC), or a date (its first or last moment, UTC).
    private static func time(_ name: String, _ arguments: ParsedArguments, endOfDay: Bool) throws(UsageError)
        -> Int64?
    {
        guard let text = arguments.value(name) else { return nil }
        if let moment = ISO8601.parse(text) { return moment }
        if let date = ISO8601.parseDate(text) {
            let start = date.startNanoseconds
            return endOfDay ? start + UTCDate.nanosecondsPerDay - 1 : start
        }
        throw arguments.invalid(
            text, for: name,
            because: "expected YYYY-MM-DDThh:mm:ss (Z, an offset such as +02:00, or none for UTC) or YYYY-MM-DD")
    }
}

extension TrackCleaner {
    /// Cleans `fix` (when there is a cleaner) and hands what passes to `emit`.
    static func apply(_ cleaner: inout TrackCleaner?, _ fix: Fix, _ emit: (Fix) -> Void) {
        if cleaner == nil { return emit(fix) }
        cleaner!.add(fix, emit)
    }

    /// Prints what the cleaner did, on standard error, for `command`.
    func report(command: String) {
        if let summary { Console.error("\(command): \(summary)\n") }
    }
}
