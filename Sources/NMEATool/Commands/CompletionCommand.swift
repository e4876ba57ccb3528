/// `nmea completion bash|zsh`: a shell completion script, generated from the command specs.
enum CompletionCommand: Command {
    static let shells = ["bash", "zsh"]

    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script for bash or zsh.",
        discussion: """
            The script completes subcommands, options, the values options accept (--color speed, altitude, none) \
            and file names where a file is expected. It is generated from the same declarations as the help, so \
            it always matches this version of nmea.
            bash: save it as ~/.local/share/bash-completion/completions/nmea (loaded on demand by the \
            bash-completion package), or add 'source <(nmea completion bash)' to ~/.bashrc.
            zsh: save it as _nmea in a directory of $fpath, or add 'source <(nmea completion zsh)' to ~/.zshrc \
            after compinit.
            """,
        arguments: [shell],
        examples: [
            "nmea completion bash > ~/.local/share/bash-completion/completions/nmea",
            "nmea completion zsh > ~/.zfunc/_nmea",
        ])

    private static let shell = Argument<String>(
        required: "shell", help: "The shell to complete for.", choices: shells, completion: .none)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let shell = arguments.value(Self.shell)
        // Top-level code in main.swift (the root spec) belongs to the main actor; commands run on the main thread.
        let root = MainActor.assumeIsolated { rootSpec }
        switch shell {
        case "bash": Console.standardOutput.write(Completion.bash(root))
        case "zsh": Console.standardOutput.write(Completion.zsh(root))
        default:
            throw arguments.usageError(
                "The value '\(shell)' is invalid for '<shell>'. Please provide one of "
                    + shells.map { "'\($0)'" }.joined(separator: ", ") + ".")
        }
        return ExitStatus.success
    }
}
