/// The declaration of a command: what it is for and what it accepts. Help, usage lines, errors, completions and the
/// man page are all generated from it, so they cannot drift apart.
struct CommandSpec: Sendable {
    /// The name as typed: `parse`.
    var name: String
    /// One line for `OVERVIEW:` and the subcommand list.
    var abstract: String
    /// Paragraphs shown under the overview.
    var discussion: String = ""
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    var subcommands: [CommandSpec]
    /// Example invocations for the help's `EXAMPLES:` section.
    var examples: [String]

    /// The spec of a command made of `arguments` and `options`, in the order the help lists them.
    init(
        name: String, abstract: String, discussion: String = "", arguments: [any ArgumentDeclaration] = [],
        options: [any OptionDeclaration] = [], subcommands: [CommandSpec] = [], examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.subcommands = subcommands
        self.examples = examples
    }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// Shown as `<name>`.
    var name: String
    var help: String
    /// Takes any number of values (`[<files> ...]`).
    var isRepeating = false
    var isOptional = true
    var defaultValue: String? = nil
    /// Values it accepts, for completion and the man page; empty for any.
    var choices: [String] = []
    /// What kind of value, for shell completion: a file unless it says otherwise.
    var completion: OptionSpec.Completion = .file
}

/// A named option or flag.
struct OptionSpec: Sendable {
    /// Without dashes: `output` for `--output`.
    var long: String
    /// Without the dash: `o` for `-o`.
    var short: Character? = nil
    /// The value's name in help (`<file>`); `nil` for a flag that takes no value.
    var valueName: String? = nil
    var help: String
    var isRepeatable = false
    /// Must be given at least once.
    var isRequired = false
    var defaultValue: String? = nil
    /// Values it accepts, for help and completion (`gpx`, `geojson`).
    var choices: [String] = []
    /// What kind of value, for shell completion.
    var completion: Completion = .none

    enum Completion: Sendable { case none, file, directory }

    var isFlag: Bool { valueName == nil }

    /// `-o, --output <file>` or `--stats`.
    var label: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }

    /// The shortest way to write it in a usage line: `-o <file>`, `--stats`.
    var usageLabel: String {
        let name = short.map { "-\($0)" } ?? "--\(long)"
        if let valueName { return "\(name) <\(valueName)>" }
        return name
    }

    static let help = OptionSpec(long: "help", short: "h", help: "Show help information.")
}
