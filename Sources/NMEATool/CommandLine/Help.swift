/// Renders help and usage text the way swift-argument-parser does.
enum Help {
    static let labelWidth = 24

    /// `nmea parse [<files> ...] [--stats]`.
    static func usage(_ spec: CommandSpec, commandPath: String) -> String {
        if !spec.subcommands.isEmpty { return "\(commandPath) <subcommand>" }
        var parts = [commandPath]
        for argument in spec.arguments {
            var text = "<\(argument.name)>"
            if argument.isRepeating { text += " ..." }
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        for option in spec.options {
            var text = option.usageLabel
            if option.isRepeatable { text += " ..." }
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    /// The full help for `spec`.
    static func text(_ spec: CommandSpec, commandPath: String) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty {
            let paragraphs = spec.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            out +=
                "\n"
                + paragraphs.map { wrap(String($0), width: 80).joined(separator: "\n") }
                .joined(separator: "\n") + "\n"
        }
        out += "\nUSAGE: \(usage(spec, commandPath: commandPath))\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments {
                out += row("<\(argument.name)>", describe(argument.help, defaultValue: argument.defaultValue))
            }
        }
        out += "\nOPTIONS:\n"
        for option in spec.options {
            var help = option.help
            if !option.choices.isEmpty { help += " (values: \(option.choices.joined(separator: ", ")))" }
            out += row(option.label, describe(help, defaultValue: option.defaultValue))
        }
        out += row(OptionSpec.help.label, OptionSpec.help.help)
        if !spec.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for subcommand in spec.subcommands { out += row(subcommand.name, subcommand.abstract) }
            out += "\n  See '\(commandPath) help <subcommand>' for detailed help.\n"
        }
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n"
            for example in spec.examples { out += "  \(example)\n" }
        }
        return out
    }

    /// What goes on standard error for a usage mistake.
    static func errorText(_ error: UsageError) -> String {
        "Error: \(error.message)\nUsage: \(usage(error.command, commandPath: error.commandPath))\n"
            + "  See '\(error.commandPath) --help' for more information.\n"
    }

    private static func describe(_ help: String, defaultValue: String?) -> String {
        guard let defaultValue else { return help }
        return "\(help) (default: \(defaultValue))"
    }

    /// `  label                   help`, wrapping to the next line when the label is long.
    private static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: labelWidth + 2)
        let lines = wrap(help, width: 80 - indent.count)
        var out = "  \(label)"
        if label.count < labelWidth {
            out += String(repeating: " ", count: labelWidth - label.count)
        } else {
            out += "\n\(indent)"
        }
        out += lines.joined(separator: "\n\(indent)") + "\n"
        return out
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " \(word)"
        }
        lines.append(current)
        return lines
    }
}
