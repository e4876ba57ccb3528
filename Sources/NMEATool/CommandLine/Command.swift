/// A subcommand of `nmea`: its declaration and what it does.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command; returns the exit status. Not called for a command with ``subcommands``.
    /// - Throws: ``UsageError`` (exit 64) or ``RuntimeError`` (exit 1).
    static func run(_ arguments: ParsedArguments) throws -> Int32
    /// The commands under this one (`nmea fleet last`); its ``spec`` lists their specs as `subcommands`.
    static var subcommands: [any Command.Type] { get }
}

extension Command {
    static var subcommands: [any Command.Type] { [] }
    static func run(_ arguments: ParsedArguments) throws -> Int32 { ExitStatus.usage }
}

/// Runs `command` with `arguments` (after its name): a command with subcommands hands them to the one named first
/// (`help <subcommand>` and `-h` print help); any other parses them against its spec and runs.
func dispatch(_ command: any Command.Type, _ arguments: ArraySlice<String>, commandPath: String) throws -> Int32 {
    let children = command.subcommands
    guard !children.isEmpty else {
        let parsed = try ParsedArguments.parse(Array(arguments), spec: command.spec, commandPath: commandPath)
        return try command.run(parsed)
    }
    guard let first = arguments.first, first != "-h", first != "--help" else {
        throw HelpRequest(command: command.spec, commandPath: commandPath)
    }
    if first == "help" {
        guard arguments.count > 1 else { throw HelpRequest(command: command.spec, commandPath: commandPath) }
        let second = arguments[arguments.index(after: arguments.startIndex)]
        if second == "-h" || second == "--help" {
            throw HelpRequest(
                command: Completion.helpSpec(command.spec, isRoot: false), commandPath: commandPath + " help")
        }
        let (found, path) = try resolve(command, arguments.dropFirst(), commandPath: commandPath)
        throw HelpRequest(command: found.spec, commandPath: path)
    }
    guard let child = children.first(where: { $0.spec.name == first }) else {
        let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
        throw UsageError(message: message, command: command.spec, commandPath: commandPath)
    }
    return try dispatch(child, arguments.dropFirst(), commandPath: commandPath + " " + child.spec.name)
}

/// The command `names` lead to from `command` (`fleet trips`), for `help`.
func resolve(_ command: any Command.Type, _ names: ArraySlice<String>, commandPath: String) throws(UsageError)
    -> (any Command.Type, String)
{
    guard let name = names.first else { return (command, commandPath) }
    guard let child = command.subcommands.first(where: { $0.spec.name == name }) else {
        throw UsageError(message: "Unknown subcommand '\(name)'", command: command.spec, commandPath: commandPath)
    }
    return try resolve(child, names.dropFirst(), commandPath: commandPath + " " + name)
}

/// The tool's version, printed by `nmea --version`.
let toolVersion = "0.1.0"
