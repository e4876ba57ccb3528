/// The declarations a command is made of: each option, flag and argument declared once, with its type, its help and
/// how its text becomes a value. The command's ``CommandSpec`` lists them (help, usage lines, errors, completions and
/// the man page come from it), and the command reads them back through ``ParsedArguments`` by the declaration itself,
/// never by a name: an option that was not declared cannot be read, because there is nothing to read it by.
///
///     private static let splitGap = Option<Double>(
///         long: "split-gap", valueName: "seconds", help: "Start a new segment after a gap longer than this.",
///         default: 60, in: 0...1e9)
///     private static let fsync = Flag(long: "fsync", help: "Sync each flush to disk (fdatasync).")
///     static let spec = CommandSpec(name: "convert", abstract: "…", options: [splitGap, fsync] + CleaningOptions.options)
///     …
///     let gap = try arguments.value(splitGap)  // a Double: 60 when the option is not given
///     let sync = arguments.flag(fsync)
///
/// A command's own declarations are `private` to it; what several commands share is a group of its own
/// (``SentenceInput``, ``CleaningOptions``, ``TripRuleOptions``, ``MQTTOptions``…) that declares, reads and checks
/// its options in one place.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// A positional argument's declaration.
protocol ArgumentDeclaration: Sendable {
    var spec: ArgumentSpec { get }
}

/// Why an option's text is not a value; ``ParsedArguments`` says it with the option's label.
enum ValueError: Error {
    /// `The value 'TEXT' is invalid for 'LABEL'`, then `: REASON` when there is one. `TEXT` is the text as the
    /// message may show it (a URL without its password).
    case invalid(String, because: String? = nil)
    /// `The value 'TEXT' is out of range for 'LABEL': expected RANGE`.
    case outOfRange(String, expected: String)
}

/// `--name <value>`: an option that takes a value, read as a `Value`. Its text is converted, and checked against its
/// range, when the command reads it, so a bad value is reported where the command reads its options; its choices,
/// when it has some, are checked as the command line is parsed.
struct Option<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    /// The value the texts given make (every text, in order; none when the option is not given).
    let read: @Sendable ([String]) throws(ValueError) -> Value

    /// An option whose last text `convert` reads; `defaultValue` when it is not given.
    init(
        _ spec: OptionSpec, default defaultValue: Value,
        convert: @escaping @Sendable (String) throws(ValueError) -> Value
    ) {
        self.spec = spec
        read = { texts throws(ValueError) in try texts.last.map(convert) ?? defaultValue }
    }

    /// An option that may be given several times (`-o a.gpx -o b.gpx`): every text, in order.
    init(repeating spec: OptionSpec) where Value == [String] {
        var spec = spec
        spec.isRepeatable = true
        self.spec = spec
        read = { texts in texts }
    }
}

/// `--name`: an option that takes no value.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(long: String, short: Character? = nil, help: String) {
        spec = OptionSpec(long: long, short: short, help: help)
    }
}

/// A positional argument, read as a `Value` from the positionals given.
struct Argument<Value: Sendable>: ArgumentDeclaration {
    let spec: ArgumentSpec
    let read: @Sendable ([String]) -> Value

    /// Any number of values (`[<files> ...]`), `defaultValues` when none is given (shown as `defaultText`).
    init(
        repeating name: String, help: String, default defaultValues: [String] = [], defaultText: String? = nil,
        completion: OptionSpec.Completion = .file
    ) where Value == [String] {
        spec = ArgumentSpec(
            name: name, help: help, isRepeating: true, defaultValue: defaultText, completion: completion)
        read = { given in given.isEmpty ? defaultValues : given }
    }

    /// One value, or `nil` when none is given (the help shows `defaultText`, what the command makes of none).
    init(
        _ name: String, help: String, defaultText: String? = nil, choices: [String] = [],
        completion: OptionSpec.Completion = .file
    ) where Value == String? {
        spec = ArgumentSpec(
            name: name, help: help, defaultValue: defaultText, choices: choices, completion: completion)
        read = { given in given.first }
    }

    /// One value that must be given (the parser says so when it is not).
    init(
        required name: String, help: String, choices: [String] = [], completion: OptionSpec.Completion = .file
    ) where Value == String {
        spec = ArgumentSpec(name: name, help: help, isOptional: false, choices: choices, completion: completion)
        read = { given in given.first ?? "" }
    }
}

// MARK: - Options of common types

extension Option {
    /// The spec of an option that takes a value.
    private static func spec(
        _ long: String, _ short: Character?, _ valueName: String, _ help: String, defaultText: String?,
        isRequired: Bool = false, choices: [String] = [], completion: OptionSpec.Completion = .none
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, valueName: valueName, help: help, isRequired: isRequired,
            defaultValue: defaultText, choices: choices, completion: completion)
    }

    /// Text, `nil` when not given. `defaultText` is what the help says the command does without it; `choices`, when
    /// given, are the only texts the parser accepts.
    init(
        long: String, short: Character? = nil, valueName: String, help: String, defaultText: String? = nil,
        isRequired: Bool = false, choices: [String] = [], completion: OptionSpec.Completion = .none
    ) where Value == String? {
        self.init(
            Self.spec(
                long, short, valueName, help, defaultText: defaultText, isRequired: isRequired, choices: choices,
                completion: completion),
            default: nil, convert: { $0 })
    }

    /// Text, `defaultValue` when not given (and shown as the default).
    init(
        long: String, short: Character? = nil, valueName: String, help: String, default defaultValue: String,
        choices: [String] = [], completion: OptionSpec.Completion = .none
    ) where Value == String {
        self.init(
            Self.spec(
                long, short, valueName, help, defaultText: defaultValue, choices: choices, completion: completion),
            default: defaultValue, convert: { $0 })
    }

    /// Text that must be given (the parser says so when it is not).
    init(
        required long: String, short: Character? = nil, valueName: String, help: String,
        completion: OptionSpec.Completion = .none
    ) where Value == String {
        self.init(
            Self.spec(long, short, valueName, help, defaultText: nil, isRequired: true, completion: completion),
            default: "", convert: { $0 })
    }

    /// Something `convert` reads from the text, `nil` when not given.
    init<Wrapped>(
        long: String, short: Character? = nil, valueName: String, help: String, defaultText: String? = nil,
        isRequired: Bool = false, completion: OptionSpec.Completion = .none,
        convert: @escaping @Sendable (String) throws(ValueError) -> Wrapped
    ) where Value == Wrapped? {
        self.init(
            Self.spec(
                long, short, valueName, help, defaultText: defaultText, isRequired: isRequired,
                completion: completion),
            default: nil, convert: { text throws(ValueError) in try convert(text) })
    }

    /// Something `convert` reads from the text, `defaultValue` when not given (shown as `defaultText`).
    init(
        long: String, short: Character? = nil, valueName: String, help: String, default defaultValue: Value,
        defaultText: String, completion: OptionSpec.Completion = .none,
        convert: @escaping @Sendable (String) throws(ValueError) -> Value
    ) {
        self.init(
            Self.spec(long, short, valueName, help, defaultText: defaultText, completion: completion),
            default: defaultValue, convert: convert)
    }

    /// One of `Choice`'s cases by its raw value (the parser accepts no other), `nil` when not given.
    init<Choice: CaseIterable & RawRepresentable & Sendable>(
        long: String, valueName: String, help: String, choosing: Choice.Type
    ) where Value == Choice?, Choice.RawValue == String {
        let spec = Self.spec(long, nil, valueName, help, defaultText: nil, choices: Choice.allCases.map(\.rawValue))
        self.init(spec, default: nil) { text throws(ValueError) in
            guard let choice = Choice(rawValue: text) else { throw .invalid(text) }
            return choice
        }
    }

    /// A number in `range`, `defaultValue` when not given (shown as the default, or as `defaultText`).
    init(
        long: String, short: Character? = nil, valueName: String, help: String, default defaultValue: Double,
        defaultText: String? = nil, in range: ClosedRange<Double> = .anyNumber
    ) where Value == Double {
        let text = defaultText ?? NumberText.number(defaultValue)
        self.init(Self.spec(long, short, valueName, help, defaultText: text), default: defaultValue) {
            text throws(ValueError) in try NumberText.number(text, in: range)
        }
    }

    /// A number in `range`, `nil` when not given.
    init(
        long: String, valueName: String, help: String, defaultText: String? = nil,
        in range: ClosedRange<Double> = .anyNumber
    ) where Value == Double? {
        self.init(Self.spec(long, nil, valueName, help, defaultText: defaultText), default: nil) {
            text throws(ValueError) in try NumberText.number(text, in: range)
        }
    }

    /// A whole number in `range`, `defaultValue` when not given (and shown as the default).
    init(
        long: String, short: Character? = nil, valueName: String, help: String, default defaultValue: Int,
        in range: ClosedRange<Int> = Int.min...Int.max
    ) where Value == Int {
        self.init(Self.spec(long, short, valueName, help, defaultText: String(defaultValue)), default: defaultValue) {
            text throws(ValueError) in try NumberText.integer(text, in: range)
        }
    }

    /// A whole number in `range`, `nil` when not given.
    init(
        long: String, short: Character? = nil, valueName: String, help: String, defaultText: String? = nil,
        in range: ClosedRange<Int> = Int.min...Int.max
    ) where Value == Int? {
        self.init(Self.spec(long, short, valueName, help, defaultText: defaultText), default: nil) {
            text throws(ValueError) in try NumberText.integer(text, in: range)
        }
    }
}

extension Option where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the cases by its raw value (the parser accepts no other), `defaultValue` when not given.
    init(long: String, valueName: String, help: String, default defaultValue: Value) {
        let spec = OptionSpec(
            long: long, valueName: valueName, help: help, defaultValue: defaultValue.rawValue,
            choices: Value.allCases.map(\.rawValue))
        self.init(spec, default: defaultValue) { text throws(ValueError) in
            guard let choice = Value(rawValue: text) else { throw .invalid(text) }
            return choice
        }
    }
}

extension ClosedRange<Double> {
    /// Every finite number.
    static var anyNumber: Self { -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude }
}

/// Numbers read from option texts, and their ranges as messages write them (`16 to 1048576`, `at least 0`).
enum NumberText {
    static func number(_ text: String, in range: ClosedRange<Double>) throws(ValueError) -> Double {
        guard let number = Double(text), number.isFinite else { throw .invalid(text) }
        guard range.contains(number) else {
            throw .outOfRange(text, expected: describe(low: bound(range.lowerBound), high: bound(range.upperBound)))
        }
        return number
    }

    static func integer(_ text: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard let number = Int(text) else { throw .invalid(text) }
        guard range.contains(number) else {
            throw .outOfRange(text, expected: describe(low: bound(range.lowerBound), high: bound(range.upperBound)))
        }
        return number
    }

    /// `60`, `0.5`: a number as a default or a bound is shown.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func bound(_ value: Double) -> String {
        abs(value) == .greatestFiniteMagnitude ? "any" : number(value)
    }

    private static func bound(_ value: Int) -> String {
        value == .max || value == .min ? "any" : String(value)
    }

    /// `16 to 1048576`, `at least 0`, `at most 5` ("any" for no bound).
    private static func describe(low: String, high: String) -> String {
        if high == "any" { return "at least \(low)" }
        if low == "any" { return "at most \(high)" }
        return "\(low) to \(high)"
    }
}
