import Foundation
import TestSupport
import Testing

/// `nmea completion bash|zsh`: the scripts load in the real shells and complete what the parser accepts.
@Suite struct CompletionTests {
    static let hasZsh = Tools.which("zsh") != nil

    /// The subcommands `nmea --help` lists.
    static func subcommands() throws -> [String] {
        let help = try ToolSupport.nmea(["--help"]).text
        let section = help.components(separatedBy: "SUBCOMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        // Rows start with two spaces and the name; wrapped abstracts continue further in.
        return section.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Every option spelling (`-o`, `--output`) in the OPTIONS section of `nmea help <command>`.
    static func options(of command: String) throws -> [String] {
        let help = try ToolSupport.nmea(["help"] + command.split(separator: " ").map(String.init)).text
        let section = help.components(separatedBy: "OPTIONS:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            line.split(separator: " ").prefix(while: { $0.hasPrefix("-") || $0.hasPrefix("<") })
                .filter { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
        }
    }

    static func script(_ shell: String, in directory: URL) throws -> String {
        let outcome = try ToolSupport.nmea(["completion", shell])
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        let path = directory.appendingPathComponent(shell == "zsh" ? "_nmea" : "nmea.bash").path
        try outcome.output.write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - bash

    /// What bash offers for `words` (the last one being completed), in a directory holding `track.svg`
    /// and `drive.nmea`.
    static func bashCompletions(_ words: [String], script: String, directory: URL) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source '\(script)' || exit 3
            COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _nmea nmea "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let outcome = try ToolSupport.run("bash", ["--norc", "--noprofile", "-c", program], directory: directory)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.error == "")
        return outcome.text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashScriptLoadsAndRegisters() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.script("bash", in: directory)
        let syntax = try ToolSupport.run("bash", ["-n", script])
        #expect(syntax.status == 0 && syntax.error == "", "\(syntax.error)")
        let outcome = try ToolSupport.run(
            "bash", ["--norc", "--noprofile", "-c", "source '\(script)' && complete -p nmea"])
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        #expect(outcome.text == "complete -F _nmea nmea\n")
    }

    @Test func bashCompletesCommandsOptionsValuesAndFiles() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.script("bash", in: directory)
        for name in ["track.svg", "drive.nmea"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)
        }
        func complete(_ words: String...) throws -> [String] {
            try Self.bashCompletions(words, script: script, directory: directory)
        }
        #expect(try complete("nmea", "") == (try Self.subcommands() + ["help"]).sorted())
        #expect(try complete("nmea", "pl") == ["plot"])
        #expect(try complete("nmea", "--v") == ["--version"])
        #expect(try complete("nmea", "plot", "--color", "") == ["altitude", "none", "speed"])
        #expect(try complete("nmea", "plot", "--color", "=", "a") == ["altitude"])
        #expect(try complete("nmea", "convert", "--format", "=", "") == ["csv", "geojson", "gpx", "gpx10", "kml"])
        #expect(try complete("nmea", "plot", "--wi") == ["--width"])
        #expect(try complete("nmea", "plot", "-o", "tr") == ["track.svg"])
        #expect(try complete("nmea", "plot", "dr") == ["drive.nmea"])
        #expect(try complete("nmea", "plot", "--width", "") == [])
        #expect(try complete("nmea", "completion", "") == ["bash", "zsh"])
        #expect(try complete("nmea", "help", "co") == ["collect", "completion", "config", "convert"])
        #expect(try complete("nmea", "help", "--") == ["--help", "--man"])
        #expect(try complete("nmea", "simulate", "--route", "") == ["commute", "drive"])
        // A value after an option does not count as a positional argument.
        #expect(try complete("nmea", "convert", "--format", "gpx", "dr") == ["drive.nmea"])
        // A group's subcommands, their options and values, and its help.
        #expect(
            try complete("nmea", "fleet", "") == [
                "events", "geofence", "help", "last", "report", "serve", "track", "trips",
            ])
        #expect(try complete("nmea", "fleet", "-") == ["--help", "-h"])
        #expect(try complete("nmea", "fleet", "tr") == ["track", "trips"])
        #expect(try complete("nmea", "fleet", "trips", "--s") == ["--since"])
        #expect(try complete("nmea", "fleet", "track", "-o", "tr") == ["track.svg"])
        #expect(
            try complete("nmea", "fleet", "help", "") == [
                "events", "geofence", "last", "report", "serve", "track", "trips",
            ])
        #expect(Set(try complete("nmea", "fleet", "last", "-")) == Set(try Self.options(of: "fleet last")))
    }

    @Test func everyOptionOfEveryCommandIsOffered() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bash = try Self.script("bash", in: directory)
        let commands = try Self.subcommands()
        #expect(commands.contains("plot") && commands.contains("completion"))
        for command in commands {
            let expected = try Self.options(of: command)
            #expect(expected.contains("--help"))
            let offered = try Self.bashCompletions(["nmea", command, "-"], script: bash, directory: directory)
            #expect(Set(offered) == Set(expected), "nmea \(command)")
        }
    }

    // MARK: - zsh

    /// Drives an interactive zsh on a pseudo-terminal (zsh/zpty), presses Tab after `line` and prints every match
    /// the completion system adds.
    static let zshCapture = #"""
        zmodload zsh/zpty || exit 2
        zpty z zsh -f -i
        zpty -w z "PS1='' PROMPT='' RPROMPT=''"
        zpty -w z 'autoload -Uz compinit && compinit -u -D'
        zpty -w z "source ${(q)1}"
        zpty -w z "cd ${(q)3}"
        zpty -w z 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
        # Each match added is printed between unit separators (written \037, so the echo of this line has none).
        zpty -w z 'compadd () {
          if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
          local -a hits
          builtin compadd -A hits "$@"
          (( $#hits )) || return 1
          local hit
          for hit in $hits; do print -n -- "\037$hit\037"; done
          builtin compadd -Q -U ""
        }'
        zpty -w z 'finish () { print "END-OF-""CAPTURE"; exit }; zle -N finish; bindkey "^X" finish'
        zpty -n -w z "$2"$'\t'$'\x18'
        output=""
        while zpty -r z line; do
          output+=$line
          [[ $output == *END-OF-CAPTURE* ]] && break
        done
        zpty -d z
        print -r -- "${output%%END-OF-CAPTURE*}" | tr -d '\r' | grep -a -o $'\037[^\037]*\037' | tr -d $'\037' | sort -u
        """#

    @Test(.enabled(if: hasZsh, "zsh is not installed")) func zshScriptLoadsAndRegisters() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.script("zsh", in: directory)
        let syntax = try ToolSupport.run("zsh", ["-n", script])
        #expect(syntax.status == 0 && syntax.error == "", "\(syntax.error)")
        #expect(try String(contentsOfFile: script, encoding: .utf8).hasPrefix("#compdef nmea\n"))
        // Sourced after compinit, or autoloaded from $fpath: either way `nmea` completes with _nmea.
        let sourced = try ToolSupport.run(
            "zsh",
            [
                "-f", "-c",
                "autoload -Uz compinit && compinit -u -D && source '\(script)' && print -r -- $_comps[nmea]",
            ])
        #expect(sourced.status == 0)
        #expect(sourced.error == "")
        #expect(sourced.text == "_nmea\n")
        let autoloaded = try ToolSupport.run(
            "zsh",
            [
                "-f", "-c",
                "fpath=('\(directory.path)' $fpath); autoload -Uz compinit && compinit -u -D && print -r -- $_comps[nmea]",
            ])
        #expect(autoloaded.text == "_nmea\n")
        #expect(autoloaded.error == "")
    }

    @Test(.enabled(if: hasZsh, "zsh is not installed")) func zshCompletesCommandsOptionsValuesAndFiles() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.script("zsh", in: directory)
        let capture = directory.appendingPathComponent("capture.zsh").path
        try Data(Self.zshCapture.utf8).write(to: URL(fileURLWithPath: capture))
        let files = directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for name in ["track.svg", "drive.nmea"] {
            _ = FileManager.default.createFile(atPath: files.appendingPathComponent(name).path, contents: nil)
        }
        func complete(_ line: String) throws -> [String] {
            let outcome = try ToolSupport.run("timeout", ["30", "zsh", "-f", capture, script, line, files.path])
            #expect(outcome.status == 0, "\(line): \(outcome.error)")
            return outcome.text.split(separator: "\n").map(String.init)
        }
        #expect(try complete("nmea ") == (try Self.subcommands() + ["help"]).sorted())
        #expect(try complete("nmea plot --color ") == ["altitude", "none", "speed"])
        #expect(try complete("nmea convert --format=") == ["csv", "geojson", "gpx", "gpx10", "kml"])
        #expect(try complete("nmea completion ") == ["bash", "zsh"])
        #expect(
            try complete("nmea fleet ") == ["events", "geofence", "help", "last", "report", "serve", "track", "trips"])
        #expect(try complete("nmea fleet trips --u") == ["--until"])
        #expect(try complete("nmea fleet track -o tr") == ["track.svg"])
        #expect(try complete("nmea plot -o tr") == ["track.svg"])
        #expect(try complete("nmea plot dr") == ["drive.nmea"])
        let plotOptions = try complete("nmea plot -")
        #expect(Set(plotOptions) == Set(try Self.options(of: "plot")))
    }

    // MARK: - Errors

    @Test func shellIsRequiredAndChecked() throws {
        let missing = try ToolSupport.nmea(["completion"])
        #expect(missing.status == 64)
        #expect(
            missing.error == "Error: Missing expected argument '<shell>'\nUsage: nmea completion <shell>\n"
                + "  See 'nmea completion --help' for more information.\n")
        let fish = try ToolSupport.nmea(["completion", "fish"])
        #expect(fish.status == 64)
        #expect(
            fish.error.hasPrefix(
                "Error: The value 'fish' is invalid for '<shell>'. Please provide one of "
                    + "'bash', 'zsh'.\n"))
        #expect(fish.text == "")
    }
}
