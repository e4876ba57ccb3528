import Glibc

/// Every subcommand, in the order `nmea --help` lists them.
let commands: [any Command.Type] = [
    ParseCommand.self,
    RecordCommand.self,
    ServeCommand.self,
    TimeCommand.self,
    WatchCommand.self,
    ConvertCommand.self,
    TripsCommand.self,
    BenchCommand.self,
    SimulateCommand.self,
    DevicesCommand.self,
    ConfigCommand.self,
    PlotCommand.self,
    CompletionCommand.self,
    PublishCommand.self,
    CollectCommand.self,
    FleetCommand.self,
    AISCommand.self,
    NTRIPCommand.self,
]

let rootSpec = CommandSpec(
    name: "nmea",
    abstract: "A GPS toolkit: parse, convert and record NMEA 0183.",
    discussion: "'nmea help --man' prints the manual page; 'nmea completion bash|zsh' a shell completion script.",
    options: [Flag(long: "version", help: "Show the version.")],
    subcommands: commands.map { $0.spec })

/// Runs the tool with `arguments` (without the program name) and returns the exit status.
@MainActor
func runTool(_ arguments: [String]) -> Int32 {
    do {
        guard let first = arguments.first else {
            Console.standardOutput.write(Help.text(rootSpec, commandPath: "nmea"))
            return ExitStatus.success
        }
        switch first {
        case "-h", "--help":
            Console.standardOutput.write(Help.text(rootSpec, commandPath: "nmea"))
            return ExitStatus.success
        case "--version":
            Console.standardOutput.write(toolVersion + "\n")
            return ExitStatus.success
        case "help":
            Console.standardOutput.write(try helpText(arguments.dropFirst()))
            return ExitStatus.success
        default:
            guard let command = commands.first(where: { $0.spec.name == first }) else {
                let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
                throw UsageError(message: message, command: rootSpec, commandPath: "nmea")
            }
            return try dispatch(command, arguments.dropFirst(), commandPath: "nmea \(command.spec.name)")
        }
    } catch let help as HelpRequest {
        Console.standardOutput.write(Help.text(help.command, commandPath: help.commandPath))
        return ExitStatus.success
    } catch let error as UsageError {
        Console.standardOutput.flush()
        Console.error(Help.errorText(error))
        return ExitStatus.usage
    } catch let error as RuntimeError {
        Console.standardOutput.flush()
        Console.error("Error: \(error.message)\n")
        return ExitStatus.failure
    } catch {
        Console.standardOutput.flush()
        Console.error("Error: \(error)\n")
        return ExitStatus.failure
    }
}

/// What `nmea help ARGUMENTS` prints: the tool's help, help's own (`-h`), the manual page (`--man`), or a
/// subcommand's.
@MainActor
func helpText(_ arguments: ArraySlice<String>) throws(UsageError) -> String {
    guard let first = arguments.first else { return Help.text(rootSpec, commandPath: "nmea") }
    if first == "-h" || first == "--help" {
        // Help for help: what it takes, like every other command's.
        return Help.text(Completion.helpSpec(rootSpec), commandPath: "nmea help")
    }
    if first == "--man" { return ManPage.render(rootSpec, version: toolVersion) }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
        throw UsageError(message: "Unknown subcommand '\(first)'", command: rootSpec, commandPath: "nmea")
    }
    // `nmea help convert --help` is still help for convert.
    let names = arguments.dropFirst().filter { $0 != "-h" && $0 != "--help" }
    let (found, path) = try resolve(command, names[...], commandPath: "nmea \(command.spec.name)")
    return Help.text(found.spec, commandPath: path)
}

var status = runTool(Array(CommandLine.arguments.dropFirst()))
Console.standardOutput.flush()
// Every command's standard output goes through one buffer, checked here once: a write that failed (a full disk,
// /dev/full, a closed descriptor) is the command's failure, never a silent exit 0 with part of the output.
if let failure = Console.standardOutput.failure {
    Console.error("Error: cannot write to standard output: \(failure); the output is incomplete\n")
    if status == ExitStatus.success { status = ExitStatus.failure }
}
exit(status)
