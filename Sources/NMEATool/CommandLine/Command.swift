/// A subcommand of `nmea`: its declaration and what it does.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command; returns the exit status.
    /// - Throws: ``UsageError`` (exit 64) or ``RuntimeError`` (exit 1).
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

/// The tool's version, printed by `nmea --version`.
let toolVersion = "0.1.0"
