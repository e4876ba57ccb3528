/// The values given to a command, after parsing against its ``CommandSpec``.
struct ParsedArguments {
    let spec: CommandSpec
    /// The path of command names, for messages: `nmea parse`.
    let commandPath: String
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// `true` when the flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `--name`, or `nil`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `--name`, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `--name` as an integer in `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int> = Int.min...Int.max)
        throws(UsageError) -> Int
    {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text) else { throw invalid(text, for: name) }
        guard range.contains(number) else { throw outOfRange(text, for: name, range.description(Self.integerText)) }
        return number
    }

    /// The value of `--name` as a number in `range`, or `defaultValue` when absent.
    func number(
        _ name: String, default defaultValue: Double,
        in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    )
        throws(UsageError) -> Double
    {
        guard let text = value(name) else { return defaultValue }
        guard let number = Double(text), number.isFinite else { throw invalid(text, for: name) }
        guard range.contains(number) else { throw outOfRange(text, for: name, range.description(Self.numberText)) }
        return number
    }

    /// The usage error for a number outside what `--name` takes.
    private func outOfRange(_ text: String, for name: String, _ range: String) -> UsageError {
        let label = spec.options.first { $0.long == name }?.usageLabel ?? "--\(name)"
        return usageError("The value '\(text)' is out of range for '\(label)': expected \(range)")
    }

    private static func integerText(_ value: Int) -> String {
        value == .max ? "any" : value == .min ? "any" : String(value)
    }

    private static func numberText(_ value: Double) -> String {
        abs(value) == .greatestFiniteMagnitude ? "any" : value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The usage error for a bad value of `--name`.
    func invalid(_ text: String, for name: String, because reason: String? = nil) -> UsageError {
        let label = spec.options.first { $0.long == name }?.usageLabel ?? "--\(name)"
        var message = "The value '\(text)' is invalid for '\(label)'"
        if let reason { message += ": \(reason)" }
        return UsageError(message: message, command: spec, commandPath: commandPath)
    }

    /// A usage error about this command.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: spec, commandPath: commandPath)
    }

    /// `true` when `argument`, after an option that takes a value, is that value: anything not starting with '-',
    /// '-' itself (standard input or output), and a negative number (`-5`, `-0.5`, `-.5`), which is a value to
    /// check, never an option (no option name starts with a digit).
    static func canBeValue(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return true }
        let next = argument.utf8.dropFirst().first ?? 0
        return (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || next == UInt8(ascii: ".")
    }

    /// Parses `arguments` (without the command names) against `spec`.
    /// - Throws: ``UsageError`` for unknown options, missing values or unexpected arguments;
    ///   ``HelpRequest`` when `-h`/`--help` is among them.
    static func parse(_ arguments: [String], spec: CommandSpec, commandPath: String) throws -> ParsedArguments {
        var result = ParsedArguments(spec: spec, commandPath: commandPath)
        let options = spec.options + [.help]
        func error(_ message: String) -> UsageError {
            UsageError(message: message, command: spec, commandPath: commandPath)
        }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            // --name, --name=value, -n, -n value
            var name = argument
            var attached: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            let option: OptionSpec?
            if name.hasPrefix("--") {
                let long = name.dropFirst(2)
                option = options.first { $0.long == long }
            } else if name.count == 2 {
                option = options.first { $0.short == name.last }
            } else {
                option = nil
            }
            guard let option else { throw error("Unknown option '\(name)'") }
            if option.long == "help" { throw HelpRequest(command: spec, commandPath: commandPath) }
            if option.isFlag {
                if attached != nil { throw error("The flag '\(name)' does not take a value") }
                result.flags.insert(option.long)
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count, Self.canBeValue(arguments[index]) {
                value = arguments[index]
                index += 1
            } else {
                throw error("Missing value for '\(option.usageLabel)'")
            }
            if !option.choices.isEmpty && !option.choices.contains(value) {
                throw error(
                    "The value '\(value)' is invalid for '\(option.usageLabel)'. "
                        + "Please provide one of \(option.choices.map { "'\($0)'" }.joined(separator: ", ")).")
            }
            if !option.isRepeatable, result.values[option.long] != nil {
                throw error("'\(option.usageLabel)' may only be given once")
            }
            result.values[option.long, default: []].append(value)
        }
        if let missing = spec.options.first(where: { $0.isRequired && result.values[$0.long] == nil }) {
            throw error("Missing expected argument '\(missing.usageLabel)'")
        }
        // Positionals: at most one repeating argument, which must be last.
        let maximum = spec.arguments.contains { $0.isRepeating } ? Int.max : spec.arguments.count
        if result.positionals.count > maximum {
            throw error("Unexpected argument '\(result.positionals[maximum])'")
        }
        let required = spec.arguments.filter { !$0.isOptional }
        if result.positionals.count < required.count {
            throw error("Missing expected argument '<\(required[result.positionals.count].name)>'")
        }
        return result
    }
}

/// A mistake in how a command was called: reported with the usage line, exit status 64.
struct UsageError: Error {
    let message: String
    let command: CommandSpec
    let commandPath: String
}

/// `-h` or `--help` was given: print the help and exit 0.
struct HelpRequest: Error {
    let command: CommandSpec
    let commandPath: String
}

/// A failure while running: reported as `Error: <message>`, exit status 1.
struct RuntimeError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Exit statuses, as sysexits.h names them.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// EX_USAGE.
    static let usage: Int32 = 64
}

extension ClosedRange {
    /// `16 to 1048576`, `at least 0`, `at most 5`, with `text` writing each bound ("any" for no bound).
    fileprivate func description(_ text: (Bound) -> String) -> String {
        let low = text(lowerBound)
        let high = text(upperBound)
        if high == "any" { return "at least \(low)" }
        if low == "any" { return "at most \(high)" }
        return "\(low) to \(high)"
    }
}
