import Trips

/// `--min-distance`, `--min-stop` and `--max-gap`: the one trip and stop rule's options, declared once for every
/// command that finds trips or stops (`nmea trips`, `nmea plot`, `nmea convert`), so that the same flags give the same
/// answer.
enum TripRuleOptions {
    static let options: [OptionSpec] = [
        OptionSpec(
            long: "min-distance", valueName: "meters",
            help: "Movement beyond this from a stop starts a trip; a stop stays within it.",
            defaultValue: "200"),
        OptionSpec(
            long: "min-stop", valueName: "seconds",
            help: "How long the position must stay within --min-distance to make a stop.",
            defaultValue: "180"),
        OptionSpec(
            long: "max-gap", valueName: "seconds", help: "A pause in the data longer than this ends a trip.",
            defaultValue: "3600"),
    ]

    /// The rule the options give.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> TripDetector.Options {
        TripDetector.Options(
            minimumDistanceMeters: try arguments.number("min-distance", default: 200, in: 1...1_000_000),
            stopSeconds: try arguments.number("min-stop", default: 180, in: 1...86_400),
            maximumGapSeconds: try arguments.number("max-gap", default: 3600, in: 1...31_536_000))
    }
}
