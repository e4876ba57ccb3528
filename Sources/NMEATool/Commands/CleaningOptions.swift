import NMEA
import Tracks

/// `--max-hdop`, `--max-hacc`, `--min-satellites`, `--fix`, `--since`, `--until`, `--bbox`, `--drop-outliers`, `--stationary` and
/// `--simplify`: the track cleaning options, declared once for every command that writes, summarises or publishes
/// tracks (`convert`, `trips`, `plot`, `publish`), applied in the fix stream by one ``TrackCleaner``. A live
/// recording (`record`) takes the ones that hold nothing back for long (``liveOptions``): a time window and a
/// simplification window would keep fixes from a track that must be whole after every one.
enum CleaningOptions {
    private static let maximumHDOP = Option<Double?>(
        long: "max-hdop", valueName: "x", help: "Drop fixes whose HDOP is above this (or unknown).", in: 0...100)
    private static let maximumHorizontalAccuracy = Option<Double?>(
        long: "max-hacc", valueName: "meters",
        help: "Drop fixes whose horizontal accuracy estimate (u-blox hAcc, GST) is above this (or unknown).",
        in: 0...100_000)
    private static let minimumSatellites = Option<Int?>(
        long: "min-satellites", valueName: "n", help: "Drop fixes with fewer satellites used (or unknown).",
        in: 0...255)
    private static let fix = Option<FixMode?>(
        long: "fix", valueName: "mode", help: "Drop fixes poorer than this: 3d keeps 3D only, 2d keeps 2D and 3D.",
        choosing: FixMode.self)
    private static let since = Option<Int64?>(
        long: "since", valueName: "time",
        help: "Drop fixes before this time (YYYY-MM-DDThh:mm:ssZ or +hh:mm, or YYYY-MM-DD for its UTC midnight)."
    ) { text throws(ValueError) in try parseTime(text, endOfDay: false) }
    private static let until = Option<Int64?>(
        long: "until", valueName: "time",
        help: "Drop fixes after this time (YYYY-MM-DDThh:mm:ssZ or +hh:mm, or YYYY-MM-DD for the end of that UTC day)."
    ) { text throws(ValueError) in try parseTime(text, endOfDay: true) }
    private static let box = Option<FixQualityFilter.Box?>(
        long: "bbox", valueName: "S,W,N,E",
        help: "Drop fixes outside this box of degrees (W > E crosses the antimeridian).",
        convert: parseBox)
    private static let dropOutliers = Flag(
        long: "drop-outliers",
        help: "Remove impossible jumps: points the track reaches faster than it can move and leaves again.")
    private static let stationary = Option<Double?>(
        long: "stationary", valueName: "meters",
        help: "Collapse a parked receiver's jitter: write a point only beyond this distance from the last.",
        in: 0.01...100_000)
    private static let simplify = Option<Double?>(
        long: "simplify", valueName: "meters",
        help: "Fewer points: every dropped point stays within this distance of the kept line.", in: 0.01...100_000)

    /// Every cleaning option, for commands that read logs.
    static let options: [any OptionDeclaration] = [
        maximumHDOP, maximumHorizontalAccuracy, minimumSatellites, fix, since, until, box, dropOutliers, stationary,
        simplify,
    ]

    /// The options of a live recording: each fix is written at once, or (`--drop-outliers`) after the few that
    /// show whether it was a jump.
    static let liveOptions: [any OptionDeclaration] = [
        maximumHDOP, maximumHorizontalAccuracy, minimumSatellites, fix, box, dropOutliers, stationary,
    ]

    /// `--fix`'s values: `any` keeps every fix.
    private enum FixMode: String, CaseIterable, Sendable {
        case threeD = "3d"
        case twoD = "2d"
        case any
    }

    /// The cleaner the options give, or `nil` when none is given. A live recording (`live`) reads ``liveOptions``.
    static func parse(_ arguments: ParsedArguments, splitGapSeconds: Double = 60, live: Bool = false)
        throws(UsageError) -> TrackCleaner?
    {
        var filter = FixQualityFilter()
        filter.maximumHDOP = try arguments.value(maximumHDOP)
        filter.maximumHorizontalErrorMeters = try arguments.value(maximumHorizontalAccuracy)
        filter.minimumSatellites = try arguments.value(minimumSatellites)
        switch try arguments.value(fix) {
        case .threeD: filter.minimumMode = .threeD
        case .twoD: filter.minimumMode = .twoD
        case .any, nil: break
        }
        if !live {
            filter.since = try arguments.value(since)
            filter.until = try arguments.value(until)
            if let since = filter.since, let until = filter.until, since > until {
                throw arguments.usageError("'--since' is after '--until': nothing would be kept")
            }
        }
        filter.box = try arguments.value(box)
        let simplifyMeters = live ? nil : try arguments.value(simplify)
        let cleaner = TrackCleaner(
            filter: filter, dropOutliers: arguments.flag(dropOutliers),
            stationaryMeters: try arguments.value(stationary),
            simplifyMeters: simplifyMeters, splitGapSeconds: splitGapSeconds)
        return cleaner.isEmpty ? nil : cleaner
    }

    /// `--bbox`: south, west, north and east in degrees.
    private static func parseBox(_ text: String) throws(ValueError) -> FixQualityFilter.Box {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2],
            let east = parts[3], (-90...90).contains(south), (-90...90).contains(north), south <= north,
            (-180...180).contains(west), (-180...180).contains(east)
        else {
            throw .invalid(text, because: "expected S,W,N,E in degrees, south ≤ north (e.g. 52.3,4.7,52.5,5.1)")
        }
        return .init(south: south, west: west, north: north, east: east)
    }

    /// `--since`/`--until` in nanoseconds since 1970: an ISO 8601 time (any `xsd:dateTime` form, an offset converted
    /// to UTC), or a date (its first or last moment, UTC).
    private static func parseTime(_ text: String, endOfDay: Bool) throws(ValueError) -> Int64 {
        if let moment = ISO8601.parse(text) { return moment }
        if let date = ISO8601.parseDate(text) {
            let start = date.startNanoseconds
            return endOfDay ? start + UTCDate.nanosecondsPerDay - 1 : start
        }
        throw .invalid(
            text, because: "expected YYYY-MM-DDThh:mm:ss (Z, an offset such as +02:00, or none for UTC) or YYYY-MM-DD")
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
