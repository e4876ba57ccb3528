/// `--speed FACTOR|max`, declared and read once for every command that replays a log (`serve`, `watch`, `publish`):
/// a factor from 0.01 to 1,000,000 times the recorded pace, or `max`, as fast as possible.
enum ReplaySpeed: Equatable {
    case factor(Double)
    case maximum

    /// The option, with the command's own help and default.
    static func option(help: String, defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(long: "speed", valueName: "factor|max", help: help, defaultValue: defaultValue)
    }

    /// `--speed` as given, or `defaultValue` when it is not.
    /// - Throws: ``UsageError`` for a value that is neither a factor in range nor `max`.
    static func parse(_ arguments: ParsedArguments, default defaultValue: ReplaySpeed?) throws(UsageError)
        -> ReplaySpeed?
    {
        guard let text = arguments.value("speed") else { return defaultValue }
        if text == "max" { return .maximum }
        guard let factor = Double(text), factor.isFinite, factor >= 0.01, factor <= 1_000_000 else {
            throw arguments.invalid(text, for: "speed", because: "expected a factor from 0.01 to 1000000, or 'max'")
        }
        return .factor(factor)
    }

    /// The factor, `nil` for as fast as possible.
    var factor: Double? {
        if case .factor(let factor) = self { return factor }
        return nil
    }
}
