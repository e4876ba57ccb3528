/// The values given to a command, after parsing against its ``CommandSpec``, read back by their declarations
/// (``Option``, ``Flag``, ``Argument``): there is no way to read an option by its name.
struct ParsedArguments {
    let spec: CommandSpec
    /// The path of command names, for messages: `nmea parse`.
    let commandPath: String
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var positionals: [String] = []

    // MARK: Reading

    /// The value of `option`: what its texts make, or its default when it is not given.
    /// - Throws: ``UsageError`` for a text that is not a value (`The value 'x' is invalid for '--width <pixels>'`).
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        checkDeclared(option.spec)
        do {
            return try option.read(values[option.spec.long] ?? [])
        } catch {
            switch error {
            case .invalid(let text, let reason):
                throw invalid(text, for: option, because: reason)
            case .outOfRange(let text, let expected):
                throw usageError(
                    "The value '\(text)' is out of range for '\(option.spec.usageLabel)': expected \(expected)")
            }
        }
    }

    /// `true` when `flag` was given.
    func flag(_ flag: Flag) -> Bool {
        checkDeclared(flag.spec)
        return flags.contains(flag.spec.long)
    }

    /// `true` when `option` was given, whatever its value.
    func isGiven(_ option: some OptionDeclaration) -> Bool {
        checkDeclared(option.spec)
        return values[option.spec.long] != nil || flags.contains(option.spec.long)
    }

    /// The value of the positional `argument`.
    func value<Value>(_ argument: Argument<Value>) -> Value {
        precondition(
            spec.arguments.contains { $0.name == argument.spec.name },
            "\(commandPath) reads <\(argument.spec.name)>, which its spec does not declare")
        return argument.read(positionals)
    }

    /// A command reads only what its spec declares: a group read by a command that does not list it is a mistake
    /// in the program, caught by the first test that runs the command.
    private func checkDeclared(_ option: OptionSpec) {
        precondition(
            spec.options.contains { $0.long == option.long },
            "\(commandPath) reads --\(option.long), which its spec does not declare")
    }

    // MARK: Errors

    /// The usage error for a bad value of `option`: `The value 'TEXT' is invalid for '--name <value>'`, then
    /// `: REASON` when there is one.
    func invalid(_ text: String, for option: some OptionDeclaration, because reason: String? = nil) -> UsageError {
        var message = "The value '\(text)' is invalid for '\(option.spec.usageLabel)'"
        if let reason { message += ": \(reason)" }
        return usageError(message)
    }

    /// A usage error about this command.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: spec, commandPath: commandPath)
    }

    // MARK: Parsing

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
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else {
                try result.take(argument, then: arguments, at: &index)
            }
        }
        try result.checkCounts()
        return result
    }

    /// Takes the option `argument` (`--name`, `--name=value`, `-n`), and its value from `arguments` at `index`
    /// when it takes one and none is attached.
    private mutating func take(_ argument: String, then arguments: [String], at index: inout Int) throws {
        var name = argument
        var attached: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            attached = String(argument[argument.index(after: equals)...])
        }
        let options = spec.options + [.help]
        let option: OptionSpec?
        if name.hasPrefix("--") {
            let long = name.dropFirst(2)
            option = options.first { $0.long == long }
        } else if name.count == 2 {
            option = options.first { $0.short == name.last }
        } else {
            option = nil
        }
        guard let option else { throw usageError("Unknown option '\(name)'") }
        if option.long == "help" { throw HelpRequest(command: spec, commandPath: commandPath) }
        if option.isFlag {
            if attached != nil { throw usageError("The flag '\(name)' does not take a value") }
            flags.insert(option.long)
            return
        }
        let value: String
        if let attached {
            value = attached
        } else if index < arguments.count, Self.canBeValue(arguments[index]) {
            value = arguments[index]
            index += 1
        } else {
            throw usageError("Missing value for '\(option.usageLabel)'")
        }
        try add(value, for: option)
    }

    /// Adds `value` to `option`'s, checking its choices and that it is given once unless it repeats.
    private mutating func add(_ value: String, for option: OptionSpec) throws(UsageError) {
        if !option.choices.isEmpty && !option.choices.contains(value) {
            throw usageError(
                "The value '\(value)' is invalid for '\(option.usageLabel)'. "
                    + "Please provide one of \(option.choices.map { "'\($0)'" }.joined(separator: ", ")).")
        }
        if !option.isRepeatable, values[option.long] != nil {
            throw usageError("'\(option.usageLabel)' may only be given once")
        }
        values[option.long, default: []].append(value)
    }

    /// Required options given, and as many positionals as the arguments take.
    private func checkCounts() throws(UsageError) {
        if let missing = spec.options.first(where: { $0.isRequired && values[$0.long] == nil }) {
            throw usageError("Missing expected argument '\(missing.usageLabel)'")
        }
        // Positionals: at most one repeating argument, which must be last.
        let maximum = spec.arguments.contains { $0.isRepeating } ? Int.max : spec.arguments.count
        if positionals.count > maximum {
            throw usageError("Unexpected argument '\(positionals[maximum])'")
        }
        let required = spec.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            throw usageError("Missing expected argument '<\(required[positionals.count].name)>'")
        }
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
