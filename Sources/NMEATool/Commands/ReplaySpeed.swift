/// `--speed FACTOR|max`, declared and read alike by every command that replays a log (`serve`, `watch`, `publish`):
/// a factor from 0.01 to 1,000,000 times the recorded pace, or `max`, as fast as possible.
enum ReplaySpeed: Equatable, Sendable {
    case factor(Double)
    case maximum

    /// The option, with the command's own help and default (`nil`: none, the command decides).
    static func option(help: String, default defaultValue: ReplaySpeed? = nil) -> Option<ReplaySpeed?> {
        let spec = OptionSpec(
            long: "speed", valueName: "factor|max", help: help, defaultValue: defaultValue.map(\.text))
        return Option(spec, default: defaultValue) { text throws(ValueError) in
            if text == "max" { return .maximum }
            guard let factor = Double(text), factor.isFinite, factor >= 0.01, factor <= 1_000_000 else {
                throw .invalid(text, because: "expected a factor from 0.01 to 1000000, or 'max'")
            }
            return .factor(factor)
        }
    }

    /// As the option writes it: `max`, `10`, `0.5`.
    var text: String {
        switch self {
        case .factor(let factor): NumberText.number(factor)
        case .maximum: "max"
        }
    }

    /// The factor, `nil` for as fast as possible.
    var factor: Double? {
        if case .factor(let factor) = self { return factor }
        return nil
    }
}
