import Trips

/// `--min-distance`, `--min-stop` and `--max-gap`: the one trip and stop rule's options, declared once for every
/// command that finds trips or stops (`nmea trips`, `nmea plot`, `nmea convert`), so that the same flags give the same
/// answer.
enum TripRuleOptions {
    private static let minimumDistance = Option<Double>(
        long: "min-distance", valueName: "meters",
        help: "Movement beyond this from a stop starts a trip; a stop stays within it.", default: 200,
        in: 1...1_000_000)
    private static let minimumStop = Option<Double>(
        long: "min-stop", valueName: "seconds",
        help: "How long the position must stay within --min-distance to make a stop.", default: 180, in: 1...86_400)
    private static let maximumGap = Option<Double>(
        long: "max-gap", valueName: "seconds", help: "A pause in the data longer than this ends a trip.",
        default: 3600, in: 1...31_536_000)

    static let options: [any OptionDeclaration] = [minimumDistance, minimumStop, maximumGap]

    /// The rule the options give.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> TripDetector.Options {
        TripDetector.Options(
            minimumDistanceMeters: try arguments.value(minimumDistance),
            stopSeconds: try arguments.value(minimumStop),
            maximumGapSeconds: try arguments.value(maximumGap))
    }
}
